import type { TimePs } from "@cclab/core-des";
import type { Network } from "@cclab/network";
import type { BudgetStream } from "@cclab/traffic";

/** Where released messages go: the feed counts them and hands them to the collector. */
export type ReleaseMessage = (stream: BudgetStream, dstHost: number, nowPs: TimePs) => number;

/**
 * Releases budget streams' messages on demand (Paper IV's greedy nodes, @cclab/traffic
 * `BudgetStream`): a stream's next message enters its host's queue once the budget has earned
 * it and fewer than its `queueLimitMessages` are waiting there (released, last packet
 * not yet started). A blocked node so holds at most that many messages per stream instead of all
 * its budget has earned, and catches up, within budget, when it can send again.
 */
export class BudgetRelease {
  private readonly next: Int32Array;
  private readonly waiting: Int32Array;
  private readonly wakeAtPs: Float64Array;
  private readonly done: Uint8Array;
  private doneCount = 0;
  /** Stream of each released message still waiting in its host, by message id. */
  private readonly streamOf = new Map<number, number>();
  private readonly kind: number;

  constructor(
    private readonly network: Network,
    private readonly streams: readonly BudgetStream[],
    private readonly release: ReleaseMessage,
  ) {
    const n = streams.length;
    this.next = new Int32Array(n);
    this.waiting = new Int32Array(n);
    this.wakeAtPs = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    this.done = new Uint8Array(n);
    this.kind = network.scheduler.defineKind("traffic: budget earned", (s) => {
      this.wakeAtPs[s] = Number.POSITIVE_INFINITY;
      this.supply(s);
    });
    network.onMessageInjected((messageId) => {
      const s = this.streamOf.get(messageId);
      if (s === undefined) return;
      this.streamOf.delete(messageId);
      this.waiting[s]!--;
      this.supply(s);
    });
    for (let s = 0; s < n; s++) this.supply(s);
  }

  /** Whether every stream has released its last message. */
  get exhausted(): boolean {
    return this.doneCount === this.streams.length;
  }

  private supply(s: number): void {
    if (this.done[s] === 1) return;
    const stream = this.streams[s]!;
    const scheduler = this.network.scheduler;
    const now = scheduler.nowPs;
    while (this.waiting[s]! < this.streams[s]!.queueLimitMessages) {
      const k = this.next[s]!;
      const earnedPs = stream.budgetPs(k);
      if (earnedPs === Number.POSITIVE_INFINITY) {
        this.done[s] = 1;
        this.doneCount++;
        return;
      }
      if (earnedPs > now) {
        if (earnedPs < this.wakeAtPs[s]!) {
          this.wakeAtPs[s] = earnedPs;
          scheduler.schedule(earnedPs, this.kind, s);
        }
        return;
      }
      this.next[s] = k + 1;
      const dst = stream.destination(k, now);
      if (dst === undefined) continue;
      this.streamOf.set(this.release(stream, dst, now), s);
      this.waiting[s]!++;
    }
  }
}
