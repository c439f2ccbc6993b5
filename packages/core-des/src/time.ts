/**
 * Simulation time: an integer number of picoseconds held in a JavaScript `number`.
 *
 * A double represents every integer up to 2^53 exactly, so a `TimePs` is exact up to
 * 2^53 ps ≈ 9007 s of simulated time, far beyond any run of a fabric at picosecond
 * resolution. Integer time keeps event ordering exact: two events computed along different
 * paths land on the same instant only when they really coincide (docs/model.md, "Time and
 * rates").
 */

/** A point in simulated time or a duration, in integer picoseconds. */
export type TimePs = number;

export const PS_PER_NS = 1_000;
export const PS_PER_US = 1_000_000;
export const PS_PER_MS = 1_000_000_000;
export const PS_PER_S = 1_000_000_000_000;

/** Largest representable time: 2^53 − 1 ps (≈ 9007 s). */
export const MAX_TIME_PS: TimePs = Number.MAX_SAFE_INTEGER;

/** {@link MAX_TIME_PS} in whole ns and µs: the bounds of time fields in those units. */
export const MAX_TIME_NS = Math.floor(MAX_TIME_PS / PS_PER_NS);
export const MAX_TIME_US = Math.floor(MAX_TIME_PS / PS_PER_US);

/** The error for a time field beyond {@link MAX_TIME_NS} or {@link MAX_TIME_US}. */
export const TIME_TOO_LATE =
  "must be at most 2^53 − 1 ps (about 9007 s), the simulator's largest time";

/** Throws a `RangeError` unless `value` is a non-negative integer ≤ 2^53 − 1. */
export function assertTimePs(value: number, what = "time"): TimePs {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `${what} must be a non-negative integer number of picoseconds ≤ 2^53 − 1, got ${value}`,
    );
  }
  return value;
}

/** True when `value` is a valid `TimePs` (a non-negative safe integer). */
export function isTimePs(value: number): value is TimePs {
  return Number.isSafeInteger(value) && value >= 0;
}

/**
 * Converts a duration in a coarser unit to picoseconds, rounding to the nearest picosecond.
 * Rounding (rather than rejecting fractions) absorbs the binary representation error of
 * decimal inputs such as 1.1 ns (1.1 × 1000 = 1100.0000000000002).
 */
function toPs(value: number, psPerUnit: number, unit: string): TimePs {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`duration in ${unit} must be a finite non-negative number, got ${value}`);
  }
  const ps = Math.round(value * psPerUnit);
  if (ps > MAX_TIME_PS) {
    throw new RangeError(`${value} ${unit} exceeds the largest representable time (2^53 − 1 ps)`);
  }
  return ps;
}

/** Nanoseconds → picoseconds (rounded to the nearest ps). */
export const nsToPs = (ns: number): TimePs => toPs(ns, PS_PER_NS, "ns");
/** Microseconds → picoseconds (rounded to the nearest ps). */
export const usToPs = (us: number): TimePs => toPs(us, PS_PER_US, "µs");
/** Milliseconds → picoseconds (rounded to the nearest ps). */
export const msToPs = (ms: number): TimePs => toPs(ms, PS_PER_MS, "ms");
/** Seconds → picoseconds (rounded to the nearest ps). */
export const sToPs = (s: number): TimePs => toPs(s, PS_PER_S, "s");

/** Picoseconds → nanoseconds (a fractional number, for reporting). */
export const psToNs = (ps: TimePs): number => ps / PS_PER_NS;
/** Picoseconds → microseconds (a fractional number, for reporting). */
export const psToUs = (ps: TimePs): number => ps / PS_PER_US;
/** Picoseconds → milliseconds (a fractional number, for reporting). */
export const psToMs = (ps: TimePs): number => ps / PS_PER_MS;
/** Picoseconds → seconds (a fractional number, for reporting). */
export const psToS = (ps: TimePs): number => ps / PS_PER_S;

/**
 * Time to serialize `bytes` onto a link of `rateGbps`: `ceil(bytes × 8000 / rateGbps)` ps
 * (docs/model.md, "Time and rates"; 1 Gb/s = 1 bit per 1000 ps).
 *
 * The quotient is computed in floating point; when it lies within 1e-9 relative of an
 * integer it is taken as that integer, so that e.g. 1 byte at 0.1 Gb/s is 80 000 ps and not
 * 80 001 ps because 8000 / 0.1 = 80000.00000000001 in binary.
 */
export function serializationPs(bytes: number, rateGbps: number): TimePs {
  if (!(bytes >= 0) || !Number.isFinite(bytes)) {
    throw new RangeError(`bytes must be a finite non-negative number, got ${bytes}`);
  }
  if (!(rateGbps > 0) || !Number.isFinite(rateGbps)) {
    throw new RangeError(`rateGbps must be a finite positive number, got ${rateGbps}`);
  }
  const exact = (bytes * 8000) / rateGbps;
  const nearest = Math.round(exact);
  const ps = Math.abs(exact - nearest) <= exact * 1e-9 ? nearest : Math.ceil(exact);
  if (ps > MAX_TIME_PS) {
    throw new RangeError(
      `serializing ${bytes} bytes at ${rateGbps} Gb/s exceeds the largest representable time`,
    );
  }
  return ps;
}

/** Rate in Gb/s that moves `bytes` in `durationPs` (the inverse of `serializationPs`). */
export function rateGbps(bytes: number, durationPs: TimePs): number {
  if (!(durationPs > 0)) {
    throw new RangeError(`durationPs must be positive, got ${durationPs}`);
  }
  return (bytes * 8000) / durationPs;
}

/** Human-readable time with an adaptive unit, e.g. `1.5 µs`, `12 ms`. */
export function formatTimePs(ps: TimePs): string {
  const abs = Math.abs(ps);
  if (abs >= PS_PER_S) return `${trim(ps / PS_PER_S)} s`;
  if (abs >= PS_PER_MS) return `${trim(ps / PS_PER_MS)} ms`;
  if (abs >= PS_PER_US) return `${trim(ps / PS_PER_US)} µs`;
  if (abs >= PS_PER_NS) return `${trim(ps / PS_PER_NS)} ns`;
  return `${ps} ps`;
}

function trim(x: number): string {
  return Number.parseFloat(x.toPrecision(6)).toString();
}
