import type { SeriesData } from "./types.js";

/**
 * Reduces a series set to about `points` x values over [fromUs, toUs] for display: the samples
 * are split into `points / 2` buckets of equal width in time, and a bucket of more than two
 * samples keeps two x values (its first and last sample's) carrying each line's minimum and
 * maximum in the order they occur. Every peak and trough stays visible at any zoom, which an
 * average or every n-th sample would hide (a queue's one-bin spike when a congestion tree
 * forms). Samples just outside the range are kept so lines run to the edges. A range that
 * holds `points` samples or fewer is returned at full resolution.
 */
export function downsample(
  data: SeriesData,
  fromUs: number,
  toUs: number,
  points: number,
): SeriesData {
  const x = data.x;
  const lo = Math.max(0, lowerBound(x, fromUs) - 1);
  const hi = Math.min(x.length, upperBound(x, toUs) + 1);
  const count = hi - lo;
  const slice = (a: readonly (number | null)[]) => a.slice(lo, hi);
  if (count <= Math.max(points, 4)) {
    return {
      name: data.name,
      x: x.slice(lo, hi),
      lines: data.lines.map((l) => ({ key: l.key, y: slice(l.y) })),
      full: true,
    };
  }
  const buckets = Math.max(1, Math.floor(points / 2));
  const x0 = x[lo]!;
  const width = (x[hi - 1]! - x0) / buckets || 1;
  const outX: number[] = [];
  const outY: (number | null)[][] = data.lines.map(() => []);
  let start = lo;
  while (start < hi) {
    const b = Math.min(buckets - 1, Math.floor((x[start]! - x0) / width));
    let end = start + 1;
    while (end < hi && Math.min(buckets - 1, Math.floor((x[end]! - x0) / width)) === b) end++;
    emitBucket(data, start, end, outX, outY);
    start = end;
  }
  return {
    name: data.name,
    x: outX,
    lines: data.lines.map((l, i) => ({ key: l.key, y: outY[i]! })),
    full: false,
  };
}

/** Appends one bucket [start, end): its samples as they are if ≤ 2, else first/last x with extremes. */
function emitBucket(
  data: SeriesData,
  start: number,
  end: number,
  outX: number[],
  outY: (number | null)[][],
): void {
  if (end - start <= 2) {
    for (let i = start; i < end; i++) {
      outX.push(data.x[i]!);
      data.lines.forEach((l, j) => {
        outY[j]!.push(l.y[i] ?? null);
      });
    }
    return;
  }
  outX.push(data.x[start]!, data.x[end - 1]!);
  data.lines.forEach((l, j) => {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let minAt = -1;
    let maxAt = -1;
    for (let i = start; i < end; i++) {
      const v = l.y[i];
      if (v === null || v === undefined) continue;
      if (v < min) [min, minAt] = [v, i];
      if (v > max) [max, maxAt] = [v, i];
    }
    const out = outY[j]!;
    if (minAt < 0) out.push(null, null);
    else if (minAt <= maxAt) out.push(min, max);
    else out.push(max, min);
  });
}

/** The first index whose value is ≥ `v` (x is sorted ascending). */
export function lowerBound(x: readonly number[], v: number): number {
  let lo = 0;
  let hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose value is > `v`. */
export function upperBound(x: readonly number[], v: number): number {
  let lo = 0;
  let hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
