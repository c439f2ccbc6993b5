/**
 * Queue pairs held back by their gate until a time, as a binary min-heap on (that time, the
 * order they were parked in). The keys live in dense arrays beside the items, not in the queue
 * pair objects, so a sift compares numbers in two arrays instead of reading each queue pair and
 * its time, which past 2^31 ps V8 keeps in a heap number of its own (a cache miss each on a
 * large fabric).
 */
export class ParkedHeap<T> {
  private items: (T | undefined)[];
  private untilPs: Float64Array<ArrayBuffer>;
  private seq: Float64Array<ArrayBuffer>;
  private count = 0;
  private nextSeq = 0;

  constructor(initialCapacity = 8) {
    const capacity = Math.max(1, initialCapacity);
    this.items = new Array<T | undefined>(capacity);
    this.untilPs = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** When the first parked item may go, or +Infinity when none is parked. */
  topPs(): number {
    return this.count === 0 ? Number.POSITIVE_INFINITY : this.untilPs[0]!;
  }

  /** Parks `item` until `untilPs`; of items parked until the same time, the earlier goes first. */
  push(item: T, untilPs: number): void {
    if (this.count === this.items.length) this.grow();
    const seq = this.nextSeq++;
    let k = this.count++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.before(untilPs, seq, parent)) break;
      this.move(k, parent);
      k = parent;
    }
    this.place(k, item, untilPs, seq);
  }

  /** Removes and returns the first item (the caller checks {@link length} first). */
  popTop(): T {
    const top = this.items[0]!;
    const n = --this.count;
    const last = this.items[n]!;
    const lastPs = this.untilPs[n]!;
    const lastSeq = this.seq[n]!;
    this.items[n] = undefined;
    if (n === 0) return top;
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && this.before(this.untilPs[right]!, this.seq[right]!, child)) child = right;
      if (this.before(lastPs, lastSeq, child)) break;
      this.move(k, child);
      k = child;
    }
    this.place(k, last, lastPs, lastSeq);
    return top;
  }

  // Whether a key (untilPs, seq) comes before the key at position k. The seqs differ, so one of
  // any two keys comes first.
  private before(untilPs: number, seq: number, k: number): boolean {
    const at = this.untilPs[k]!;
    return untilPs < at || (untilPs === at && seq < this.seq[k]!);
  }

  private move(to: number, from: number): void {
    this.items[to] = this.items[from];
    this.untilPs[to] = this.untilPs[from]!;
    this.seq[to] = this.seq[from]!;
  }

  private place(k: number, item: T, untilPs: number, seq: number): void {
    this.items[k] = item;
    this.untilPs[k] = untilPs;
    this.seq[k] = seq;
  }

  private grow(): void {
    const capacity = this.items.length * 2;
    const items = new Array<T | undefined>(capacity);
    for (let i = 0; i < this.count; i++) items[i] = this.items[i];
    const untilPs = new Float64Array(capacity);
    untilPs.set(this.untilPs);
    const seq = new Float64Array(capacity);
    seq.set(this.seq);
    this.items = items;
    this.untilPs = untilPs;
    this.seq = seq;
  }
}
