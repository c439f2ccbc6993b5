import { z } from "zod";
import { bytesSchema } from "./bytes.js";

/** One point of an empirical CDF: a fraction `cumulativeFraction` of messages have ≤ `bytes`. */
export type CdfPoint = readonly [bytes: number, cumulativeFraction: number];

/** The points of an empirical CDF, by increasing size; the last fraction is 1. */
export type CdfPoints = readonly CdfPoint[];

/**
 * At most this many points: far more than published CDFs have (the built-ins have 12 and 20),
 * enough for one per percentile of a user's measurement, and a bound on what a scenario can
 * make every sampler search through.
 */
export const MAX_CDF_POINTS = 10_000;

/** `[bytes, cumulativeFraction]` pairs; the order rules are checked by {@link cdfPointIssues}. */
export const cdfPointsSchema = z
  .array(
    z.tuple([
      bytesSchema.describe("message size, bytes"),
      z.number().min(0).max(1).describe("fraction of messages of at most that size"),
    ]),
  )
  .min(1)
  .max(MAX_CDF_POINTS);

/** A broken rule: where (point index, 0 bytes or 1 fraction) and what. */
export interface CdfPointIssue {
  readonly path: readonly [number, 0 | 1];
  readonly message: string;
}

/**
 * The rules a list of points (each already a whole size ≥ 1 and a fraction in [0, 1]) must keep
 * to be a CDF: sizes strictly increasing (no two points for one size), fractions never
 * decreasing (a flat step is a range of sizes no message has), the last fraction exactly 1.
 * The first fraction may exceed 0: that share of messages has exactly the first size. Only the
 * first break of each rule is reported, so a long bad list gives a short message.
 */
export function cdfPointIssues(points: CdfPoints): CdfPointIssue[] {
  const issues: CdfPointIssue[] = [];
  const firstBreak = (broken: (i: number) => boolean) => {
    for (let i = 1; i < points.length; i++) if (broken(i)) return i;
    return undefined;
  };
  const bytes = firstBreak((i) => points[i]![0] <= points[i - 1]![0]);
  if (bytes !== undefined) {
    issues.push({
      path: [bytes, 0],
      message: `sizes must increase: ${points[bytes]![0]} bytes is not above the previous point's ${points[bytes - 1]![0]}`,
    });
  }
  const fraction = firstBreak((i) => points[i]![1] < points[i - 1]![1]);
  if (fraction !== undefined) {
    issues.push({
      path: [fraction, 1],
      message: `cumulative fractions must not decrease: ${points[fraction]![1]} is below the previous point's ${points[fraction - 1]![1]}`,
    });
  }
  const last = points.length - 1;
  if (last >= 0 && points[last]![1] !== 1) {
    issues.push({
      path: [last, 1],
      message: `the last point's cumulative fraction must be exactly 1 (every message is at most the largest size), got ${points[last]![1]}`,
    });
  }
  return issues;
}
