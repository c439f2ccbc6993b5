import { createRng, type TimePs } from "@cclab/core-des";
import type { TrafficContext, TrafficMessage, TrafficSource } from "../src/types.js";

export interface ContextOptions {
  readonly hostCount?: number;
  /** Host link rate, Gb/s: one for all hosts, or per host. */
  readonly rateGbps?: number | ((host: number) => number);
  readonly seed?: number;
  /** Name the entry's stream is split with, as the runner does per traffic entry. */
  readonly entry?: string;
  readonly endPs?: TimePs;
  readonly mtuBytes?: number;
  readonly files?: Readonly<Record<string, string>>;
}

/** A traffic context like the runner's, for tests. */
export function testContext(options: ContextOptions = {}): TrafficContext {
  const rate = options.rateGbps ?? 100;
  const files = options.files ?? {};
  return {
    hostCount: options.hostCount ?? 16,
    hostRateGbps: typeof rate === "number" ? () => rate : rate,
    mtuBytes: options.mtuBytes ?? 2048,
    rng: createRng(options.seed ?? 1).split(options.entry ?? "traffic/0"),
    endPs: options.endPs ?? Number.POSITIVE_INFINITY,
    readFile(path) {
      const text = files[path];
      if (text === undefined) throw new Error(`no file ${path}`);
      return text;
    },
  };
}

/** Every message of a source (guarded: a test must not loop forever on a broken source). */
export function drain(source: TrafficSource, limit = 2_000_000): TrafficMessage[] {
  const out: TrafficMessage[] = [];
  for (let m = source.next(); m !== undefined; m = source.next()) {
    out.push(m);
    if (out.length > limit) throw new Error(`source gave more than ${limit} messages`);
  }
  return out;
}

/** Offered Gb/s of `messages` over `durationPs`. */
export function offeredGbps(messages: readonly TrafficMessage[], durationPs: TimePs): number {
  let bytes = 0;
  for (const m of messages) bytes += m.bytes;
  return (bytes * 8000) / durationPs;
}

/**
 * The shape rules every source must keep: integer, non-decreasing start times within
 * [fromPs, untilPs), whole-byte sizes, hosts in range, never a message to its sender.
 */
export function shapeViolation(
  messages: readonly TrafficMessage[],
  hostCount: number,
  fromPs = 0,
  untilPs = Number.POSITIVE_INFINITY,
): string | undefined {
  let last = fromPs;
  for (const [i, m] of messages.entries()) {
    if (!Number.isSafeInteger(m.startPs)) return `message ${i}: startPs ${m.startPs} not integer`;
    if (m.startPs < last) return `message ${i}: startPs ${m.startPs} before ${last}`;
    if (!(m.startPs < untilPs)) return `message ${i}: startPs ${m.startPs} not before ${untilPs}`;
    if (!Number.isSafeInteger(m.bytes) || m.bytes < 1) return `message ${i}: bytes ${m.bytes}`;
    for (const h of [m.srcHost, m.dstHost]) {
      if (!Number.isInteger(h) || h < 0 || h >= hostCount) return `message ${i}: host ${h}`;
    }
    if (m.srcHost === m.dstHost) return `message ${i}: to itself (${m.srcHost})`;
    last = m.startPs;
  }
  return undefined;
}
