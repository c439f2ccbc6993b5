import { z } from "zod";

/**
 * Parameter sets of IBM's E2CM slides (seed 003_b214e58ba856b6a6.txt; docs/design/e2cm.md).
 * KB and kB are 1000 bytes, as the slides' numbers imply (Gd = 0.5 / (5 · 75 000) =
 * 1.333·10⁻⁶, their "Gd = 1.333*10^-6", L248).
 *
 * The gains are written as the slides write them, relative to the set's own scale:
 * Gd = gdScale / ((2W + 1) · Qeq), so a saturated negative feedback cuts the rate by gdScale;
 * Gi = giScale · Gi0 with Gi0 = (R_link / R_unit) / ((2W + 1) · Qeq), so a saturated positive
 * feedback raises it by giScale · R_link. The per-flow gains use the switch set's Qeq in the
 * same formulas ("E2CM gains are 5 times as high, because Qeq is 5 times as low", L249): a
 * saturated per-flow feedback then moves the rate as much as a saturated switch one.
 *
 * - `reference`: "E2CM r1.0" (L279–332): W 2, Qeq 75 KB, Gd = 0.5/((2W+1)Qeq),
 *   Gi = 0.005·Gi0, one sample per 75 KB (2 %), Ru = Rmin = 1 Mb/s, BCN_MAX at 280 KB, no
 *   BCN(0,0), no self-increase; per flow Qeq 15 KB, Gd = 2.5/((2W+1)Qeq), Gi = 0.025·Gi0,
 *   a probe per 75 KB, BCN_MAX (Qmax) at 56 KB.
 * - `orientative-ig`: the input-generated preview (L248–253): Gi = 6.6667·10⁻⁴ with
 *   Ru = 2 Mb/s (= 0.05·Gi0), per-flow gains 5× (Gd 2.5, Gi 0.25 in this scale), a switch
 *   sample per 75 kB and a probe per 15 kB of a rate-limited flow, BCN_MAX disabled.
 * - `orientative-og`: the output-generated preview (L266–271): as IG but Gi = 6.6667·10⁻⁵
 *   (0.005·Gi0, per flow 0.025) and BCN_MAX enabled at 280 500 B.
 */
const REFERENCE = {
  mode: "e2cm",
  w: 2,
  qeqBytes: 75_000,
  gdScale: 0.5,
  giScale: 0.005,
  rateUnitMbps: 1,
  minRateMbps: 1,
  sampleEveryBytes: 75_000,
  bcnMax: true,
  qscBytes: 280_000,
  bcnZero: false,
  flowQeqBytes: 15_000,
  flowQmaxBytes: 56_000,
  flowGdScale: 2.5,
  flowGiScale: 0.025,
  probeEveryBytes: 75_000,
} as const;

const ORIENTATIVE_IG = {
  ...REFERENCE,
  giScale: 0.05,
  rateUnitMbps: 2,
  minRateMbps: 2,
  bcnMax: false,
  qscBytes: 280_500,
  flowGiScale: 0.25,
  probeEveryBytes: 15_000,
} as const;

export const PRESETS = {
  reference: REFERENCE,
  "orientative-ig": ORIENTATIVE_IG,
  "orientative-og": { ...ORIENTATIVE_IG, giScale: 0.005, flowGiScale: 0.025, bcnMax: true },
} as const;
export type PresetName = keyof typeof PRESETS;

const bytes = (what: string) => z.number().positive().describe(what);
const scale = (what: string) => z.number().positive().describe(what);

