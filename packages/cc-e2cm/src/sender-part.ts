import {
  type FlowGate,
  type FlowInfo,
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type SenderPart,
  type SenderPartFactory,
} from "@cclab/fabric";
import { BcnType, COLUMN } from "./frames.js";
import { type E2cmParams, gains } from "./params.js";
import { ReactionPoint, type Shared } from "./reaction-point.js";

const BCN_KIND = NAMED_PACKET_KINDS.indexOf("bcn");
const PROBE_KIND = NAMED_PACKET_KINDS.indexOf("probe");

/**
 * The reaction point of a host (docs/design/e2cm.md, "Reaction point"): rate limiters made by
 * negative BCN frames (one per flow, or one per congestion point with `rateLimiters:
 * per-congestion-point`), driven by the switches' BCN frames and, in mode `e2cm`, by each
 * flow's returned probes, and released when their rate is back at line rate.
 * Per-flow series: `rateGbps` (line rate when not limited), `pathQueueBytes` (E2CM's Q).
 */
export function createSenderPart(p: E2cmParams, context: HostPartContext): SenderPart {
  const packets = context.packets;
  const lineRateGbps = context.uplinkRateGbps;
  const shared: Shared = {
    context,
    p,
    g: gains(p, lineRateGbps),
    lineRateGbps,
    minRateGbps: Math.min(p.minRateMbps / 1000, lineRateGbps),
    unitGbps: p.rateUnitMbps / 1000,
    cpid: packets.column(COLUMN.cpid, Int32Array),
    type: packets.column(COLUMN.type, Uint8Array),
    time: packets.column(COLUMN.timePs, Float64Array),
    byCp: new Map(),
    counts: {
      bcnReceived: 0,
      probesSent: 0,
      probesReceived: 0,
      rateCuts: 0,
      rateIncreases: 0,
      limitersCreated: 0,
      limitersReleased: 0,
      limitersActive: 0,
    },
  };
  const qoff = packets.column(COLUMN.qoffBytes, Float64Array);
  const qdelta = packets.column(COLUMN.qdeltaBytes, Float64Array);
  const throughput = packets.column(COLUMN.throughputBytesPerS, Float64Array);
  const byFlow = new Map<number, ReactionPoint>();

  return {
    openFlow(flow: FlowInfo): FlowGate {
      const rp = new ReactionPoint(shared);
      byFlow.set(flow.flowId, rp);
      return rp;
    },
    onControl(packet: PacketId): void {
      const rp = byFlow.get(packets.flowId[packet]!);
      if (rp === undefined) return;
      const kind = packets.kindCode[packet];
      if (kind === BCN_KIND) {
        rp.onBcn(
          shared.type.values[packet]!,
          shared.cpid.values[packet]!,
          qoff.values[packet]!,
          qdelta.values[packet]!,
        );
      } else if (kind === PROBE_KIND && shared.type.values[packet] === BcnType.probeReverse) {
        if (p.mode === "e2cm") rp.onProbe(shared.time.values[packet]!, throughput.values[packet]!);
      }
    },
    counters: () => ({ ...shared.counts }),
    sampleFlows(visit): void {
      for (const [flowId, rp] of byFlow) {
        visit(flowId, "rateGbps", rp.rateGbps);
        if (p.mode === "e2cm") visit(flowId, "pathQueueBytes", rp.lastQBytes);
      }
    },
  };
}

/**
 * The sender part. It reads the BCN frames' queue offset, so a fabric whose switches send no
 * BCN frames is refused when the network is built.
 */
export function senderPartFactory(p: E2cmParams): SenderPartFactory {
  return {
    specVersion: "^3.0.0",
    name: p.mode === "e2cm" ? "e2cm reaction point (BCN + probes)" : "bcn reaction point",
    reads: [COLUMN.qoffBytes],
    create: (context) => createSenderPart(p, context),
  };
}
