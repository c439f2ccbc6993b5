import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST, recordFiles, removeIfEmpty, removeListedFiles } from "@cclab/sim";
import type { Figure } from "./figure.js";
import { renderSvg, svgToPng } from "./render.js";
import type { RunSelection } from "./run-context.js";
import { RUN_FIGURES, type RunFigureName, runFigures } from "./run-figures.js";

/** Writes each figure as SVG, PNG and Vega-Lite JSON into `dir`; returns the files' names. */
export async function writeFigures(dir: string, figures: readonly Figure[]): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const figure of figures) {
    const svg = await renderSvg(figure.spec);
    writeFileSync(join(dir, `${figure.name}.svg`), svg);
    writeFileSync(join(dir, `${figure.name}.png`), svgToPng(svg));
    // The spec with its data: restyle or re-render it with any Vega-Lite tool.
    writeFileSync(join(dir, `${figure.name}.vl.json`), `${JSON.stringify(figure.spec)}\n`);
    written.push(`${figure.name}.svg`, `${figure.name}.png`, `${figure.name}.vl.json`);
  }
  return written;
}

export interface PlotRunOptions extends RunSelection {
  /** Only these figures (default: every figure the run has data for). */
  readonly only?: readonly RunFigureName[];
}

/**
 * Renders a finished run's figures into `<dir>/plots/` from the files the run saved, so plots
 * can be redrawn without rerunning. Returns the paths written, relative to `dir`, and lists
 * them in the run's manifest (@cclab/sim's `MANIFEST`). Without a filter, the figures of an
 * earlier rendering are removed first: those the manifest lists, and nothing else of
 * `plots/` (a user's own files there stay).
 */
export async function plotRun(dir: string, options: PlotRunOptions = {}): Promise<string[]> {
  const { only, ...selection } = options;
  const figures = runFigures(dir, only, selection);
  const plots = join(dir, "plots");
  if (options.only === undefined) {
    if (existsSync(join(dir, MANIFEST))) removeListedFiles(dir, (f) => !f.startsWith("plots/"));
    else removeUnlistedFigures(plots);
  }
  const names = figures.flatMap((f) => FIGURE_FILES.map((ext) => `plots/${f.name}${ext}`));
  // Listed before they are written, so figures a killed rendering left are removed later too.
  if (names.length > 0) recordFiles(dir, names);
  const written = await writeFigures(plots, figures);
  removeIfEmpty(plots);
  return written.map((f) => join("plots", f));
}

const FIGURE_FILES = [".svg", ".png", ".vl.json"] as const;

/**
 * A result folder of a cclab without a manifest: its figures are the files named like the
 * figures of a run (`fct.svg`, `cc-ccti.png`); a user's other files stay.
 */
function removeUnlistedFigures(plots: string): void {
  const names = RUN_FIGURES.filter((n) => n !== "cc").join("|");
  const figure = new RegExp(`^(${names}|cc-[A-Za-z0-9_.-]+?)\\.(svg|png|vl\\.json)$`);
  let files: string[];
  try {
    files = readdirSync(plots);
  } catch {
    return;
  }
  for (const file of files) if (figure.test(file)) rmSync(join(plots, file), { force: true });
}
