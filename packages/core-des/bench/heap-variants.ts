/**
 * Bare min-heaps of times that differ only in how sift-down picks the smaller child, to
 * measure the choice the Scheduler makes (see its heapPop). All use the bottom-up pop: the
 * hole walks to a leaf along smaller children, then the last element sifts up from there.
 * Times are random, so `right < left` is a coin flip that a branch predictor gets wrong half
 * the time; the branch-free form turns it into arithmetic, and the hybrid does so only in the
 * levels that stay in cache.
 */
abstract class TimeHeap {
  protected readonly time: Float64Array;
  protected size = 0;

  constructor(capacity: number) {
    this.time = new Float64Array(capacity + 2);
  }

  push(t: number): void {
    const time = this.time;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = time[parent]!;
      if (pt <= t) break;
      time[i] = pt;
      i = parent;
    }
    time[i] = t;
  }

  pop(): number {
    const time = this.time;
    const top = time[0]!;
    const n = --this.size;
    const last = time[n]!;
    time[n] = Number.POSITIVE_INFINITY;
    let hole = this.descend(n);
    while (hole > 0) {
      const parent = (hole - 1) >> 1;
      const pt = time[parent]!;
      if (pt <= last) break;
      time[hole] = pt;
      hole = parent;
    }
    time[hole] = last;
    return top;
  }

  protected abstract descend(n: number): number;
}

export class BranchyHeap extends TimeHeap {
  protected descend(n: number): number {
    const time = this.time;
    let hole = 0;
    let child = 1;
    while (child < n) {
      if (time[child + 1]! < time[child]!) child++;
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole + 1;
    }
    return hole;
  }
}

export class BranchFreeHeap extends TimeHeap {
  protected descend(n: number): number {
    const time = this.time;
    let hole = 0;
    let child = 1;
    while (child < n) {
      child += +(time[child + 1]! < time[child]!);
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole + 1;
    }
    return hole;
  }
}

/** Branch-free above index 16 384 (as in the Scheduler), branchy below. */
export class HybridHeap extends TimeHeap {
  protected descend(n: number): number {
    const time = this.time;
    const branchFreeEnd = Math.min(n, 16_383);
    let hole = 0;
    let child = 1;
    while (child < branchFreeEnd) {
      child += +(time[child + 1]! < time[child]!);
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole + 1;
    }
    while (child < n) {
      if (time[child + 1]! < time[child]!) child++;
      time[hole] = time[child]!;
      hole = child;
      child = 2 * hole + 1;
    }
    return hole;
  }
}
