/**
 * Jain's fairness index (Jain, Chiu & Hawe 1984): (Σx)² / (n · Σx²), in [1/n, 1]; 1 when
 * all values are equal. All-zero allocations are equal too and give 1. Shares are scaled by
 * the largest before squaring, so tiny or huge magnitudes neither underflow nor overflow.
 */
export function jainIndex(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) throw new RangeError("Jain's index needs at least one value");
  let max = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (!(x >= 0) || !Number.isFinite(x)) {
      throw new RangeError(`Jain's index needs finite values ≥ 0, got ${x} at index ${i}`);
    }
    if (x > max) max = x;
  }
  if (max === 0) return 1;
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]! / max;
    sum += x;
    sumSquares += x * x;
  }
  return (sum * sum) / (n * sumSquares);
}
