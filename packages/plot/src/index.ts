export {
  type ComparedRun,
  type Comparison,
  compareRuns,
  comparisonCsv,
  comparisonRows,
  differencesWarning,
  type GroupFigures,
} from "./compare.js";
export { column, parseTable, readTable, type Table } from "./csv.js";
export {
  type BandPoint,
  type Figure,
  type LineFigureOptions,
  type LinePoint,
  lineFigure,
  MAX_LINES,
  timeAxisFor,
} from "./figure.js";
export { type HeatCell, type HeatmapOptions, heatmapFigure } from "./heatmap.js";
export { type PlotRunOptions, plotRun, writeFigures } from "./plot-run.js";
export { FONT_FAMILY, renderSvg, svgToPng } from "./render.js";
export { type RunSelection, runContext } from "./run-context.js";
export {
  cdfPoints,
  RUN_FIGURES,
  type RunFigureName,
  runFigures,
  variableTitle,
} from "./run-figures.js";
export { type ScenarioDifference, scenarioDifferences } from "./scenario-diff.js";
export { spreadVariance, treatmentVariation } from "./treatment-variation.js";
