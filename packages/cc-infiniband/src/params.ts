import { MAX_TIME_US, TIME_TOO_LATE } from "@cclab/core-des";
import { z } from "zod";

/**
 * Parameter sets of the Gran thesis (seed `001_7d04a2bae72754e7.txt`; L is its line) and the SRP
 * paper. Every parameter a scenario leaves out comes from the chosen preset.
 * - `paper3-hardware`: Paper III Table I (L1317–1324), CCT i²·7/106² µs with 128 entries
 *   (L1479), found on Mellanox hardware.
 * - `paper4-fattree`: Paper IV Table I (L1729–1735): the same but Marking_Rate 0 and
 *   Packet_Size 0. Paper IV says its CCT values were "increased" for the larger fabric
 *   (L1728) without giving them; this preset keeps Paper III's table.
 * - `srp-ecn`: the "Infiniband style ECN" network the SRP paper compares against (seed
 *   `000_23e1115f082a0339.txt`), see its entry.
 * Keys a preset leaves out take {@link PRESET_DEFAULTS}.
 */
export const PRESETS = {
  "paper3-hardware": {
    thresholdWeight: 15,
    markingRate: 1,
    packetSize64B: 8,
    cctiIncrease: 1,
    cctiLimit: 127,
    cctiMin: 0,
    cctiTimerUs: 150,
    cctFormula: { entries: 128, scaleUs: 7, divisor: 106 },
  },
  "paper4-fattree": {
    thresholdWeight: 15,
    markingRate: 0,
    packetSize64B: 0,
    cctiIncrease: 1,
    cctiLimit: 127,
    cctiMin: 0,
    cctiTimerUs: 150,
    cctFormula: { entries: 128, scaleUs: 7, divisor: 106 },
  },
  /**
   * SRP paper, Table 1 (seed 000_23e1115f082a0339.txt, lines 113–116) and its ECN rule (seed
   * 000_23e1115f082a0339.txt, line 104):
   * - b_thres, 90 % of the input buffer capacity, against the total occupancy of the VoQs
   *   headed to an output port (`sum`); the port must have credits to be the root, ejection
   *   ports included (line 104), so no Victim_Mask;
   * - IPD+ 800 ns per notification, IPD− 50 ns: a linear CCT of 50 ns steps (CCT[i] = i/20
   *   µs) and CCTI_Increase 16;
   * - t− 2 µs without a notification lowers the send queue's delay, which has a queue per
   *   destination (line 102): a `per-flow` CCTI_Timer of 2 µs per queue pair, restarted by
   *   each BECN;
   * - every data packet a congested port sends is marked (the paper names no rate or size).
   * The paper's delay has no bound: CCTI_Limit 4095 allows 204.75 µs, four times the
   * fair-share gap of 255 senders to one 10 Gb/s node with 256-byte packets (line 92, 98).
   */
  "srp-ecn": {
    thresholdFraction: 0.9,
    thresholdMapping: "sum",
    victimMask: "none",
    markingRate: 0,
    packetSize64B: 0,
    cctiIncrease: 16,
    cctiLimit: 4095,
    cctiMin: 0,
    cctiTimerUs: 2,
    cctFormula: { entries: 4096, scaleUs: 1, divisor: 20, exponent: 1 },
    level: "qp",
    timer: "per-flow",
  },
} as const;
export type PresetName = keyof typeof PRESETS;

/** What a preset that leaves these keys out gives (the spec's choices). */
export const PRESET_DEFAULTS = {
  thresholdWeight: null,
  thresholdFraction: null,
  thresholdMapping: "voq",
  victimMask: "host-ports",
  marking: "probability",
  level: "qp",
  timer: "port-sl",
  // No preset sets it: TCD's reaction is an option of any parameter set (see tcd.ts).
  tcdReaction: false,
} as const;

/** Every value of preset `name`, the defaults filled in. */
function presetValues(name: PresetName) {
  return { ...PRESET_DEFAULTS, ...PRESETS[name] };
}

const int = (min: number, max: number, what: string) =>
  z.number().int().min(min).max(max).describe(what);

const cctFormula = z
  .strictObject({
    entries: z.number().int().min(128).max(16_384).describe("table entries (≥ 128, spec)"),
    scaleUs: z.number().nonnegative().max(MAX_TIME_US, TIME_TOO_LATE).describe("numerator, µs"),
    divisor: z.number().positive().describe("divisor d"),
    exponent: int(1, 4, "power e (default 2)").optional(),
  })
  .describe(
    "CCT[i] = scaleUs · (i / divisor)^exponent µs (Paper III L1479: 7, 106 and 2; exponent 1: linear)",
  );

