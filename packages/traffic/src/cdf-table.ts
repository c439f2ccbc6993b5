import type { RngStream } from "@cclab/core-des";
import type { CdfPoints } from "./cdf-points.js";

/**
 * An empirical CDF ready to sample: the points as typed arrays, and the exact first two
 * moments of the sizes drawn.
 *
 * Convention (the HPCC/ns-3 RDMA traffic generator's, traffic_gen/custom_rand.py, whose data
 * the built-ins are): the CDF is linear in bytes between points, so a size is drawn by
 * inverting it at u ~ U[0, 1): x = x₀ + (x₁ − x₀)·(u − p₀)/(p₁ − p₀) on the segment holding u,
 * i.e. sizes uniform within each segment. That generator then truncates to an integer; we round
 * to the nearest instead, which makes the mean of the whole sizes exactly the mean of the
 * piecewise-linear distribution (the generator's own `getAvg`, which it converts the load with)
 * when the points are whole bytes, where truncating would fall half a byte short.
 */
export interface CdfTable {
  readonly bytes: Float64Array;
  readonly fractions: Float64Array;
  /** E[size], bytes. */
  readonly meanBytes: number;
  /** E[size²], bytes². */
  readonly meanSquareBytes: number;
}

// One table per points array: a scenario's size object lives as long as its pattern.
const tables = new WeakMap<CdfPoints, CdfTable>();

/** The table of `points` (valid: checked by the schema), made once per points array. */
export function cdfTable(points: CdfPoints): CdfTable {
  let table = tables.get(points);
  if (table === undefined) {
    table = compile(points);
    tables.set(points, table);
  }
  return table;
}

function compile(points: CdfPoints): CdfTable {
  const bytes = Float64Array.from(points, (p) => p[0]);
  const fractions = Float64Array.from(points, (p) => p[1]);
  // The first fraction is an atom at the first size; each segment then holds its share
  // uniformly. Rounding a uniform on [a, b] (whole a < b) gives a and b with weight ½ and the
  // sizes between with weight 1, of mean (a + b)/2 (as unrounded) and of mean square
  // (a² + ab + b²)/3 + 1/6 (unrounded, plus the rounding's 1/6).
  let mean = fractions[0]! * bytes[0]!;
  let meanSquare = fractions[0]! * bytes[0]! ** 2;
  for (let i = 1; i < points.length; i++) {
    const share = fractions[i]! - fractions[i - 1]!;
    const a = bytes[i - 1]!;
    const b = bytes[i]!;
    mean += (share * (a + b)) / 2;
    meanSquare += share * ((a * a + a * b + b * b) / 3 + 1 / 6);
  }
  return { bytes, fractions, meanBytes: mean, meanSquareBytes: meanSquare };
}

/** One size drawn from `table`: one `rng.uniform()`, inverted as the file comment says. */
export function sampleCdf(table: CdfTable, rng: RngStream): number {
  const { bytes, fractions } = table;
  const u = rng.uniform();
  // The first point whose fraction exceeds u (the last one's, 1, always does): u then lies in
  // [fractions[i − 1], fractions[i]), a segment of positive width, never a flat step.
  let lo = 0;
  let hi = fractions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fractions[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  if (lo === 0) return bytes[0]!;
  const p0 = fractions[lo - 1]!;
  const x0 = bytes[lo - 1]!;
  return Math.round(x0 + ((bytes[lo]! - x0) * (u - p0)) / (fractions[lo]! - p0));
}
