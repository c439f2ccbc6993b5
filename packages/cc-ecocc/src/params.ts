import {
  type IbCcParams,
  paramsInput as infinibandInput,
  params as infinibandParams,
} from "@cclab/cc-infiniband";
import { z } from "zod";

/**
 * EcoCC's, HFDI's and CCFIT's parameters (Gran thesis, seed `001_7d04a2bae72754e7.txt`; "L" is
 * its line). Values Paper VI gives: HTh 4 packets for CPQs and HPQs (L2285, L2347), 2 HPQs per
 * input (L2347), 9 CAM lines per input (L2347), destination lists capped at 8/16/32 entries for
 * 64/256/1024 nodes (L2347, L2562). Paper V (CCFIT): 2 CFQs (L2066), Stop/Go 10/4 MTU (L2066),
 * CCTI_Timer 8 µs and marking 85 % of packets (L2065–2066). The choices for what they leave out
 * are documented in the package README ("Choices"), each with its reason, and are the same in
 * every configuration.
 */
export const DEFAULTS = {
  variant: "ecocc",
  hthPackets: 4,
  /** Not given; the supplement asks HTh − LTh ≥ 2 MTU (L2529), so at most 2 (README). */
  lthPackets: 2,
  hotQueues: 2,
  dListCap: "auto",
  /**
   * Not given (L1961, L2273 only say "a CAM per output port"): one per line the downstream
   * input can send (EcoCC 7 + 2, CCFIT 2).
   */
  outputCamLines: { ecocc: 9, hfdi: 9, ccfit: 2, fbicm: 2 },
  rootLineStopGo: true,
  messageBytes: 64,
  /** CCFIT's thresholds, packets: Stop/Go from L2066; detection, High and Low not given. */
  ccfit: { detectPackets: 8, highPackets: 4, lowPackets: 2, stopPackets: 10, goPackets: 4 },
  /** CCFIT's throttling (L2065–2066): CCTI_Timer 8 µs, 85 % of eligible packets marked. */
  ccfitThrottle: { cctiTimerUs: 8 },
  ccfitMarkProbability: 0.85,
} as const;

const VARIANTS = ["ecocc", "hfdi", "ccfit", "fbicm"] as const;
export type Variant = (typeof VARIANTS)[number];

/** The variants without injection throttling (isolation alone). */
export const isolationOnly = (v: Variant): boolean => v === "hfdi" || v === "fbicm";
/** The variants on an input-queued switch with one normal queue per input (Paper V). */
export const normalQueue = (v: Variant): boolean => v === "ccfit" || v === "fbicm";

/** The paper's cap on a destination list for `hostCount` end nodes (L2347, L2562). */
export function autoDListCap(hostCount: number): number {
  if (hostCount <= 64) return 8;
  if (hostCount <= 256) return 16;
  return 32;
}

/** The cap a parameter set gives a destination list on a fabric of `hostCount` end nodes. */
export function dListCapFor(p: Pick<EcoccParams, "dListCap">, hostCount: number): number {
  return p.dListCap === "auto" ? autoDListCap(hostCount) : p.dListCap;
}

const count = (min: number, max: number, what: string) =>
  z.number().int().min(min).max(max).describe(what);

/** The InfiniBand keys that throttling uses (the switch threshold keys do not apply). */
const throttleInput = infinibandInput
  .pick({
    preset: true,
    markingRate: true,
    marking: true,
    packetSize64B: true,
    cctiIncrease: true,
    cctiLimit: true,
    cctiMin: true,
    cctiTimerUs: true,
    cctUs: true,
    cctFormula: true,
    level: true,
    timer: true,
  })
  .describe(
    "EcoCC's injection throttling: the infiniband plugin's marking and reaction keys (Paper VI takes IB-ITh's values, L2360, from Paper III: preset paper3-hardware); timer default per-flow",
  );

