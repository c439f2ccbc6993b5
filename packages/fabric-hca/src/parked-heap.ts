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
    const { items, untilPs: times, seq: seqs } = this;
    let k = this.count++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!(untilPs < times[parent]! || (untilPs === times[parent] && seq < seqs[parent]!))) break;
      items[k] = items[parent];
      times[k] = times[parent]!;
      seqs[k] = seqs[parent]!;
      k = parent;
    }
    items[k] = item;
    times[k] = untilPs;
    seqs[k] = seq;
  }

  /** Removes and returns the first item (the caller checks {@link length} first). */
  popTop(): T {
    const { items, untilPs: times, seq: seqs } = this;
    const top = items[0]!;
    const n = --this.count;
    const lastItem = items[n];
    const lastPs = times[n]!;
    const lastSeq = seqs[n]!;
    items[n] = undefined;
    if (n !== 0) {
      let k = 0;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= n) break;
        const right = child + 1;
        if (
          right < n &&
          (times[right]! < times[child]! ||
            (times[right] === times[child] && seqs[right]! < seqs[child]!))
        ) {
          child = right;
        }
        if (!(times[child]! < lastPs || (times[child] === lastPs && seqs[child]! < lastSeq))) break;
        items[k] = items[child];
        times[k] = times[child]!;
        seqs[k] = seqs[child]!;
        k = child;
      }
      items[k] = lastItem;
      times[k] = lastPs;
      seqs[k] = lastSeq;
    }
    return top;
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
