import type { TimePs } from "@cclab/core-des";
import type { TrafficMessage } from "./types.js";

/** Optional message fields: left out of the message when undefined (exact optional types). */
export interface MessageTags {
  readonly sl?: number | undefined;
  readonly group?: string | undefined;
}

/** Builds a message, leaving `sl` and `group` out when they are not given. */
export function makeMessage(
  srcHost: number,
  dstHost: number,
  bytes: number,
  startPs: TimePs,
  tags: MessageTags,
): TrafficMessage {
  const { sl, group } = tags;
  if (sl === undefined) {
    return group === undefined
      ? { srcHost, dstHost, bytes, startPs }
      : { srcHost, dstHost, bytes, startPs, group };
  }
  return group === undefined
    ? { srcHost, dstHost, bytes, startPs, sl }
    : { srcHost, dstHost, bytes, startPs, sl, group };
}

/** The error for a service level the fabric does not have, naming the field. */
export function slError(field: string, sl: number, slCount: number): string {
  return `${field} = ${sl} is not a service level of this fabric (0..${slCount - 1}; switch.vlCount sets how many)`;
}
