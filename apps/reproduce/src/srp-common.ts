/**
 * What the SRP paper's experiments (seed 000_23e1115f082a0339.txt) share: the three networks
 * compared, the shipped scenario of each, the 256-node fat tree's sizes and small statistics.
 */
import type { Override } from "./scenario-file.js";

export const SEED = "seed 000_23e1115f082a0339.txt";
export const SCHEMES = ["none", "srp", "ecn"] as const;
export type Scheme = (typeof SCHEMES)[number];
export const LABEL: Record<Scheme, string> = { none: "no CC", srp: "SRP", ecn: "ECN" };
/** The shipped scenario of `base` for `scheme` (`srp/<base>.yaml`, `-srp`, `-ecn`). */
export const file = (base: string, scheme: Scheme) =>
  `srp/${base}${scheme === "none" ? "" : `-${scheme}`}.yaml`;

export const LINK_GBPS = 10;
export const HOSTS = 256;
export const HOT_SENDERS = 40;

export const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
export const between = (x: number, lo: number, hi: number) => x >= lo && x <= hi;

/** Scales the run times an override sets, as `runScenario` scales the file's own. */
export function scaleRun(scale: number): (o: Override) => Override {
  return ([path, value]) => {
    if (path !== "run" || typeof value !== "object" || value === null) return [path, value];
    const run = { ...(value as Record<string, number>) };
    for (const key of ["durationUs", "warmupUs"]) {
      if (typeof run[key] === "number") run[key] = Math.round(run[key] * scale);
    }
    return [path, run];
  };
}
