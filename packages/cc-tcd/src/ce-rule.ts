import type { RngStream } from "@cclab/core-des";
import type { PortView } from "@cclab/fabric";
import type { InfinibandRuleParams, RedParams } from "./params.js";

/**
 * The CE decision TCD applies where a port is (or has just become) continuously ON: states NC
 * and C, and the U→C and CHECK→C transitions (the reference's `egressCongested`, used in
 * exactly those branches). Asked with the output port, the VL and the egress queue as the
 * packet leaves (its own bytes not counted).
 *
 * Written here rather than imported from the cc-dcqcn and cc-infiniband packages: a scheme
 * depends on the contract only (ARCHITECTURE.md, "Package graph"), and both rules are a few
 * lines over parameters of TCD's own.
 */
export type CeRule = (outPort: number, vl: number, queueBytes: number) => boolean;

/**
 * RED on the egress queue, DCQCN style: probability 0 at or below Kmin, rising linearly to Pmax
 * at Kmax, 1 above (the reference's `ShouldSendCN` in `broadcom-node.cc`). The same
 * curve as cc-dcqcn's `markingProbability`, whose signature takes DCQCN's whole parameter set.
 */
export function redProbability(r: RedParams, queueBytes: number): number {
  if (queueBytes <= r.kMinBytes) return 0;
  if (queueBytes > r.kMaxBytes) return 1;
  return (r.pMax * (queueBytes - r.kMinBytes)) / (r.kMaxBytes - r.kMinBytes);
}

export function redRule(r: RedParams, rng: RngStream): CeRule {
  return (_out, _vl, queueBytes) => {
    const p = redProbability(r, queueBytes);
    return p >= 1 || (p > 0 && rng.uniform() < p);
  };
}

/**
 * The egress threshold of output `outPort`, bytes, or null (never): `thresholdBytes` if given,
 * else IB CC's Threshold weight as cc-infiniband maps it, (16 − w)/16 of the port's input buffer
 * per VL (w = 0: never).
 */
export function thresholdBytesOf(
  ib: InfinibandRuleParams,
  inputBufferBytes: number,
): number | null {
  if (ib.thresholdBytes !== null) return ib.thresholdBytes;
  const w = ib.thresholdWeight;
  if (w === 0) return null;
  return Math.round((inputBufferBytes * (16 - w)) / 16);
}

/**
 * IB CC's switch rule (seed 004_abc94112a2f36164.txt line 125: "If the queue of an output port
 * exceeds a threshold and there are available credits to send packets, marks packets with
 * FECN"), simplified to TCD's per-packet decision (INFERRED: the authors' IB code is not public):
 * - the measure is the whole egress queue of the port and VL (cc-infiniband's `sum` mapping),
 *   compared at each packet, with no hysteresis, no Victim_Mask and no minimum packet size;
 * - "credits available" is the port not being held by flow control on the VL (not blocked, not
 *   paused), cc-infiniband's test. At a dequeue the port has just started the packet, so it
 *   always holds; the test is kept so the rule reads as IB CC's;
 * - a selected packet is marked with probability 1/(Marking_Rate + 1), cc-infiniband's default
 *   `probability` reading of Marking_Rate.
 */
export function infinibandRule(
  ib: InfinibandRuleParams,
  views: readonly PortView[],
  thresholds: Float64Array,
  rng: RngStream,
): CeRule {
  const every = ib.markingRate === 0;
  const probability = 1 / (ib.markingRate + 1);
  return (out, vl, queueBytes) => {
    if (!(queueBytes > thresholds[out]!)) return false;
    const view = views[out]!;
    if (view.isBlocked(vl) || view.isPaused(vl)) return false;
    return every || rng.bernoulli(probability);
  };
}
