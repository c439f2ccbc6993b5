import { z } from "zod";
import { type CdfPoints, cdfPointIssues, cdfPointsSchema } from "./cdf-points.js";
import { BUILT_IN_CDF_NAMES, BUILT_IN_CDFS } from "./distributions/index.js";

/**
 * `{ kind: "cdf", distribution }` (a built-in) or `{ kind: "cdf", points }` (the user's own):
 * one object with exactly one of the two keys, so the size union stays discriminated by `kind`.
 */
export const cdfSizeSchema = z
  .strictObject({
    kind: z.literal("cdf"),
    distribution: z
      .enum(BUILT_IN_CDF_NAMES)
      .optional()
      .describe(
        "built-in flow sizes: websearch (DCTCP, SIGCOMM 2010; mean 1711250 bytes) or hadoop (Facebook, SIGCOMM 2015; mean 120421 bytes); or give points",
      ),
    points: cdfPointsSchema
      .optional()
      .describe(
        "[bytes, cumulativeFraction] pairs: sizes whole and increasing, fractions non-decreasing, the last 1; or give distribution",
      ),
  })
  .superRefine((size, ctx) => {
    if ((size.distribution === undefined) === (size.points === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: size.points === undefined ? ["distribution"] : ["points"],
        message: `give exactly one of distribution (${BUILT_IN_CDF_NAMES.join(", ")}) or points`,
      });
    }
    for (const issue of cdfPointIssues(size.points ?? [])) {
      ctx.addIssue({ code: "custom", path: ["points", ...issue.path], message: issue.message });
    }
  })
  .describe("empirical CDF, sizes interpolated linearly between points and rounded to whole bytes");

export type CdfSize = z.output<typeof cdfSizeSchema>;

/** The points a valid CDF size draws from: the built-in's or its own. */
export function cdfPointsOf(size: CdfSize): CdfPoints {
  if (size.points !== undefined) return size.points;
  if (size.distribution === undefined)
    throw new RangeError("a cdf size needs distribution or points");
  return BUILT_IN_CDFS[size.distribution];
}
