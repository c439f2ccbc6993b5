import { MAX_TIME_US, TIME_TOO_LATE } from "@cclab/core-des";
import { z } from "zod";

/**
 * TCD's defaults. The state machine's come from the authors' ns-3 code (Yi-ran/DCQCN-TCD,
 * `qbb-net-device.cc`, `DequeueAndTransmit`; `scratch/third.cc` for `RootECNInterval`); the RED
 * rule's from its TCD runs (Kmin 5 and Kmax 200 cells of 1030 B, Pmax 0.01); the InfiniBand
 * rule's from this repository's `infiniband` plugin's default preset (Threshold 15, Marking_Rate
 * 1), since no IB code of the authors is public.
 */
export const DEFAULTS = {
  maxTonUs: 40,
  growBytes: 900,
  drainedBytes: 2 * 1030,
  truncateTonToUs: false,
  ceRule: "red",
  red: { kMinBytes: 5 * 1030, kMaxBytes: 200 * 1030, pMax: 0.01 },
  infiniband: { thresholdWeight: 15, thresholdBytes: null, markingRate: 1 },
} as const;

const micros = (what: string) =>
  z
    .number()
    .min(0.001, "must be at least 0.001 µs (1 ns)")
    .max(MAX_TIME_US, TIME_TOO_LATE)
    .describe(what);

const red = z
  .strictObject({
    kMinBytes: z
      .number()
      .nonnegative()
      .default(DEFAULTS.red.kMinBytes)
      .describe("RED: no CE at or below this egress queue, bytes (reference: 5 cells)"),
    kMaxBytes: z
      .number()
      .nonnegative()
      .default(DEFAULTS.red.kMaxBytes)
      .describe("RED: every packet CE above this egress queue, bytes (reference: 200 cells)"),
    pMax: z
      .number()
      .min(0)
      .max(1)
      .default(DEFAULTS.red.pMax)
      .describe("RED: CE probability just below kMaxBytes (0–1)"),
  })
  .describe("the RED/ECN CE rule (ceRule red and np-ecn), DCQCN style, on the egress queue");

const infiniband = z
  .strictObject({
    thresholdWeight: z
      .number()
      .int()
      .min(0)
      .max(15)
      .default(DEFAULTS.infiniband.thresholdWeight)
      .describe(
        "IB CC Threshold 0–15: 0 never marks CE; 1..15 put the threshold at (16 − w)/16 of the input buffer per VL",
      ),
    thresholdBytes: z
      .number()
      .nonnegative()
      .nullable()
      .default(DEFAULTS.infiniband.thresholdBytes)
      .describe("threshold on the egress queue, bytes; replaces thresholdWeight when given"),
    markingRate: z
      .number()
      .int()
      .min(0)
      .default(DEFAULTS.infiniband.markingRate)
      .describe(
        "IB CC Marking_Rate: a packet the threshold rule selects is marked with probability 1/(markingRate + 1)",
      ),
  })
  .describe("the InfiniBand CE rule (ceRule infiniband): egress queue above a threshold");

/** What a scenario may write under `params` (units in the keys; all optional). */
export const paramsInput = z.strictObject({
  maxTonUs: micros(
    "max(T_on): a port whose ON period has lasted longer than this has left the ON-OFF pattern, µs (reference RootECNInterval 40)",
  ).default(DEFAULTS.maxTonUs),
  checkPeriodUs: micros(
    "period of the queue-trend check after an undetermined episode, µs (default: maxTonUs, as in the reference)",
  ).optional(),
  growBytes: z
    .number()
    .nonnegative()
    .default(DEFAULTS.growBytes)
    .describe(
      "CHECK → C when the queue grew by at least this over one period, bytes (reference 900)",
    ),
  drainedBytes: z
    .number()
    .nonnegative()
    .default(DEFAULTS.drainedBytes)
    .describe("CHECK → NC when the queue is at most this, bytes (reference 2 × 1030)"),
  truncateTonToUs: z
    .boolean()
    .default(DEFAULTS.truncateTonToUs)
    .describe("compare times in whole microseconds, as the reference code does"),
  ceRule: z
    .enum(["red", "infiniband", "np-ecn"])
    .default(DEFAULTS.ceRule)
    .describe(
      "the CE decision in states NC/C and at U→C, CHECK→C: red (sets ecn to CE, for DCQCN hosts) or infiniband (sets fecn, for IB CC hosts); np-ecn replaces TCD by PCN's non-PAUSE ECN baseline (RED on the red keys, no CE while packets of the port's last paused period remain queued; no UE, no states)",
    ),
  red: red.prefault({}),
  infiniband: infiniband.prefault({}),
});

/** Fully resolved parameters: what the part runs with and the resolved scenario shows. */
export interface TcdParams {
  readonly maxTonUs: number;
  readonly checkPeriodUs: number;
  readonly growBytes: number;
  readonly drainedBytes: number;
  readonly truncateTonToUs: boolean;
  /**
   * `np-ecn` is not a CE rule inside TCD but PCN's NP-ECN baseline in TCD's place (the
   * reference's `EnableNPECN`; np-ecn-switch-part.ts): RED on `red`, TCD's other keys unused.
   */
  readonly ceRule: "red" | "infiniband" | "np-ecn";
  readonly red: RedParams;
  readonly infiniband: InfinibandRuleParams;
}

export interface RedParams {
  readonly kMinBytes: number;
  readonly kMaxBytes: number;
  readonly pMax: number;
}

export interface InfinibandRuleParams {
  readonly thresholdWeight: number;
  readonly thresholdBytes: number | null;
  readonly markingRate: number;
}

/** The schema a scenario's `params` are validated with: input → fully resolved parameters. */
export const params = paramsInput
  .superRefine((p, ctx) => {
    if (p.red.kMinBytes > p.red.kMaxBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["red", "kMinBytes"],
        message: `must be ≤ red.kMaxBytes (${p.red.kMaxBytes}), got ${p.red.kMinBytes}`,
      });
    }
  })
  .transform(
    (p): TcdParams => ({
      ...p,
      checkPeriodUs: p.checkPeriodUs ?? p.maxTonUs,
    }),
  );
