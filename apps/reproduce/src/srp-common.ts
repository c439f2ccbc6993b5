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

/**
 * Booksim moves one flit per channel per cycle, and the paper's routers run at 1 GHz (seed line
 * 92): if its µs are thousands of cycles, a 32-flit packet took 32 ns, not the 204.8 ns of
 * 10 Gb/s, and TTW spanned 6.4 times more packet times. These overrides give that time base:
 * 64 Gb/s links (64-bit flits at 1 GHz) and runs 6.4 times shorter, so each host sends as
 * many packets as in a 10 Gb/s run; latencies and TTW stay in ns. Metric bins shrink with the
 * run when `binUs` (the shipped scenario's) is given.
 */
export const FLIT_PER_NS_GBPS = 64;
export function flitPerNs(scale: number, binUs?: number): Override[] {
  const shorter = LINK_GBPS / FLIT_PER_NS_GBPS;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return [
    ["topology.rateGbps", FLIT_PER_NS_GBPS],
    ["run.durationUs", round(1000 * scale * shorter)],
    ["run.warmupUs", round(200 * scale * shorter)],
    ...(binUs === undefined ? [] : ([["metrics.binUs", round(binUs * shorter)]] as Override[])),
  ];
}

/**
 * The switch side of SRP as the authors' simulator has it (Booksim with SRP, public booksim2
 * history; cc-srp README, "When TTW is checked"): TTW checked until the head has room past the
 * crossbar, and the speculative lane queued per output (the code's `reservation_spec_voq`,
 * on by default there) where the paper's text has one FIFO (line 98).
 */
export const AUTHORS_SWITCH = { dropCheck: "until-room", fifoLanes: false } as const;

/**
 * A shipped scenario of `scheme` on the authors' time base with the paper's times unchanged (if
 * its µs are thousands of 1 GHz cycles, a 1 ms onset is 1 ms here too), SRP's switches as theirs.
 */
export function authorsTimeBase(scheme: Scheme): Override[] {
  return [
    ["topology.rateGbps", FLIT_PER_NS_GBPS],
    ...(scheme === "srp" ? ([["cc.switch.params", AUTHORS_SWITCH]] as Override[]) : []),
  ];
}
