import type { RngStream } from "@cclab/core-des";
import { z } from "zod";

/** A host index: hosts are numbered 0..hostCount − 1, as in the fabric description. */
export const hostSchema = z.int().nonnegative();

/** A list of distinct host indices (membership is checked against the fabric by `check`). */
export const hostListSchema = z.array(hostSchema).min(1);

/** The error for a host index out of range, naming the field, or undefined when it is valid. */
export function hostError(field: string, host: number, hostCount: number): string | undefined {
  return host >= 0 && host < hostCount
    ? undefined
    : `${field} = ${host} is not a host (0..${hostCount - 1})`;
}

/** Errors for a host list: indices out of range and repeated hosts, each naming the entry. */
export function hostListErrors(
  field: string,
  hosts: readonly number[],
  hostCount: number,
): string[] {
  const errors: string[] = [];
  const firstAt = new Map<number, number>();
  hosts.forEach((host, i) => {
    const range = hostError(`${field}[${i}]`, host, hostCount);
    if (range !== undefined) errors.push(range);
    const first = firstAt.get(host);
    if (first === undefined) firstAt.set(host, i);
    else errors.push(`${field}[${i}] = ${host} repeats ${field}[${first}]`);
  });
  return errors;
}

/** 0..n − 1. */
export function allHosts(hostCount: number): number[] {
  return Array.from({ length: hostCount }, (_, h) => h);
}

/** Uniformly random host other than `src` (one draw, no rejection loop). */
export function otherHost(rng: RngStream, src: number, hostCount: number): number {
  const d = rng.intRange(0, hostCount - 2);
  return d >= src ? d + 1 : d;
}

/**
 * `count` distinct hosts drawn uniformly from `candidates` with `rng`, in ascending order (so
 * the result reads the same whatever the shuffle's internal order).
 */
export function chooseHosts(
  rng: RngStream,
  candidates: readonly number[],
  count: number,
): number[] {
  return rng
    .shuffle([...candidates])
    .slice(0, count)
    .sort((a, b) => a - b);
}

/**
 * Errors of an optional `dstHost` and an optional `senders` list that must not contain it
 * (impulse, on/off).
 */
export function dstAndSendersErrors(
  p: { readonly dstHost?: number | undefined; readonly senders?: readonly number[] | undefined },
  hostCount: number,
): string[] {
  const errors: string[] = [];
  if (p.dstHost !== undefined) {
    const e = hostError("dstHost", p.dstHost, hostCount);
    if (e !== undefined) errors.push(e);
  }
  if (p.senders !== undefined) {
    errors.push(...hostListErrors("senders", p.senders, hostCount));
    p.senders.forEach((h, i) => {
      if (h === p.dstHost) errors.push(`senders[${i}] = ${h} is the dstHost`);
    });
  }
  return errors;
}
