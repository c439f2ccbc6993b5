import {
  DATA_KIND,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { LANES } from "./lanes.js";
import { MarkingCounters } from "./marking.js";
import type { FimdParams } from "./params.js";

/**
 * The switch side (docs/design/santos.md, "Marking"): ECN marking for input-buffered switches,
 * seed 002_fea465e6cd934ce6.txt L62–198. A data packet that enters an input buffer is counted
 * for its output; an input buffer is full when it has no room left for another packet of the
 * size that just entered (4 packets of 2 KB in 8 KB, L44 and L93); the marking events and
 * counters are {@link MarkingCounters}'. A packet is marked (FECN, the InfiniBand forward
 * ECN bit) as it leaves its input, so the mark travels with it to the destination, which
 * echoes it in the ACK.
 */
export function createSwitchPart(p: FimdParams, context: SwitchPartContext): SwitchPart {
  const packets = context.packets;
  const counters = new MarkingCounters(
    context.portCount,
    p.marking,
    p.outputThresholdPackets,
    p.roots,
  );
  const ports = Array.from({ length: context.portCount }, (_, i) => context.port(i));
  const bufferBytes = ports.map((_, i) => context.inputBufferBytes(i));
  let packetsMarked = 0;
  return {
    onEnqueue(packet: PacketId, inPort: number): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const size = packets.sizeBytes[packet]!;
      const held = ports[inPort]!.inputBytes(packets.vl[packet]!);
      counters.arrived(inPort, packets.outPort[packet]!, held + size > bufferBytes[inPort]!);
    },
    onDequeue(packet: PacketId, inPort: number): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      if (counters.departs(inPort, packets.outPort[packet]!)) {
        packets.fecn[packet] = 1;
        packetsMarked++;
      }
    },
    counters: () => ({
      inputTriggers: counters.inputTriggers,
      outputTriggers: counters.outputTriggers,
      packetsMarked,
    }),
  };
}

export function switchPartFactory(p: FimdParams): SwitchPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `santos ${p.marking} marking`,
    lanes: LANES,
    writes: ["fecn"],
    create: (context) => createSwitchPart(p, context),
  };
}
