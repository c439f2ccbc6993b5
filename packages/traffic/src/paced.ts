import { MAX_TIME_PS, serializationPs, type TimePs } from "@cclab/core-des";
import { type MessageTags, makeMessage } from "./message.js";
import type { TrafficMessage, TrafficSource } from "./types.js";
import type { WindowPs } from "./window.js";

/**
 * Picoseconds to offer `bytes` at `rateGbps`: `ceil(bytes·8000/rate)` (core-des's
 * `serializationPs`, which absorbs binary noise such as 8000/0.1), or `Infinity` past the
 * largest representable time. Computed from the total byte count each time, never by adding
 * up rounded gaps, so message times do not drift from the exact rate.
 */
export function offsetPs(bytes: number, rateGbps: number): number {
  return (bytes * 8000) / rateGbps > MAX_TIME_PS
    ? Number.POSITIVE_INFINITY
    : serializationPs(bytes, rateGbps);
}

/**
 * When the budget of a stream paced at `rateGbps` from `window.fromPs` has earned its
 * `slot`-th message of `messageBytes` (slot·bytes at the rate), or `Infinity` at or past the
 * window's end.
 */
export function earnedPs(
  window: WindowPs,
  slot: number,
  messageBytes: number,
  rateGbps: number,
): TimePs {
  const at = window.fromPs + offsetPs(slot * messageBytes, rateGbps);
  return at < window.untilPs ? at : Number.POSITIVE_INFINITY;
}

/**
 * When message k enters the send queue.
 * - `start`: at k·T (T = one message at the rate), for a sender that has data from the
 *   start: offered bytes by time t never exceed rate·t + one message, and the queue is
 *   never empty while the flow is on if the rate is the link rate.
 * - `budget`: at (k+1)·T, for Paper IV's per-node budgets (seed 001 L1724: "after a given
 *   time t, a maximum of p% of the traffic has been sent"): offered bytes by time t never
 *   exceed rate·t.
 */
export type Release = "start" | "budget";

export interface PacedStreamOptions {
  readonly srcHost: number;
  readonly messageBytes: number;
  readonly rateGbps: number;
  readonly window: WindowPs;
  readonly release: Release;
  /** Stop after this many bytes; the last message carries the remainder. */
  readonly totalBytes?: number | undefined;
  /**
   * The destination of the message entering at `startPs` (called once per message, in
   * order). `undefined` skips that message: its share of the rate is not reused.
   */
  readonly destination: (startPs: TimePs) => number | undefined;
  readonly tags: MessageTags;
}

/**
 * A sender with a constant offered rate: messages of `messageBytes` entering at `rateGbps`
 * during a window. Models greedy flows (hot-spot senders, scheduled flows, congestion-tree
 * nodes) as the brief of this package asks: the host adapter's queue never runs dry while
 * the flow is on, and no data is generated past the window or the run's end.
 */
export class PacedStream implements TrafficSource {
  private readonly o: PacedStreamOptions;
  private readonly lastIndex: number;
  private k = 0;
  private done = false;

  constructor(options: PacedStreamOptions) {
    this.o = options;
    this.lastIndex =
      options.totalBytes === undefined
        ? Number.POSITIVE_INFINITY
        : Math.ceil(options.totalBytes / options.messageBytes) - 1;
  }

  next(): TrafficMessage | undefined {
    const o = this.o;
    while (!this.done && this.k <= this.lastIndex) {
      const k = this.k;
      const slot = o.release === "start" ? k : k + 1;
      const startPs = earnedPs(o.window, slot, o.messageBytes, o.rateGbps);
      if (startPs === Number.POSITIVE_INFINITY) {
        this.done = true;
        return undefined;
      }
      this.k++;
      const dstHost = o.destination(startPs);
      if (dstHost === undefined) continue;
      const bytes =
        o.totalBytes === undefined
          ? o.messageBytes
          : Math.min(o.messageBytes, o.totalBytes - k * o.messageBytes);
      return makeMessage(o.srcHost, dstHost, bytes, startPs, o.tags);
    }
    return undefined;
  }
}
