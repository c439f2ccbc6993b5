import type { TrafficMessage, TrafficSource } from "./types.js";

/**
 * Merges sources, each in non-decreasing `startPs` order, into one such source: a k-way
 * merge on a binary heap of the sources' next messages. Ties go to the source earlier in
 * `sources`, and each source's own order is kept, so the output is a deterministic function
 * of the inputs. Lazy: each source is asked for at most one message ahead of the output.
 *
 * Throws a `RangeError` when a source breaks its contract by going back in time.
 */
export function mergeSources(sources: readonly TrafficSource[]): TrafficSource {
  if (sources.length === 1) return checkedOrder(sources[0]!, 0);
  return new MergedSource(sources);
}

function timeTravel(index: number, message: TrafficMessage, lastPs: number): RangeError {
  return new RangeError(
    `traffic source ${index} went back in time: a message at ${message.startPs} ps after one at ${lastPs} ps`,
  );
}

function checkedOrder(source: TrafficSource, index: number): TrafficSource {
  let lastPs = Number.NEGATIVE_INFINITY;
  return {
    next() {
      const message = source.next();
      if (message !== undefined) {
        if (message.startPs < lastPs) throw timeTravel(index, message, lastPs);
        lastPs = message.startPs;
      }
      return message;
    },
  };
}

class MergedSource implements TrafficSource {
  private readonly sources: readonly TrafficSource[];
  /** Next message of each source (undefined once the source has ended). */
  private readonly heads: (TrafficMessage | undefined)[];
  /** Binary min-heap of source indices with a pending head, by (startPs, index). */
  private readonly heap: number[] = [];
  private started = false;

  constructor(sources: readonly TrafficSource[]) {
    this.sources = sources;
    this.heads = new Array<TrafficMessage | undefined>(sources.length).fill(undefined);
  }

  next(): TrafficMessage | undefined {
    if (!this.started) {
      // Pulled on first use, not in the constructor, so building a merge costs nothing.
      this.started = true;
      for (let i = 0; i < this.sources.length; i++) {
        const head = this.sources[i]!.next();
        if (head !== undefined) {
          this.heads[i] = head;
          this.push(i);
        }
      }
    }
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const i = heap[0]!;
    const out = this.heads[i]!;
    const following = this.sources[i]!.next();
    if (following === undefined) {
      this.heads[i] = undefined;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        this.siftDown(0);
      }
    } else {
      if (following.startPs < out.startPs) throw timeTravel(i, following, out.startPs);
      // Same source, later or equal time: only its key grew, so sift the root down.
      this.heads[i] = following;
      this.siftDown(0);
    }
    return out;
  }

  private before(a: number, b: number): boolean {
    const ta = this.heads[a]!.startPs;
    const tb = this.heads[b]!.startPs;
    return ta < tb || (ta === tb && a < b);
  }

  private push(i: number): void {
    const heap = this.heap;
    let k = heap.length;
    heap.push(i);
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.before(i, heap[parent]!)) break;
      heap[k] = heap[parent]!;
      k = parent;
    }
    heap[k] = i;
  }

  private siftDown(k: number): void {
    const heap = this.heap;
    const n = heap.length;
    const item = heap[k]!;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= n) break;
      if (child + 1 < n && this.before(heap[child + 1]!, heap[child]!)) child++;
      if (!this.before(heap[child]!, item)) break;
      heap[k] = heap[child]!;
      k = child;
    }
    heap[k] = item;
  }
}
