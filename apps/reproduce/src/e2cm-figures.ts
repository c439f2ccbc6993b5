/** Figures of the E2CM reproductions: per-flow throughput and the hot queue over time. */
import { type Figure, lineFigure } from "@cclab/plot";
import { meanOver, seriesMap } from "./e2cm-measure.js";
import type { FlowSeries } from "./throughput.js";

/** Bins are averaged over this width for drawing, µs (the runs bin at 1 ms). */
const DRAW_US = 5000;

/** Means of `values` (bin start µs → value) per DRAW_US, as points in ms. */
function coarse(values: ReadonlyMap<number, number>, endUs: number, series: string, unit = 1) {
  const points: { x: number; y: number; series: string }[] = [];
  for (let t = 0; t < endUs; t += DRAW_US) {
    points.push({ x: t / 1000, y: meanOver(values, t, t + DRAW_US) / unit, series });
  }
  return points;
}

/** Each flow's delivered throughput over a run, 5-ms means. */
export function flowsFigure(
  name: string,
  title: string,
  flows: ReadonlyMap<string, FlowSeries>,
  endUs: number,
): Figure {
  const points = [...flows].flatMap(([flow, s]) => coarse(seriesMap(s), endUs, flow));
  return lineFigure({
    name,
    title,
    subtitle: "delivered payload per flow, 5-ms means",
    xTitle: "time (ms)",
    yTitle: "Gb/s",
    legendTitle: "flow",
    step: true,
    xDomain: [0, endUs / 1000],
    points,
  });
}

/** The hot output queue of several runs, 5-ms means of the 1-ms means, KB. */
export function queueFigure(
  name: string,
  title: string,
  queues: readonly { label: string; values: ReadonlyMap<number, number> }[],
  endUs: number,
): Figure {
  return lineFigure({
    name,
    title,
    subtitle: "bytes waiting in the switch for the hot node's port, 5-ms means",
    xTitle: "time (ms)",
    yTitle: "KB",
    legendTitle: "scheme",
    step: true,
    xDomain: [0, endUs / 1000],
    points: queues.flatMap((q) => coarse(q.values, endUs, q.label, 1000)),
  });
}
