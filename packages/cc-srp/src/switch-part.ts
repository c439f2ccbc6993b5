import { usToPs } from "@cclab/core-des";
import {
  FifoQueueSet,
  NAMED_PACKET_KINDS,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { COLUMN, REPLY_LANE, RESERVATION_LANE, SPECULATIVE_LANE, SRP_LANES } from "./lanes.js";
import type { SrpParams } from "./params.js";

const NACK_KIND = NAMED_PACKET_KINDS.indexOf("nack");

/**
 * SRP at a switch (seed 000_23e1115f082a0339.txt, line 70): a speculative packet is stamped
 * when it enters an input queue; when it is at the head of its queue and its queueing time
 * summed over every switch so far exceeds TTW, it is dropped (the switch frees its buffer and
 * returns its credits) and a NACK goes back to its source on the reply lane (lines 78, 247–249).
 * The check runs each time the arbiter considers the head, which for the low-priority lane is
 * whenever no normal data packet may use the output (docs/model.md, "Lanes"); with `dropCheck:
 * until-room` a head that has room past the crossbar is not dropped, and one that arrived past
 * TTW is, as in the authors' Booksim (packages/cc-srp/README.md, "When TTW is checked"). With
 * `fifoLanes` the part queues its three lanes in one FIFO per input port ({@link FifoQueueSet}),
 * as the paper's routers do; the data lanes keep the switch's queueing (VOQ in the paper).
 */
export function createSwitchPart(context: SwitchPartContext, p: SrpParams): SwitchPart {
  const speculativeVl = context.lanes[SPECULATIVE_LANE]!;
  const replyVl = context.lanes[REPLY_LANE]!;
  const fifoVls = new Set([context.lanes[RESERVATION_LANE]!, replyVl, speculativeVl]);
  const ttwPs = usToPs(p.ttwUs);
  const untilRoom = p.dropCheck === "until-room";
  const packets = context.packets;
  const scheduler = context.scheduler;
  // Columns are re-read through these objects: the store may grow them when it grows.
  const queued = packets.column(COLUMN.queuedPs, Float64Array);
  const arrived = packets.column(COLUMN.arrivedPs, Float64Array);
  const droppedColumn = packets.column(COLUMN.dropped, Int32Array);
  let drops = 0;

  return {
    onEnqueue(packet: PacketId): void {
      if (packets.vl[packet] === speculativeVl) arrived.values[packet] = scheduler.nowPs;
    },
    onDequeue(packet: PacketId): void {
      if (packets.vl[packet] !== speculativeVl) return;
      queued.values[packet]! += scheduler.nowPs - arrived.values[packet]!;
    },
    dropAtHead(packet: PacketId, _inPort: number, hasRoom: boolean): boolean {
      const now = scheduler.nowPs;
      const before = queued.values[packet]!;
      const expired = untilRoom
        ? before > ttwPs || (!hasRoom && before + (now - arrived.values[packet]!) > ttwPs)
        : before + (now - arrived.values[packet]!) > ttwPs;
      if (!expired) return false;
      const nack = packets.alloc();
      packets.kindCode[nack] = NACK_KIND;
      packets.sizeBytes[nack] = p.controlPacketBytes;
      packets.flowId[nack] = packets.flowId[packet]!;
      packets.srcHost[nack] = packets.dstHost[packet]!;
      packets.dstHost[nack] = packets.srcHost[packet]!;
      packets.sl[nack] = packets.sl[packet]!;
      packets.vl[nack] = replyVl;
      packets.createdPs[nack] = now;
      packets.injectedPs[nack] = now;
      droppedColumn.values[nack] = packet;
      drops++;
      context.sendControl(nack);
      return true;
    },
    counters: () => ({ speculativeDropped: drops }),
    createQueueSet: (queues) =>
      p.fifoLanes && fifoVls.has(queues.vl) ? new FifoQueueSet(queues.packets) : undefined,
  };
}

/** The switch part's factory, for a scheme. */
export function switchPartFactory(p: SrpParams): SwitchPartFactory {
  return {
    specVersion: p.dropCheck === "until-room" ? "^3.5.0" : "^3.1.0",
    name: "srp-switch",
    lanes: SRP_LANES,
    writes: [COLUMN.queuedPs, COLUMN.arrivedPs, COLUMN.dropped],
    reads: [COLUMN.queuedPs, COLUMN.arrivedPs],
    create: (context) => createSwitchPart(context, p),
  };
}
