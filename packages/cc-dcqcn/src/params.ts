import { MAX_TIME_US, TIME_TOO_LATE } from "@cclab/core-des";
import { z } from "zod";

/**
 * Parameter sets (`../shared/specs/dcqcn.md`). Every parameter a scenario leaves out comes from
 * the chosen preset. KB and MB are decimal (10^3, 10^6 bytes), as in the sources.
 * - `paper`: the SIGCOMM 2015 algorithm (spec sections 2–5): a CNP per flow at most every
 *   50 µs, a cut on each CNP, α decaying every 55 µs without CNPs, increase events from a 55 µs
 *   timer and a 10 MB byte counter, F = 5, g = 1/256; marking Kmin 5 KB, Kmax 200 KB, Pmax 1 %
 *   (the paper's 40 Gb/s values, spec 4.5); R_AI 40 Mb/s, R_HAI 200 Mb/s, minimum rate
 *   100 Mb/s (the author's simulator, spec 4.5).
 * - `nic`: the Mellanox-style variant of the HPCC simulator (spec section 6) with the values of
 *   the benchmark workload (`scenarios/bench/uniform256-dcqcn.yaml`): the CNP is a flag on the
 *   ACK of each marked packet, α updated every 1 µs, a decrease check every 4 µs, timer-only
 *   increase every 300 µs, one fast-recovery stage, R_AI 20 Mb/s, R_HAI 200 Mb/s, minimum rate
 *   1 Gb/s, g = 1/256; marking Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 (100 Gb/s).
 * - `tcd`: the DCQCN of the TCD authors' reference runs (Yi-ran/DCQCN-TCD,
 *   `config/configburst.txt`): CNP interval 50 µs, α period 55 µs, increase timer 55 µs, byte
 *   counter 10 MB, F = 5, g = 1/256 (`DCTCP_GAIN 0.00390625`), R_AI 40 Mb/s, R_HAI 200 Mb/s,
 *   clamped target; RED Kmin 5, Kmax 200, Pmax 0.01 in cells of 1030 B (`SetMarkingThreshold`,
 *   `broadcom-node.cc`); minimum rate 100 Mb/s (the `MinRate` default) and α starting at 0.5
 *   (the constructor), both in `qbb-net-device.cc`. Only α and the RED keys differ from `paper`;
 *   the RED keys matter only to a `dcqcn` switch (the plain-ECN baseline of those runs), a TCD
 *   switch has its own. The reaction to TCD's codes is `tcdReaction`, with any `paper`-variant
 *   preset.
 */
const PAPER = {
  variant: "paper",
  kminBytes: 5_000,
  kmaxBytes: 200_000,
  pmax: 0.01,
  g: 1 / 256,
  cnpIntervalUs: 50,
  ackEveryPackets: 1,
  alphaTimerUs: 55,
  increaseTimerUs: 55,
  byteCounterBytes: 10_000_000,
  decreaseCheckUs: 4,
  fastRecoverySteps: 5,
  additiveIncreaseMbps: 40,
  hyperIncreaseMbps: 200,
  minRateMbps: 100,
  initialAlpha: 1,
  rateOnFirstCnp: 1,
  clampTargetRate: true,
} as const;

export const PRESETS = {
  paper: PAPER,
  nic: {
    variant: "nic",
    kminBytes: 400_000,
    kmaxBytes: 1_600_000,
    pmax: 0.2,
    g: 1 / 256,
    cnpIntervalUs: 50,
    ackEveryPackets: 1,
    alphaTimerUs: 1,
    increaseTimerUs: 300,
    byteCounterBytes: null,
    decreaseCheckUs: 4,
    fastRecoverySteps: 1,
    additiveIncreaseMbps: 20,
    hyperIncreaseMbps: 200,
    minRateMbps: 1000,
    initialAlpha: 1,
    rateOnFirstCnp: 1,
    clampTargetRate: false,
  },
  // Only α and the RED keys differ from `paper` (see above).
  tcd: { ...PAPER, kminBytes: 5 * 1030, kmaxBytes: 200 * 1030, initialAlpha: 0.5 },
} as const satisfies Record<
  string,
  Omit<
    DcqcnParams,
    "preset" | "markAt" | "alphaBeforeCut" | "tcdReaction" | "npEcnReceiver" | "npEcnMarkedFraction"
  >
>;
export type PresetName = keyof typeof PRESETS;

const positive = (what: string) => z.number().positive().describe(what);
const micros = (what: string) =>
  z
    .number()
    .min(0.001, "must be at least 0.001 µs (1 ns)")
    .max(MAX_TIME_US, TIME_TOO_LATE)
    .describe(what);

