import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Figure } from "./figure.js";
import { renderSvg, svgToPng } from "./render.js";
import type { RunSelection } from "./run-context.js";
import { type RunFigureName, runFigures } from "./run-figures.js";

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
 * can be redrawn without rerunning. Returns the paths written, relative to `dir`. Without a
 * filter, stale figures of an earlier rendering are removed first.
 */
export async function plotRun(dir: string, options: PlotRunOptions = {}): Promise<string[]> {
  const { only, ...selection } = options;
  const figures = runFigures(dir, only, selection);
  const plots = join(dir, "plots");
  if (options.only === undefined) rmSync(plots, { recursive: true, force: true });
  const written = await writeFigures(plots, figures);
  return written.map((f) => join("plots", f));
}
