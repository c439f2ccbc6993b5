import {
  type IbCcParams,
  paramsInput as infinibandInput,
  params as infinibandParams,
} from "@cclab/cc-infiniband";
import { z } from "zod";

/**
 * EcoCC's and HFDI's parameters (Gran thesis, seed `001_7d04a2bae72754e7.txt`; "L" is its line).
 * Values the paper gives: HTh 4 packets for CPQs and HPQs (L2285, L2347), 2 HPQs per input
 * (L2347), 9 CAM lines per input (L2347), destination lists capped at 8/16/32 entries for
 * 64/256/1024 nodes (L2347, L2562). The choices for what it leaves out are documented in the
 * package README ("Choices"), each with its reason; they are the same for EcoCC and HFDI.
 */
export const DEFAULTS = {
  variant: "ecocc",
  hthPackets: 4,
  /** Not given; the supplement asks HTh − LTh ≥ 2 MTU (L2529), so at most 2 (README). */
  lthPackets: 2,
  hotQueues: 2,
  dListCap: "auto",
  /** Not given (L2273 only says "a CAM per output port"): one per line a neighbour can send. */
  outputCamLines: 9,
  rootLineStopGo: true,
  messageBytes: 64,
} as const;

/** The paper's cap on a destination list for `hostCount` end nodes (L2347, L2562). */
export function autoDListCap(hostCount: number): number {
  if (hostCount <= 64) return 8;
  if (hostCount <= 256) return 16;
  return 32;
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

/** What a scenario may write under `params` (all optional). */
export const paramsInput = z.strictObject({
  variant: z
    .enum(["ecocc", "hfdi"])
    .default(DEFAULTS.variant)
    .describe(
      "ecocc: isolation plus IB marking and throttling (Paper VI); hfdi: the isolation alone (L2362), with hot queues for local roots too (L2587)",
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
    "CAM lines per output port for lines allocated downstream (not given: 9, README)",
  ).default(DEFAULTS.outputCamLines),
  localRootHpq: z
    .boolean()
    .optional()
    .describe(
      "a detecting input also isolates its local root's flows in an HPQ; default true for hfdi (L2587), false for ecocc (L2271)",
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
});

/** Fully resolved parameters: what the parts run with and the resolved scenario shows. */
export interface EcoccParams {
  readonly variant: "ecocc" | "hfdi";
  readonly hthPackets: number;
  readonly lthPackets: number;
  readonly hotQueues: number;
  readonly dListCap: number | "auto";
  readonly outputCamLines: number;
  readonly localRootHpq: boolean;
  readonly rootLineStopGo: boolean;
  readonly messageBytes: number;
  /** IB CC marking and throttling (ecocc); null for hfdi. */
  readonly throttle: IbCcParams | null;
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
    if (p.variant === "hfdi" && p.throttle !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["throttle"],
        message: "hfdi does not throttle (Paper VI L2362: EcoCC without throttling); remove it",
      });
    }
    if (p.throttle !== undefined) {
      const result = infinibandParams.safeParse(throttleDefaults(p.throttle));
      for (const issue of result.error?.issues ?? []) {
        ctx.addIssue({ code: "custom", path: ["throttle", ...issue.path], message: issue.message });
      }
    }
  })
  .transform(
    (p): EcoccParams => ({
      variant: p.variant,
      hthPackets: p.hthPackets,
      lthPackets: p.lthPackets,
      hotQueues: p.hotQueues,
      dListCap: p.dListCap,
      outputCamLines: p.outputCamLines,
      localRootHpq: p.localRootHpq ?? p.variant === "hfdi",
      rootLineStopGo: p.rootLineStopGo,
      messageBytes: p.messageBytes,
      throttle:
        p.variant === "hfdi" ? null : infinibandParams.parse(throttleDefaults(p.throttle ?? {})),
    }),
  );

/** EcoCC's own default for the throttle: a per-destination timer (L2299). */
function throttleDefaults(t: z.input<typeof throttleInput>): z.input<typeof infinibandParams> {
  return { timer: "per-flow", ...t };
}
