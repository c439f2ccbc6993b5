import type { TimePs } from "@cclab/core-des";

/** A message handed to a host: `bytes` of payload for `dstHost`, arriving at `startPs`. */
export interface Message {
  readonly dstHost: number;
  readonly bytes: number;
  readonly startPs: TimePs;
  /** Service level (InfiniBand) or priority (PFC); default 0. */
  readonly sl?: number;
}

/** A message fully delivered: what message completion time (MCT/FCT) is computed from. */
export interface MessageCompletion {
  readonly messageId: number;
  readonly flowId: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly bytes: number;
  readonly createdPs: TimePs;
  readonly completedPs: TimePs;
}

/**
 * What is wrong with `message` for host `hostIndex` of `hostCount` with `vlCount` VLs at
 * `nowPs` (naming the field and what is allowed), or undefined when it can be sent. The text
 * is built on the error path only: a host checks every message it is handed.
 */
export function messageProblem(
  message: Message,
  hostIndex: number,
  hostCount: number,
  vlCount: number,
  nowPs: TimePs,
): string | undefined {
  const { dstHost, bytes, startPs } = message;
  if (!Number.isInteger(dstHost) || dstHost < 0 || dstHost >= hostCount) {
    return `dstHost must be a host index in 0..${hostCount - 1}, got ${dstHost}`;
  }
  if (dstHost === hostIndex) return `to itself (host ${hostIndex})`;
  if (!Number.isInteger(bytes) || bytes < 1) {
    return `bytes must be a whole number ≥ 1, got ${bytes}`;
  }
  const sl = message.sl ?? 0;
  if (!Number.isInteger(sl) || sl < 0 || sl >= vlCount) {
    return `sl must be in 0..${vlCount - 1}, got ${sl}`;
  }
  if (!(startPs >= nowPs) || !Number.isInteger(startPs)) {
    return `startPs must be a whole number of ps ≥ now, got ${startPs}`;
  }
  return undefined;
}
