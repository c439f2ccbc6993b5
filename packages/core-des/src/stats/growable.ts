/** Returns `a`, or a copy at least `length` long (doubling) with the old contents. */
export function ensureLength(
  a: Float64Array<ArrayBuffer>,
  length: number,
): Float64Array<ArrayBuffer> {
  if (length <= a.length) return a;
  const grown = new Float64Array(Math.max(length, a.length * 2));
  grown.set(a);
  return grown;
}
