import type {
  FlowGate,
  FlowInfo,
  HostPartContext,
  PacketId,
  SenderPart,
  SenderPartFactory,
} from "@cclab/fabric";
import { LANES } from "./lanes.js";
import type { FimdParams } from "./params.js";
import { responseFunction } from "./response.js";
import { Source, type SourceRules } from "./source.js";

/**
 * The host's sources: one {@link Source} per flow, and the ACKs routed to them. R_max is the
 * host's link rate unless `maxRateGbps` says otherwise; R_min = minRateFraction · R_max.
 */
export function createSenderPart(p: FimdParams, context: HostPartContext): SenderPart {
  const packets = context.packets;
  const ackKind = packets.kindCodeOf("ack");
  const maxRateGbps = p.maxRateGbps ?? context.uplinkRateGbps;
  const minRateGbps = p.minRateFraction * maxRateGbps;
  const rules: SourceRules = {
    response: responseFunction(p.response, { m: p.m, minRate: minRateGbps, maxRate: maxRateGbps }),
    minRateGbps,
    maxRateGbps,
    windowPackets: p.windowPackets,
  };
  const now = () => context.scheduler.nowPs;
  const sources = new Map<number, Source>();
  let acksReceived = 0;
  let marksReceived = 0;
  return {
    openFlow(flow: FlowInfo): FlowGate {
      const source = new Source(rules, packets, now);
      sources.set(flow.flowId, source);
      return source;
    },
    onControl(packet: PacketId): void {
      if (packets.kindCode[packet] !== ackKind) return;
      const source = sources.get(packets.flowId[packet]!);
      if (source === undefined) return;
      const marked = packets.becn[packet] === 1;
      acksReceived++;
      if (marked) marksReceived++;
      source.acknowledged(marked);
      context.gatesChanged();
    },
    counters: () => {
      let decreases = 0;
      let increases = 0;
      for (const source of sources.values()) {
        decreases += source.decreases;
        increases += source.increases;
      }
      return { acksReceived, marksReceived, rateDecreases: decreases, rateIncreases: increases };
    },
    sampleFlows(visit): void {
      for (const [flowId, source] of sources) visit(flowId, "rateGbps", source.rateGbps);
    },
  };
}

export function senderPartFactory(p: FimdParams): SenderPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `santos ${p.response} source`,
    lanes: LANES,
    reads: ["becn"],
    create: (context) => createSenderPart(p, context),
  };
}