const ccfitInput = z
  .strictObject({
    detectPackets: count(1, 1024, "the NFQ above this detects congestion (not given: 8)").default(
      DEFAULTS.ccfit.detectPackets,
    ),
    highPackets: count(
      1,
      1024,
      "a root CFQ above this puts its output in the congestion state (not given: 4, as ITh's High, L2065)",
    ).default(DEFAULTS.ccfit.highPackets),
    lowPackets: count(0, 1023, "… and leaves it at this (not given: 2, ITh's Low)").default(
      DEFAULTS.ccfit.lowPackets,
    ),
    stopPackets: count(1, 1024, "a CFQ above this stops its upstream (L2066: 10 MTU)").default(
      DEFAULTS.ccfit.stopPackets,
    ),
    goPackets: count(0, 1023, "… and lets it go at this (L2066: 4 MTU)").default(
      DEFAULTS.ccfit.goPackets,
    ),
  })
  .describe("CCFIT's queue thresholds, packets (variants ccfit and fbicm)");

/** What a scenario may write under `params` (all optional). */
export const paramsInput = z.strictObject({
  variant: z
    .enum(VARIANTS)
    .default(DEFAULTS.variant)
    .describe(
      "ecocc: CPQ per output plus hot queues, with IB marking and throttling (Paper VI); hfdi: that isolation alone (L2362), with hot queues for local roots too (L2587); ccfit: one normal queue plus congested-flow queues, with throttling (Paper V); fbicm: that isolation alone (Paper V's FBICM, Paper VI's single-read-port HFDI, L2599)",
    ),
  hthPackets: count(
    1,
    1024,
    "HTh: a queue holding more packets than this is hot (L2347: 4)",
  ).default(DEFAULTS.hthPackets),
  lthPackets: count(
    0,
    1023,
    "LTh: a hot queue holding this many packets or fewer is cool again (not given; 2, README)",
  ).default(DEFAULTS.lthPackets),
  hotQueues: count(0, 64, "HPQs (hot-packet queues) per input port and VL (L2347: 2)").default(
    DEFAULTS.hotQueues,
  ),
  dListCap: z
    .union([z.literal("auto"), count(1, 1024, "entries")])
    .default(DEFAULTS.dListCap)
    .describe(
      "destinations a CAM line holds; auto: 8 up to 64 hosts, 16 up to 256, else 32 (L2347, L2562)",
    ),
  outputCamLines: count(
    1,
    256,
    "CAM lines per output port for lines allocated downstream (not given: 9 for ecocc and hfdi, 2 for ccfit and fbicm, README)",
  ).optional(),
  localRootHpq: z
    .boolean()
    .optional()
    .describe(
      "a detecting input also isolates its local root's flows in an HPQ; default true for hfdi (L2587), false for ecocc (L2271)",
    ),
  joinDownstreamLines: z
    .boolean()
    .default(true)
    .describe(
      "a local-root line (localRootHpq) joins an output line that the downstream neighbour allocates later for one of its destinations, so the downstream's stop and go hold it (not given; true reproduces more of Table 3 than false, where the line allocated first keeps its packets: docs/design/ecocc.md E6)",
    ),
  rootLineStopGo: z
    .boolean()
    .default(DEFAULTS.rootLineStopGo)
    .describe(
      "a root CPQ's line sends stop/go upstream with the HPQs' thresholds (not given, README: keeps upstream HPQs from filling the root's input buffer, L2378)",
    ),
  messageBytes: count(
    8,
    4096,
    "size of allocate/stop/go/deallocate messages, bytes (not given)",
  ).default(DEFAULTS.messageBytes),
  throttle: throttleInput.optional(),
  markProbability: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .optional()
    .describe(
      "probability of marking an eligible packet at a congested output; default: 1/(markingRate + 1) of the throttle for ecocc, 0.85 for ccfit (L2065)",
    ),
  ccfit: ccfitInput.optional(),
});

