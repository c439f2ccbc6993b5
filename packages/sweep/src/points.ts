import { applyOverrides } from "@cclab/sim";
import type { SweepFile } from "./sweep-file.js";
import { SweepError } from "./sweep-file.js";

/** One point of a sweep: a value for every axis and a seed. */
export interface SweepPoint {
  /** Position in the sweep's order (first axis outermost, seeds innermost), from 0. */
  readonly index: number;
  /** `p001`…: the point's directory under `points/`. */
  readonly id: string;
  /** Axis path → value, in the sweep file's axis order. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** The base scenario with `set`, the axis values and the seed applied. */
  readonly document: unknown;
}

/** Sweeps larger than this are refused: a typo in a range should not queue a million runs. */
export const MAX_POINTS = 100_000;

/** The values of one axis, ranges expanded (both ends included, rounded to 12 digits). */
export function axisValues(axis: SweepFile["axes"][string]): unknown[] {
  if (Array.isArray(axis)) return axis;
  const clean = (x: number) => Number(x.toPrecision(12));
  const out: number[] = [];
  if ("step" in axis) {
    const n = Math.floor((axis.to - axis.from) / axis.step + 1e-9);
    for (let i = 0; i <= n && out.length <= MAX_POINTS; i++)
      out.push(clean(axis.from + i * axis.step));
  } else {
    for (
      let x = axis.from;
      x <= axis.to * (1 + 1e-12) && out.length <= MAX_POINTS;
      x *= axis.factor
    ) {
      out.push(clean(x));
    }
  }
  return out;
}

/** The seeds every point is repeated with; `undefined` keeps the base scenario's seed. */
export function sweepSeeds(sweep: SweepFile, baseDocument: unknown): number[] {
  if (sweep.seeds === undefined) {
    const seed = (baseDocument as { seed?: unknown } | null)?.seed;
    return [typeof seed === "number" ? seed : 1];
  }
  if (Array.isArray(sweep.seeds)) return sweep.seeds;
  const { count, from } = sweep.seeds;
  return Array.from({ length: count }, (_, i) => from + i);
}

/** Every point of the sweep, in order. */
export function expandPoints(sweep: SweepFile, baseDocument: unknown): SweepPoint[] {
  const axes = Object.entries(sweep.axes).map(([path, axis]) => {
    const values = axisValues(axis);
    if (values.length === 0) {
      throw new SweepError([
        { path: `axes.${path}`, message: "the range holds no value (from > to?)" },
      ]);
    }
    return { path, values };
  });
  const seeds = sweepSeeds(sweep, baseDocument);
  const total = axes.reduce((n, a) => n * a.values.length, seeds.length);
  if (total > MAX_POINTS) {
    throw new SweepError([
      { path: "axes", message: `${total} points; at most ${MAX_POINTS} per sweep` },
    ]);
  }
  const fixed = Object.entries(sweep.set).map(
    ([path, value]) => `${path}=${JSON.stringify(value)}`,
  );
  const width = String(total).length;
  const points: SweepPoint[] = [];
  const combination = new Array<unknown>(axes.length);
  const walk = (depth: number) => {
    if (depth === axes.length) {
      for (const seed of seeds) {
        const index = points.length;
        const values = Object.fromEntries(axes.map((a, i) => [a.path, combination[i]]));
        const assignments = [
          ...fixed,
          ...axes.map((a, i) => `${a.path}=${JSON.stringify(combination[i])}`),
        ];
        const document = { ...(applyOverrides(baseDocument, assignments) as object), seed };
        points.push({
          index,
          id: `p${String(index + 1).padStart(width, "0")}`,
          values,
          seed,
          document,
        });
      }
      return;
    }
    for (const value of axes[depth]!.values) {
      combination[depth] = value;
      walk(depth + 1);
    }
  };
  walk(0);
  return points;
}
