import type { AxisValue, SweepEntry, SweepPoint } from "../data/types.js";

/** The points of one cell (axis values), their mean metric, and the first run to open. */
export interface Cell {
  readonly points: readonly SweepPoint[];
  readonly mean: number | null;
  readonly runId?: string;
}

const key = (v: AxisValue) => JSON.stringify(v);

/**
 * Groups a sweep's points by the values of `axes` (seeds and points with equal values
 * together), keeping only points whose other axes have the `fixed` values; the cell's
 * metric is the mean over its points that have one.
 */
export function gridCells(
  sweep: SweepEntry,
  axes: readonly string[],
  fixed: Readonly<Record<string, AxisValue>>,
  metric: string,
): Map<string, Cell> {
  const byCell = new Map<string, SweepPoint[]>();
  for (const p of sweep.points) {
    const others = Object.entries(fixed).every(([a, v]) => key(p.values[a] ?? null) === key(v));
    if (!others) continue;
    const k = cellKey(axes.map((a) => p.values[a] ?? null));
    byCell.set(k, [...(byCell.get(k) ?? []), p]);
  }
  const cells = new Map<string, Cell>();
  for (const [k, points] of byCell) {
    const values = points
      .map((p) => p.metrics[metric])
      .filter((v): v is number => typeof v === "number");
    const runId = points.find((p) => p.runId !== undefined)?.runId;
    cells.set(k, {
      points,
      mean: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
      ...(runId === undefined ? {} : { runId }),
    });
  }
  return cells;
}

export function cellKey(values: readonly AxisValue[]): string {
  return values.map(key).join("\u0000");
}

/** An axis value as text (strings without quotes). */
export function axisText(v: AxisValue): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}