/** What a scenario may write under `params` (units in the keys; all optional). */
export const paramsInput = z.strictObject({
  preset: z
    .enum(Object.keys(PRESETS) as [PresetName, ...PresetName[]])
    .default("paper3-hardware")
    .describe("parameter set the other keys default to"),
  // null is "not given", as a resolved scenario writes what the other keys decided.
  thresholdWeight: int(
    0,
    15,
    "Threshold 0–15: 0 never marks; 1..15 map to (16 − w)/16 of the input buffer per VL (high = low)",
  )
    .nullable()
    .optional(),
  thresholdFraction: z
    .number()
    .positive()
    .max(1)
    .nullable()
    .optional()
    .describe(
      "threshold as a fraction of the input buffer per VL, high = low (SRP paper's b_thres: 0.9); replaces the weight",
    ),
  thresholdHighBytes: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .describe("explicit upper threshold, bytes (with thresholdLowBytes: hysteresis, Paper II)"),
  thresholdLowBytes: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe("explicit lower threshold, bytes: the port leaves the congestion state below it"),
  thresholdMapping: z
    .enum(["voq", "sum", "sum-per-input"])
    .optional()
    .describe(
      "Paper I L830: each VoQ to the output against the threshold, their sum, or the sum against threshold ÷ contributing inputs",
    ),
  victimMask: z
    .enum(["host-ports", "none", "all"])
    .optional()
    .describe("ports that may enter the congestion state without credits (spec: host-facing)"),
  markingRate: int(0, 65_535, "Marking_Rate").optional(),
  marking: z
    .enum(["probability", "count"])
    .optional()
    .describe(
      "probability: mark with 1/(Marking_Rate+1) (Paper II L1139); count: every (Marking_Rate+1)-th eligible packet (the spec's mean)",
    ),
  packetSize64B: int(
    0,
    65_535,
    "Packet_Size, 64-byte units: smaller packets are not marked",
  ).optional(),
  cctiIncrease: int(0, 16_383, "CCTI_Increase per BECN").optional(),
  cctiLimit: int(0, 16_383, "CCTI_Limit").optional(),
  cctiMin: int(0, 16_383, "CCTI_Min").optional(),
  cctiTimerUs: z
    .number()
    .min(0.001, "must be at least 0.001 µs (1 ns)")
    .max(MAX_TIME_US, TIME_TOO_LATE)
    .optional()
    .describe("CCTI_Timer, µs"),
  cctUs: z
    .array(z.number().nonnegative().max(MAX_TIME_US, TIME_TOO_LATE))
    .min(128)
    .optional()
    .describe("the CCT as a list of inter-packet delays, µs (≥ 128 entries); else cctFormula"),
  cctFormula: cctFormula.optional(),
  level: z
    .enum(["qp", "sl"])
    .optional()
    .describe("CCTI per queue pair (flow) or per service level, exclusively (spec)"),
  timer: z
    .enum(["port-sl", "per-flow"])
    .optional()
    .describe(
      "port-sl: one free-running CCTI_Timer per port and SL (spec); per-flow: re-armed on each BECN (CCFIT/EcoCC)",
    ),
  tcdReaction: z
    .boolean()
    .optional()
    .describe(
      "react to a TCD switch's marks (INFERRED rule, TCD slides name IB CC+TCD without its rules): BECNs carry CE or UE; CE raises the CCTI, UE holds it and restarts the CCTI_Timer; needs a switch part that writes tcd.code",
    ),
});

/** Fully resolved parameters: what the parts run with and the resolved scenario shows. */
export interface IbCcParams {
  readonly preset: PresetName;
  /** Null when explicit byte thresholds or a fraction are given. */
  readonly thresholdWeight: number | null;
  /** Null unless the threshold is a fraction of the input buffer. */
  readonly thresholdFraction: number | null;
  readonly thresholdHighBytes: number | null;
  readonly thresholdLowBytes: number | null;
  readonly thresholdMapping: "voq" | "sum" | "sum-per-input";
  readonly victimMask: "host-ports" | "none" | "all";
  readonly markingRate: number;
  readonly marking: "probability" | "count";
  readonly packetSize64B: number;
  readonly cctiIncrease: number;
  readonly cctiLimit: number;
  readonly cctiMin: number;
  readonly cctiTimerUs: number;
  /** The table, µs per entry. */
  readonly cctUs: readonly number[];
  readonly level: "qp" | "sl";
  readonly timer: "port-sl" | "per-flow";
  /** Hosts tell TCD's UE from CE and hold on UE (tcd.ts, tcd-receiver-part.ts, sender-part.ts). */
  readonly tcdReaction: boolean;
}

/** Builds the CCT of a formula: entry i is scaleUs · (i / divisor)^exponent µs (exponent: 2). */
export function cctFromFormula(f: {
  entries: number;
  scaleUs: number;
  divisor: number;
  exponent?: number | undefined;
}): number[] {
  const e = f.exponent ?? 2;
  const d = f.divisor;
  // Exponent 2 operation for operation as before: existing tables stay the same to the bit.
  return Array.from({ length: f.entries }, (_, i) =>
    e === 2 ? (f.scaleUs * i * i) / (d * d) : (f.scaleUs * i ** e) / d ** e,
  );
}

