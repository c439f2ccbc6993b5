/**
 * The 1-based nearest rank ⌈q·n⌉ (at least 1) for quantile q of n values (docs/model.md,
 * "What is measured": percentiles by nearest rank). A product within 1e-9 of an integer is
 * taken as that integer, so that q = 0.29, n = 100 gives rank 29 although 0.29 × 100 is
 * 28.999999999999996 in binary.
 */
export function nearestRankOf(q: number, n: number): number {
  const x = q * n;
  const nearest = Math.round(x);
  const rank = Math.abs(x - nearest) <= 1e-9 * Math.max(1, x) ? nearest : Math.ceil(x);
  return Math.min(n, Math.max(1, rank));
}

/** Nearest-rank quantile of values already sorted ascending; NaN when there are none. */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile q must be in [0, 1], got ${q}`);
  if (sorted.length === 0) return Number.NaN;
  return sorted[nearestRankOf(q, sorted.length) - 1]!;
}
