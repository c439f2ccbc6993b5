/**
 * An index by integer id (a flow, a sending queue pair) for lookups on the hot path: a flat
 * array over the ids' range while that range is small, else an open-addressing hash table
 * (linear probing, at most half full) in two typed arrays, whose size follows the ids stored,
 * not the range they come from. A flat array over a range that grows with the square of the
 * hosts (a flow id ranges over hosts² × VLs) is 64 MiB at 4,096 hosts, each lookup on a page
 * of its own (packages/sim/README.md, "Benchmark").
 */
export class IdIndex {
  /**
   * When the ids' range is small enough: index + 1 by id (0: none), one load per lookup (hashing
   * instead cost uniform256 about 1.5 % more instructions in cachegrind). Untouched pages of it
   * take no memory (no fill pass).
   */
  private readonly dense: Int32Array | null;
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  /**
   * Ids in [0, `idRange`) are kept in a flat array when `idRange` is at most `denseLimit`
   * entries (default 2²², 16 MiB); otherwise, or without a range, in the hash table.
   */
  constructor(idRange = Number.POSITIVE_INFINITY, denseLimit = 1 << 22) {
    this.dense = idRange <= denseLimit ? new Int32Array(idRange) : null;
    // The hash table starts small and doubles: a host's reassembly holds one per host.
    this.keys = new Float64Array(16).fill(-1);
    this.values = new Int32Array(16);
    this.mask = 15;
  }

  /** The index stored for `id` (a whole number ≥ 0, below the range if one was given), or −1. */
  get(id: number): number {
    const dense = this.dense;
    if (dense !== null) return dense[id]! - 1;
    const keys = this.keys;
    const mask = this.mask;
    for (let slot = hash(id) & mask; ; slot = (slot + 1) & mask) {
      const key = keys[slot]!;
      if (key === id) return this.values[slot]!;
      if (key === -1) return -1;
    }
  }

  /** Stores `index` for `id`, which has none yet. */
  set(id: number, index: number): void {
    if (this.dense !== null) {
      this.dense[id] = index + 1;
      return;
    }
    if (2 * (this.count + 1) > this.keys.length) this.grow();
    this.insert(id, index);
    this.count++;
  }

  private insert(id: number, index: number): void {
    const keys = this.keys;
    const mask = this.mask;
    let slot = hash(id) & mask;
    while (keys[slot] !== -1) slot = (slot + 1) & mask;
    keys[slot] = id;
    this.values[slot] = index;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.values = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    for (let slot = 0; slot < keys.length; slot++) {
      if (keys[slot] !== -1) this.insert(keys[slot]!, values[slot]!);
    }
  }
}

// Ids are often dense (a flow id is (src × hosts + dst) × VLs + SL): a multiplicative hash of
// the low and high 32-bit halves spreads neighbouring ids over the table.
function hash(id: number): number {
  const low = id >>> 0;
  const high = (id / 4294967296) >>> 0;
  return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> 0;
}
