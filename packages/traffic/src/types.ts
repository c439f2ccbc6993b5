import type { RngStream, TimePs } from "@cclab/core-des";

/** One message for a host adapter: `bytes` of payload from `srcHost` to `dstHost` at `startPs`. */
export interface TrafficMessage {
  readonly srcHost: number;
  readonly dstHost: number;
  readonly bytes: number;
  /** When the message enters the sender's send queue. */
  readonly startPs: TimePs;
  /** Service level (InfiniBand) or priority (PFC). Default 0. */
  readonly sl?: number;
  /**
   * The group the message's flow belongs to (fairness is reported per group), e.g. `hot`,
   * `background`, `victim`. Default: the pattern's name.
   */
  readonly group?: string;
}

/**
 * A stream of messages in non-decreasing `startPs` order. Pulled lazily by the runner, so a
 * long uniform run never holds all its messages in memory. `undefined`: no more messages.
 */
export interface TrafficSource {
  next(): TrafficMessage | undefined;
}

/**
 * One greedy sender's message stream with a time budget (Paper IV's nodes, seed 001 L1724:
 * "after a given time t, a maximum of p% of the traffic has been sent"), for a runner that
 * releases messages on demand: message k may enter its host's queue once the budget has
 * earned it (`budgetPs(k)`) and the host has room for it, so a blocked node holds a few
 * messages instead of everything its budget has earned. It catches up later, within budget.
 */
export interface BudgetStream {
  readonly srcHost: number;
  /** The group of the stream's messages (fairness is reported per group). */
  readonly group: string;
  readonly messageBytes: number;
  /** Messages of the stream that may wait in its host's queue before it pauses (≥ 1). */
  readonly queueLimitMessages: number;
  /** When the budget has earned message k (non-decreasing in k); `Infinity`: no message k. */
  budgetPs(k: number): TimePs;
  /**
   * The destination of message k, entering the queue at `nowPs` (called once per message, in
   * order of k); `undefined` skips the message (its share of the budget is not reused).
   */
  destination(k: number, nowPs: TimePs): number | undefined;
}

/** What a pattern may know of the fabric it feeds. */
export interface TrafficContext {
  readonly hostCount: number;
  /** Service levels (IB) or priorities (PFC) of the fabric, as in `CheckContext`. */
  readonly slCount?: number;
  /** Rate of a host's link, Gb/s: loads are fractions of it. */
  hostRateGbps(host: number): number;
  /** Largest payload per packet, bytes (for patterns that size messages in MTUs). */
  readonly mtuBytes: number;
  /** The pattern's own random stream (already split by the runner per traffic entry). */
  readonly rng: RngStream;
  /**
   * Patterns stop generating at this time (the run's end). `Infinity` when the run lasts
   * until every message completes: only finite patterns (trace, scheduled flows with a
   * stop, a message count) may then be used, and the others throw a clear error.
   */
  readonly endPs: TimePs;
  /** Reads a file named in a scenario (trace replay), relative to the scenario file. */
  readFile(path: string): string;
}