/** What a scenario may write under `params` (units in the keys; all optional). */
export const paramsInput = z.strictObject({
  preset: z
    .enum(Object.keys(PRESETS) as [PresetName, ...PresetName[]])
    .default("paper")
    .describe("parameter set the other keys default to"),
  variant: z
    .enum(["paper", "nic"])
    .optional()
    .describe(
      "paper: CNPs from the receiver (≤ 1 per cnpIntervalUs per flow), a cut per CNP; nic: a CNP flag on ACKs, at most one cut per decrease check",
    ),
  kminBytes: z.number().nonnegative().optional().describe("RED: no mark at or below, bytes"),
  kmaxBytes: z.number().nonnegative().optional().describe("RED: every packet marked above, bytes"),
  pmax: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("RED: marking probability just below kmaxBytes (0–1)"),
  markAt: z
    .enum(["dequeue", "enqueue"])
    .default("dequeue")
    .describe("when the egress queue is compared: as a packet leaves for its link, or joins"),
  g: z.number().gt(0).lt(1).optional().describe("α gain"),
  cnpIntervalUs: micros("paper: at most one CNP per flow per interval, µs").optional(),
  ackEveryPackets: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("nic: the receiver ACKs every n-th data packet of a flow (the CNP flag rides on it)"),
  alphaTimerUs: micros("α period K, µs").optional(),
  increaseTimerUs: micros("rate-increase timer, µs").optional(),
  byteCounterBytes: z
    .number()
    .positive()
    .nullable()
    .optional()
    .describe("paper: an increase event every this many bytes sent; null: timer only"),
  decreaseCheckUs: micros("nic: how often a CNP flag may cut the rate, µs").optional(),
  fastRecoverySteps: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("F: increase events of fast recovery"),
  additiveIncreaseMbps: positive("R_AI, Mb/s").optional(),
  hyperIncreaseMbps: positive("R_HAI, Mb/s").optional(),
  minRateMbps: positive("lowest rate a cut may reach, Mb/s").optional(),
  initialAlpha: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("α of a new flow (paper) or at the first CNP (nic)"),
  rateOnFirstCnp: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .describe("nic: the rate becomes this fraction of itself at a flow's first CNP flag"),
  clampTargetRate: z
    .boolean()
    .optional()
    .describe(
      "the target rate becomes the current rate at every cut (false: only after an increase event)",
    ),
  alphaBeforeCut: z
    .boolean()
    .default(false)
    .describe("paper: update α before cutting with it at a CNP (the author's simulator)"),
  tcdReaction: z
    .boolean()
    .default(false)
    .describe(
      "paper: react to a TCD switch's codes (column tcd.code): one CNP per flow per cnpIntervalUs carrying the OR of the interval's codes; a CE-CNP cuts, a UE-CNP holds the rate (no cut, no increase)",
    ),
  npEcnReceiver: z
    .boolean()
    .default(false)
    .describe(
      "paper: PCN's NP-ECN notification point (for a tcd switch with ceRule np-ecn): per flow, one CNP per cnpIntervalUs only when at least npEcnMarkedFraction of the interval's data packets carried CE",
    ),
  npEcnMarkedFraction: z
    .number()
    .gt(0)
    .max(1)
    .default(0.95)
    .describe(
      "npEcnReceiver: the fraction of a flow's packets in a CNP interval that must be CE for a CNP (0–1; PCN, the TCD authors' code: 0.95)",
    ),
});

/** Fully resolved parameters: what the parts run with and the resolved scenario shows. */
export interface DcqcnParams {
  readonly preset: PresetName;
  readonly variant: "paper" | "nic";
  readonly kminBytes: number;
  readonly kmaxBytes: number;
  readonly pmax: number;
  readonly markAt: "dequeue" | "enqueue";
  readonly g: number;
  readonly cnpIntervalUs: number;
  readonly ackEveryPackets: number;
  readonly alphaTimerUs: number;
  readonly increaseTimerUs: number;
  readonly byteCounterBytes: number | null;
  readonly decreaseCheckUs: number;
  readonly fastRecoverySteps: number;
  readonly additiveIncreaseMbps: number;
  readonly hyperIncreaseMbps: number;
  readonly minRateMbps: number;
  readonly initialAlpha: number;
  readonly rateOnFirstCnp: number;
  readonly clampTargetRate: boolean;
  readonly alphaBeforeCut: boolean;
  /** React to Ternary Congestion Detection's codes (see tcd-code.ts); `paper` variant only. */
  readonly tcdReaction: boolean;
  /** PCN's NP-ECN notification point (np-ecn-receiver-part.ts); `paper` variant only. */
  readonly npEcnReceiver: boolean;
  /** With `npEcnReceiver`: a CNP when at least this fraction of the interval's packets was CE. */
  readonly npEcnMarkedFraction: number;
}

/** The schema a scenario's `params` are validated with: input → fully resolved parameters. */
export const params = paramsInput
  .transform((p): DcqcnParams => {
    // The preset's values under every key the scenario did not give (a given `null` stays).
    const given = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
    return { ...PRESETS[p.preset], ...given } as DcqcnParams;
  })
  .superRefine((p, ctx) => {
    if (p.kminBytes > p.kmaxBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["kminBytes"],
        message: `must be ≤ kmaxBytes (${p.kmaxBytes}), got ${p.kminBytes}`,
      });
    }
    // TCD's reaction (the authors' reference code) is built on the paper's CNPs and cuts; the
    // nic variant has neither a CNP to carry the code nor a per-CNP cut to hold back.
    if (p.tcdReaction && p.variant !== "paper") {
      ctx.addIssue({
        code: "custom",
        path: ["tcdReaction"],
        message: `needs variant "paper" (CNPs that carry the TCD code), got "${p.variant}"`,
      });
    }
    // NP-ECN's receiver (the TCD authors' code, `CheckandSendQCN` with `EnableNPECN`) decides
    // per CNP interval: the paper's CNPs; and it replaces TCD's notification point, not both.
    if (p.npEcnReceiver && p.variant !== "paper") {
      ctx.addIssue({
        code: "custom",
        path: ["npEcnReceiver"],
        message: `needs variant "paper" (CNPs per interval), got "${p.variant}"`,
      });
    }
    if (p.npEcnReceiver && p.tcdReaction) {
      ctx.addIssue({
        code: "custom",
        path: ["npEcnReceiver"],
        message: "cannot be combined with tcdReaction (each is a notification point of its own)",
      });
    }
  });

/** RED/ECN marking probability for an egress queue of `queueBytes` (spec section 2). */
export function markingProbability(p: DcqcnParams, queueBytes: number): number {
  if (queueBytes <= p.kminBytes) return 0;
  if (queueBytes > p.kmaxBytes) return 1;
  return (p.pmax * (queueBytes - p.kminBytes)) / (p.kmaxBytes - p.kminBytes);
}
