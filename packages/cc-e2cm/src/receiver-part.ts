import {
  DATA_KIND,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import { BcnType, COLUMN, CONTROL_LANE, LANES } from "./frames.js";
import type { E2cmParams } from "./params.js";

/** What the destination keeps per incoming flow between two of its probes. */
interface FlowMeter {
  /** Data bytes of the flow that arrived since its last probe (that probe's own included). */
  bytes: number;
  /** Arrival of the flow's last probe, ps; −1 before its first. */
  lastProbePs: number;
}

/**
 * The destination's side of E2CM (docs/design/e2cm.md, "Probes"; seed
 * 003_b214e58ba856b6a6.txt L150–156, L218–224): on a forward probe it writes the forward
 * latency (now − the source's timestamp) and the flow's service rate since its previous probe
 * (the flow's bytes that arrived in between, this probe's included, over the time between the
 * two probes), and returns it to the source ahead of data. The first probe of a flow has no
 * previous one: it returns the latency with the rate unknown (−1), and the source only learns
 * its flight time from it.
 */
export function createReceiverPart(p: E2cmParams, context: HostPartContext): ReceiverPart {
  const packets = context.packets;
  const type = packets.column(COLUMN.type, Uint8Array);
  const time = packets.column(COLUMN.timePs, Float64Array);
  const throughput = packets.column(COLUMN.throughputBytesPerS, Float64Array);
  const controlVl = context.lanes[CONTROL_LANE]!;
  const meters = new Map<number, FlowMeter>();
  let probesReturned = 0;

  return {
    onArrive(packet: PacketId): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const flowId = packets.flowId[packet]!;
      let meter = meters.get(flowId);
      if (meter === undefined) {
        meter = { bytes: 0, lastProbePs: -1 };
        meters.set(flowId, meter);
      }
      meter.bytes += packets.sizeBytes[packet]!;
      if (type.values[packet] !== BcnType.probeForward) return;
      const now = context.scheduler.nowPs;
      const latencyPs = now - time.values[packet]!;
      const rate =
        meter.lastProbePs < 0 || now === meter.lastProbePs
          ? -1
          : (meter.bytes * 1e12) / (now - meter.lastProbePs);
      meter.bytes = 0;
      meter.lastProbePs = now;
      const reply = packets.create({
        kind: "probe",
        sizeBytes: p.bcnFrameBytes,
        flowId,
        srcHost: context.hostIndex,
        dstHost: packets.srcHost[packet]!,
        sl: packets.sl[packet]!,
        vl: controlVl,
        createdPs: now,
      });
      type.values[reply] = BcnType.probeReverse;
      time.values[reply] = latencyPs;
      throughput.values[reply] = rate;
      context.sendControl(reply);
      probesReturned++;
    },
    counters: () => ({ probesReturned }),
  };
}

export function receiverPartFactory(p: E2cmParams): ReceiverPartFactory {
  return {
    specVersion: "^3.0.0",
    name: "e2cm destination (returns probes)",
    lanes: LANES,
    create: (context) => createReceiverPart(p, context),
  };
}
