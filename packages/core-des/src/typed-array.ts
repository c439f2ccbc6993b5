/** The typed arrays the growable stores of the kernel and the fabric use. */
export type GrowableArray =
  | Float64Array<ArrayBuffer>
  | Float32Array<ArrayBuffer>
  | Int32Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Int16Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>
  | Int8Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>;

/**
 * A copy of `a` with `length` elements (≥ `a.length`): the old contents, then `fill` (zeros by
 * default).
 */
export function resized<T extends GrowableArray>(a: T, length: number, fill = 0): T {
  const grown = new (a.constructor as new (length: number) => T)(length);
  grown.set(a);
  if (fill !== 0) grown.fill(fill, a.length);
  return grown;
}

/** `a` itself if it holds `length` elements, else a copy grown to at least double its size. */
export function ensureLength<T extends GrowableArray>(a: T, length: number): T {
  return length <= a.length ? a : resized(a, Math.max(length, a.length * 2));
}
