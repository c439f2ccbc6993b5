/**
 * A bare binary min-heap of times (no payload), the reference row of the hold benchmark: the
 * fastest a heap-based future-event set could be here, before any event data, FIFO ties or
 * cancellation. Bottom-up pop: the hole walks to a leaf along smaller children, then the last
 * element sifts up from there. Times are random, so `right < left` is a coin flip a branch
 * predictor gets wrong half the time: above index `branchFreeEnd` the choice is arithmetic
 * (16 384 measured best: the upper levels stay in cache), below it a branch. Keep it an
 * integer: a double bound makes the loop compare doubles.
 */
export class TimeHeap {
  private readonly time: Float64Array;
  private size = 0;

  constructor(
    capacity: number,
    private readonly branchFreeEnd: number,
  ) {
    this.time = new Float64Array(capacity + 2);
  }

  push(t: number): void {
    const time = this.time;
    let i = ++this.size;
    while (i > 1) {
      const parent = i >> 1;
      const pt = time[parent]!;
      if (pt <= t) break;
      time[i] = pt;
      i = parent;
    }
    time[i] = t;
  }

  pop(): number {
    const time = this.time;
    const top = time[1]!;
    const n = --this.size;
    const last = time[n + 1]!;
    time[n + 1] = Number.POSITIVE_INFINITY;
    const branchFreeEnd = Math.min(n, this.branchFreeEnd - 1);
    let hole = 1;
    let child = 2;
    while (child <= branchFreeEnd) {
      child += +(time[child + 1]! < time[child]!);
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole;
    }
    while (child <= n) {
      if (time[child + 1]! < time[child]!) child++;
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole;
    }
    while (hole > 1) {
      const parent = hole >> 1;
      const pt = time[parent]!;
      if (pt <= last) break;
      time[hole] = pt;
      hole = parent;
    }
    time[hole] = last;
    return top;
  }
}
