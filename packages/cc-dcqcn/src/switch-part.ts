import {
  DATA_KIND,
  Ecn,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { type DcqcnParams, markingProbability } from "./params.js";

/**
 * The congestion point (spec section 2): RED-style ECN marking on the egress queue of each
 * output port and VL. The egress queue is what waits in the switch for that output: the bytes
 * of every packet routed to it from enqueue at its input until it starts on the output link,
 * in its input queue and, with output buffers, in the output buffer (the queue an
 * output-queued shared-memory switch would have). A data packet that is ECN-capable
 * (ECT, set by the DCQCN sender) gets CE with probability 0 at or below Kmin, Pmax·(q − Kmin)/
 * (Kmax − Kmin) up to Kmax and 1 above, where q is the queue as the packet leaves for its link
 * (its own bytes no longer counted: spec, "evaluated when the packet is dequeued", after the
 * HPCC simulator's SwitchNotifyDequeue) or, with `markAt: enqueue`, as it joins (its own bytes
 * not yet counted). Control packets (CNPs, ACKs) are never marked: they are not ECN-capable.
 */
export function createSwitchPart(p: DcqcnParams, context: SwitchPartContext): SwitchPart {
  const ports = context.portCount;
  const vls = context.port(0).vlCount;
  const packets = context.packets;
  const rng = context.rng;
  // Per output port and VL, at [out * vls + vl].
  const queued = new Float64Array(ports * vls);
  const atDequeue = p.markAt === "dequeue";
  let ceMarked = 0;

  const mark = (packet: PacketId, queueBytes: number): void => {
    if (packets.kindCode[packet] !== DATA_KIND || packets.ecn[packet] !== Ecn.capable) return;
    const probability = markingProbability(p, queueBytes);
    if (probability === 0) return;
    if (probability >= 1 || rng.uniform() < probability) {
      packets.ecn[packet] = Ecn.congestion;
      ceMarked++;
    }
  };

  return {
    onEnqueue(packet: PacketId): void {
      const q = packets.outPort[packet]! * vls + packets.vl[packet]!;
      if (!atDequeue) mark(packet, queued[q]!);
      queued[q]! += packets.sizeBytes[packet]!;
    },
    // A packet leaves the egress queue when it starts on the output link: from its input
    // queue (no output buffers, at the grant) or from the output buffer it crossed into. The
    // switch's own control packets never joined it.
    onTransmit(packet: PacketId, inPort: number, outPort: number): void {
      if (inPort === FROM_SWITCH_CONTROL) return;
      const q = outPort * vls + packets.vl[packet]!;
      queued[q]! -= packets.sizeBytes[packet]!;
      if (atDequeue) mark(packet, queued[q]!);
    },
    counters: () => ({ ceMarked }),
  };
}

/** The switch part, with one extra VL for CNPs and ACKs (served ahead of data). */
export function switchPartFactory(p: DcqcnParams): SwitchPartFactory {
  return {
    specVersion: 2,
    name: "dcqcn switch (RED/ECN marking)",
    writes: ["ecn"],
    extraVls: 1,
    create: (context) => createSwitchPart(p, context),
  };
}