/** The schema a scenario's `params` are validated with: input → fully resolved parameters. */
export const params = paramsInput
  .superRefine((p, ctx) => {
    const high = p.thresholdHighBytes ?? undefined;
    const low = p.thresholdLowBytes ?? undefined;
    if ((high === undefined) !== (low === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [high === undefined ? "thresholdHighBytes" : "thresholdLowBytes"],
        message: "give both thresholdHighBytes and thresholdLowBytes, or neither",
      });
    }
    if (high !== undefined && low !== undefined) {
      if (low > high) {
        ctx.addIssue({
          code: "custom",
          path: ["thresholdLowBytes"],
          message: `must be ≤ thresholdHighBytes (${high}), got ${low}`,
        });
      }
      if (p.thresholdWeight != null) {
        ctx.addIssue({
          code: "custom",
          path: ["thresholdWeight"],
          message: "give either thresholdWeight or the explicit byte thresholds, not both",
        });
      }
    }
    if (p.thresholdFraction != null && (p.thresholdWeight != null || high !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["thresholdFraction"],
        message: "give one threshold: thresholdFraction, thresholdWeight or the byte thresholds",
      });
    }
    if (p.cctUs !== undefined && p.cctFormula !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["cctUs"],
        message: "give either cctUs or cctFormula, not both",
      });
    }
    const preset = PRESETS[p.preset];
    const entries = p.cctUs?.length ?? p.cctFormula?.entries ?? preset.cctFormula.entries;
    const limit = p.cctiLimit ?? preset.cctiLimit;
    const min = p.cctiMin ?? preset.cctiMin;
    if (limit >= entries) {
      ctx.addIssue({
        code: "custom",
        path: ["cctiLimit"],
        message: `must index the CCT (${entries} entries): at most ${entries - 1}, got ${limit}`,
      });
    }
    if (min > limit) {
      ctx.addIssue({
        code: "custom",
        path: ["cctiMin"],
        message: `must be ≤ cctiLimit (${limit}), got ${min}`,
      });
    }
  })
  .transform((p): IbCcParams => {
    const preset = presetValues(p.preset);
    // A threshold the scenario gives (bytes, a fraction or a weight) replaces the preset's.
    const given =
      p.thresholdHighBytes != null || p.thresholdFraction != null || p.thresholdWeight != null;
    return {
      preset: p.preset,
      thresholdWeight: given ? (p.thresholdWeight ?? null) : preset.thresholdWeight,
      thresholdFraction: given ? (p.thresholdFraction ?? null) : preset.thresholdFraction,
      thresholdHighBytes: p.thresholdHighBytes ?? null,
      thresholdLowBytes: p.thresholdLowBytes ?? null,
      thresholdMapping: p.thresholdMapping ?? preset.thresholdMapping,
      victimMask: p.victimMask ?? preset.victimMask,
      markingRate: p.markingRate ?? preset.markingRate,
      marking: p.marking ?? preset.marking,
      packetSize64B: p.packetSize64B ?? preset.packetSize64B,
      cctiIncrease: p.cctiIncrease ?? preset.cctiIncrease,
      cctiLimit: p.cctiLimit ?? preset.cctiLimit,
      cctiMin: p.cctiMin ?? preset.cctiMin,
      cctiTimerUs: p.cctiTimerUs ?? preset.cctiTimerUs,
      cctUs: p.cctUs ?? cctFromFormula(p.cctFormula ?? preset.cctFormula),
      level: p.level ?? preset.level,
      timer: p.timer ?? preset.timer,
      tcdReaction: p.tcdReaction ?? preset.tcdReaction,
    };
  });

/** Threshold bytes (high, low) for an input buffer of `bufferBytes` per VL; null: never. */
export function thresholdsBytes(
  p: IbCcParams,
  bufferBytes: number,
): { high: number; low: number } | null {
  if (p.thresholdHighBytes !== null && p.thresholdLowBytes !== null) {
    return { high: p.thresholdHighBytes, low: p.thresholdLowBytes };
  }
  if (p.thresholdFraction !== null) {
    // Not rounded to whole bytes: 0.9 of 4096 bytes is 3686.4 (the SRP paper's b_thres).
    const bytes = bufferBytes * p.thresholdFraction;
    return { high: bytes, low: bytes };
  }
  const w = p.thresholdWeight ?? 0;
  if (w === 0) return null;
  // Weights 1..15 decrease the threshold uniformly (spec via Paper II L1259); our mapping:
  // (16 − w)/16 of the buffer, so 15 is 1/16 of it and 1 is 15/16.
  const bytes = Math.round((bufferBytes * (16 - w)) / 16);
  return { high: bytes, low: bytes };
}