/** What a scenario may write under `params` (units in the keys; all optional). */
export const paramsInput = z.strictObject({
  preset: z
    .enum(Object.keys(PRESETS) as [PresetName, ...PresetName[]])
    .default("reference")
    .describe("parameter set the other keys default to"),
  mode: z
    .enum(["bcn", "e2cm"])
    .optional()
    .describe(
      "hosts: bcn reacts to the switches' BCN frames only; e2cm also probes each rate-limited flow and applies the per-flow law",
    ),
  w: z.number().nonnegative().optional().describe("W, weight of the queue change in Fb"),
  qeqBytes: bytes("Qeq, the switch queue's equilibrium, bytes").optional(),
  gdScale: scale("Gd = gdScale / ((2W+1)·Qeq): the cut of a saturated negative Fb").optional(),
  giScale: scale(
    "Gi = giScale · (R_link/R_unit) / ((2W+1)·Qeq): a saturated positive Fb adds giScale · R_link",
  ).optional(),
  rateUnitMbps: scale("R_unit, Mb/s: one unit of Gi·Fb").optional(),
  minRateMbps: scale("R_min, Mb/s: no cut goes below").optional(),
  sampleEveryBytes: bytes(
    "a switch samples an arriving frame with probability frame size / this, bytes (75 000: 2 % of 1500-B frames)",
  ).optional(),
  bcnMax: z
    .boolean()
    .optional()
    .describe("switch: BCN_MAX (the largest cut) when the sampled queue exceeds qscBytes"),
  qscBytes: bytes("threshold of BCN_MAX and of BCN(0,0), bytes").optional(),
  bcnZero: z
    .boolean()
    .optional()
    .describe(
      "switch: BCN(0,0) when the sampled queue exceeds qscBytes and bcnMax is off; the source stops for a random time up to bcnZeroBackoffUs, then restarts at R_min",
    ),
  bcnZeroBackoffUs: z
    .number()
    .positive()
    .default(100)
    .describe("longest stop after a BCN(0,0), µs"),
  flowQeqBytes: bytes("E2CM: Qeq of a flow's path queue, bytes").optional(),
  flowQmaxBytes: bytes("E2CM: the per-flow BCN_MAX threshold, bytes").optional(),
  flowGdScale: scale("E2CM: Gd_f = flowGdScale / ((2W+1)·qeqBytes)").optional(),
  flowGiScale: scale("E2CM: Gi_f = flowGiScale · (R_link/R_unit) / ((2W+1)·qeqBytes)").optional(),
  probeEveryBytes: bytes(
    "E2CM: a rate-limited flow marks one data frame as a probe every this many bytes sent",
  ).optional(),
  rateLimiters: z
    .enum(["per-flow", "per-congestion-point"])
    .default("per-flow")
    .describe(
      "hosts: a rate limiter per flow (E2CM's adapter), or, in mode bcn, one per congestion point shared by the host's flows it last slowed (BCN's)",
    ),
  bcnFrameBytes: z
    .int()
    .min(64)
    .default(64)
    .describe("size of a BCN frame and of a returned probe on the wire, bytes"),
});

/** Fully resolved parameters: what the parts run with and the resolved scenario shows. */
export interface E2cmParams {
  readonly preset: PresetName;
  readonly mode: "bcn" | "e2cm";
  readonly w: number;
  readonly qeqBytes: number;
  readonly gdScale: number;
  readonly giScale: number;
  readonly rateUnitMbps: number;
  readonly minRateMbps: number;
  readonly sampleEveryBytes: number;
  readonly bcnMax: boolean;
  readonly qscBytes: number;
  readonly bcnZero: boolean;
  readonly bcnZeroBackoffUs: number;
  readonly flowQeqBytes: number;
  readonly flowQmaxBytes: number;
  readonly flowGdScale: number;
  readonly flowGiScale: number;
  readonly probeEveryBytes: number;
  readonly rateLimiters: "per-flow" | "per-congestion-point";
  readonly bcnFrameBytes: number;
}

/** The schema a scenario's `params` are validated with: input → fully resolved parameters. */
export const params = paramsInput
  .transform((p): E2cmParams => {
    const given = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
    return { ...PRESETS[p.preset], ...given } as E2cmParams;
  })
  .superRefine((p, ctx) => {
    // E2CM's probes drive a flow's own limiter (L166); a shared one has no flow to probe for.
    if (p.rateLimiters === "per-congestion-point" && p.mode === "e2cm") {
      ctx.addIssue({
        code: "custom",
        path: ["rateLimiters"],
        message: 'per-congestion-point needs mode "bcn" (E2CM keeps a rate limiter per flow)',
      });
    }
  });

/** Gd and Gi, per byte of feedback, for a host whose link runs at `lineRateGbps`. */
export interface Gains {
  readonly gdPerByte: number;
  readonly giPerByte: number;
  readonly flowGdPerByte: number;
  readonly flowGiPerByte: number;
}

export function gains(p: E2cmParams, lineRateGbps: number): Gains {
  const range = (2 * p.w + 1) * p.qeqBytes;
  const gi0 = (lineRateGbps * 1000) / p.rateUnitMbps / range;
  return {
    gdPerByte: p.gdScale / range,
    giPerByte: p.giScale * gi0,
    flowGdPerByte: p.flowGdScale / range,
    flowGiPerByte: p.flowGiScale * gi0,
  };
}

/** Saturation (docs/design/e2cm.md, "Feedback"): Qoff to ±Qeq, Qdelta to ±2·Qeq. */
export function feedback(qoff: number, qdelta: number, qeq: number, w: number): number {
  const off = Math.max(-qeq, Math.min(qeq, qoff));
  const delta = Math.max(-2 * qeq, Math.min(2 * qeq, qdelta));
  return off - w * delta;
}
