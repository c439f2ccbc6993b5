import { type Figure, heatmapFigure, type LinePoint, lineFigure } from "@cclab/plot";
import type { SweepPoint } from "./points.js";
import type { SweepFile } from "./sweep-file.js";
import { type PointRecord, summaryValue } from "./table.js";

/** At most this many figures per metric when a third axis splits the heat maps. */
const MAX_SPLITS = 12;

const label = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** Mean, min and max over the seeds of one combination of axis values. */
interface Cell {
  readonly values: readonly unknown[];
  readonly mean: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly runs: number;
  readonly failed: number;
}

function cells(
  axes: readonly string[],
  points: readonly SweepPoint[],
  records: readonly PointRecord[],
  metric: string,
): Cell[] {
  const byKey = new Map<
    string,
    { values: unknown[]; xs: number[]; runs: number; failed: number }
  >();
  points.forEach((p, i) => {
    const values = axes.map((a) => p.values[a]);
    const key = JSON.stringify(values);
    const c = byKey.get(key) ?? { values, xs: [], runs: 0, failed: 0 };
    byKey.set(key, c);
    c.runs++;
    const r = records[i]!;
    if (r.status === "failed") c.failed++;
    const v = r.summary === undefined ? undefined : summaryValue(r.summary, metric);
    if (typeof v === "number" && Number.isFinite(v)) c.xs.push(v);
  });
  return [...byKey.values()].map((c) => ({
    values: c.values,
    mean: c.xs.length === 0 ? undefined : c.xs.reduce((s, x) => s + x, 0) / c.xs.length,
    min: c.xs.length === 0 ? undefined : Math.min(...c.xs),
    max: c.xs.length === 0 ? undefined : Math.max(...c.xs),
    runs: c.runs,
    failed: c.failed,
  }));
}

/** Default plotted metrics: every group's mean throughput, then the total. */
export function defaultPlotMetrics(columns: readonly string[]): string[] {
  return [...columns.filter((c) => /^groups\..+\.meanGbps$/.test(c)), "totals.windowGbps"];
}

function format(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.01 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(3)));
}

/**
 * Figures over a sweep's axes, one per plotted metric (mean over seeds): a line with a min–max
 * band over one axis, a heat map over two, one heat map per value of a third. Four or more
 * axes are not drawn (the note says so; sweep.csv has every point).
 */
export function sweepFigures(
  sweep: SweepFile,
  points: readonly SweepPoint[],
  records: readonly PointRecord[],
  columns: readonly string[],
): { figures: Figure[]; note?: string } {
  const axes = Object.keys(sweep.axes);
  if (axes.length > 3) {
    return {
      figures: [],
      note: `no plots: a sweep over ${axes.length} axes (plots cover up to 3); sweep.csv has every point`,
    };
  }
  const metrics = sweep.plot.metrics ?? defaultPlotMetrics(columns);
  const seeds = new Set(points.map((p) => p.seed)).size;
  const over = seeds > 1 ? `mean over ${seeds} seeds` : `seed ${points[0]!.seed}`;
  const figures: Figure[] = [];
  const empty: string[] = [];
  for (const metric of metrics) {
    const all = cells(axes, points, records, metric);
    if (all.every((c) => c.mean === undefined)) {
      empty.push(metric);
      continue;
    }
    const title = `${sweep.name}: ${metric}`;
    if (axes.length === 1) {
      const axis = axes[0]!;
      const numeric = all.every((c) => typeof c.values[0] === "number");
      const present = all.filter((c) => c.mean !== undefined);
      const points: LinePoint[] = present.map((c) => ({
        x: c.values[0] as number,
        y: c.mean!,
        series: metric,
      }));
      figures.push(
        lineFigure({
          name: `line-${metric}`,
          title,
          subtitle: seeds > 1 ? `${over}; shaded: min–max over seeds` : over,
          xTitle: axis,
          yTitle: metric,
          legendTitle: "metric",
          points: numeric ? points : points.map((p, i) => ({ ...p, x: i })),
          bands:
            seeds > 1
              ? present.map((c) => ({
                  x: c.values[0] as number,
                  lo: c.min!,
                  hi: c.max!,
                  series: metric,
                }))
              : [],
        }),
      );
      continue;
    }
    const [ax, ay, az] = axes as [string, string, string | undefined];
    const order = (i: number) => [...new Set(points.map((p) => label(p.values[axes[i]!])))];
    const splits = az === undefined ? [undefined] : order(2).slice(0, MAX_SPLITS);
    for (const split of splits) {
      const chosen = all.filter((c) => split === undefined || label(c.values[2]) === split);
      figures.push(
        heatmapFigure({
          name: split === undefined ? `heatmap-${metric}` : `heatmap-${metric}@${az}=${split}`,
          title,
          subtitle: `${over}${split === undefined ? "" : `; ${az} = ${split}`}`,
          xTitle: ax,
          yTitle: ay,
          colorTitle: metric,
          xOrder: order(0),
          yOrder: order(1),
          cells: chosen.map((c) => ({
            x: label(c.values[0]),
            y: label(c.values[1]),
            value: c.mean,
            label: c.mean === undefined ? (c.failed > 0 ? "failed" : "–") : format(c.mean),
          })),
        }),
      );
    }
  }
  const notes: string[] = [];
  if (empty.length > 0) notes.push(`no numbers for ${empty.join(", ")} in any point's summary`);
  if (az3(axes) && new Set(points.map((p) => label(p.values[axes[2]!]))).size > MAX_SPLITS) {
    notes.push(`heat maps for the first ${MAX_SPLITS} values of ${axes[2]} only`);
  }
  return notes.length === 0 ? { figures } : { figures, note: notes.join("; ") };
}

function az3(axes: readonly string[]): boolean {
  return axes.length === 3;
}
