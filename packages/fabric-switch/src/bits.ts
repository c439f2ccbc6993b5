/** Sets bit `i` of the bit set of 32-bit words starting at `words[base]`. */
export function setBit(words: Int32Array, base: number, i: number): void {
  words[base + (i >>> 5)]! |= 1 << (i & 31);
}

/** Clears bit `i` of the bit set of 32-bit words starting at `words[base]`. */
export function clearBit(words: Int32Array, base: number, i: number): void {
  words[base + (i >>> 5)]! &= ~(1 << (i & 31));
}
