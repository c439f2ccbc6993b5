/**
 * A small index by integer id (a flow, a sending queue pair): an open-addressing hash table
 * (linear probing, at most half full) in two typed arrays, whose size follows the ids stored,
 * not the range they come from. For lookups on the hot path where a flat array over the whole
 * range would grow with the square of the hosts (a flow id ranges over hosts² × VLs: 64 MiB
 * at 4,096 hosts, each lookup on a page of its own; packages/sim/README.md, "Benchmark").
 */
export class IdIndex {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < 2 * initialCapacity) capacity *= 2;
    this.keys = new Float64Array(capacity).fill(-1);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The index stored for `id` (a non-negative whole number), or −1. */
  get(id: number): number {
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