/** Fully resolved parameters: what the parts run with and the resolved scenario shows. */
export interface EcoccParams {
  readonly variant: Variant;
  readonly hthPackets: number;
  readonly lthPackets: number;
  readonly hotQueues: number;
  readonly dListCap: number | "auto";
  readonly outputCamLines: number;
  readonly localRootHpq: boolean;
  readonly joinDownstreamLines: boolean;
  readonly rootLineStopGo: boolean;
  readonly messageBytes: number;
  /** IB CC marking and throttling (ecocc, ccfit); null for hfdi and fbicm. */
  readonly throttle: IbCcParams | null;
  /** Marking probability at a congested output (0 without throttling). */
  readonly markProbability: number;
  /** CCFIT's thresholds (variants ccfit and fbicm), else null. */
  readonly ccfit: z.output<typeof ccfitInput> | null;
}

/** The schema a scenario's `params` are validated with: input → fully resolved parameters. */
export const params = paramsInput
  .superRefine((p, ctx) => {
    const hth = p.hthPackets;
    const lth = p.lthPackets;
    if (lth >= hth) {
      ctx.addIssue({
        code: "custom",
        path: ["lthPackets"],
        message: `must be below hthPackets (${hth}), got ${lth}`,
      });
    }
    if (isolationOnly(p.variant) && p.throttle !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["throttle"],
        message: `${p.variant} does not throttle (isolation alone: Paper VI L2362, Paper V L2064); remove it`,
      });
    }
    if (!normalQueue(p.variant) && p.ccfit !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["ccfit"],
        message: `the CCFIT thresholds apply to variants ccfit and fbicm, not ${p.variant}`,
      });
    }
    const c = { ...DEFAULTS.ccfit, ...p.ccfit };
    for (const [low, high] of [
      ["lowPackets", "highPackets"],
      ["goPackets", "stopPackets"],
    ] as const) {
      if (c[low] >= c[high]) {
        ctx.addIssue({
          code: "custom",
          path: ["ccfit", low],
          message: `must be below ${high} (${c[high]}), got ${c[low]}`,
        });
      }
    }
    if (isolationOnly(p.variant) && p.markProbability != null) {
      ctx.addIssue({
        code: "custom",
        path: ["markProbability"],
        message: `${p.variant} does not mark; remove it`,
      });
    }
    if (p.throttle !== undefined) {
      const result = infinibandParams.safeParse(throttleDefaults(p.variant, p.throttle));
      for (const issue of result.error?.issues ?? []) {
        ctx.addIssue({ code: "custom", path: ["throttle", ...issue.path], message: issue.message });
      }
    }
  })
  .transform((p): EcoccParams => {
    const throttle = isolationOnly(p.variant)
      ? null
      : infinibandParams.parse(throttleDefaults(p.variant, p.throttle ?? {}));
    const markProbability =
      throttle === null
        ? 0
        : (p.markProbability ??
          (p.variant === "ccfit" ? DEFAULTS.ccfitMarkProbability : 1 / (throttle.markingRate + 1)));
    return {
      variant: p.variant,
      hthPackets: p.hthPackets,
      lthPackets: p.lthPackets,
      hotQueues: p.hotQueues,
      dListCap: p.dListCap,
      outputCamLines: p.outputCamLines ?? DEFAULTS.outputCamLines[p.variant],
      localRootHpq: p.localRootHpq ?? p.variant === "hfdi",
      joinDownstreamLines: p.joinDownstreamLines,
      rootLineStopGo: p.rootLineStopGo,
      messageBytes: p.messageBytes,
      throttle,
      markProbability,
      ccfit: normalQueue(p.variant) ? { ...DEFAULTS.ccfit, ...p.ccfit } : null,
    };
  });

/**
 * The throttle's defaults beyond the infiniband preset: a per-destination timer (EcoCC L2299,
 * CCFIT L2013), and for CCFIT its CCTI_Timer of 8 µs (L2065–2066).
 */
function throttleDefaults(
  variant: Variant,
  t: z.input<typeof throttleInput>,
): z.input<typeof infinibandParams> {
  return { timer: "per-flow", ...(variant === "ccfit" ? DEFAULTS.ccfitThrottle : {}), ...t };
}
