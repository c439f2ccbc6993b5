import {
  DATA_KIND,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import { CONTROL_LANE, LANES } from "./lanes.js";

/**
 * The destination (seed 002_fea465e6cd934ce6.txt L64–67): every data packet is acknowledged as
 * it arrives, ahead of the host's data, and the ACK carries the packet's mark (FECN copied to
 * the ACK's BECN).
 */
export function createReceiverPart(context: HostPartContext): ReceiverPart {
  const packets = context.packets;
  const ackKind = packets.kindCodeOf("ack");
  const ackBytes = context.controlPacketBytes;
  const vl = context.lanes[CONTROL_LANE]!;
  let acksSent = 0;
  let marksEchoed = 0;
  return {
    onArrive(packet: PacketId): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const ack = packets.replyTo(packet, ackKind, ackBytes, vl, context.scheduler.nowPs);
      if (packets.fecn[packet] === 1) {
        packets.becn[ack] = 1;
        marksEchoed++;
      }
      context.sendControl(ack);
      acksSent++;
    },
    counters: () => ({ acksSent, marksEchoed }),
  };
}

export const receiverPartFactory: ReceiverPartFactory = {
  specVersion: "^3.0.0",
  name: "santos receiver (ACK echoes the mark)",
  lanes: LANES,
  reads: ["fecn"],
  writes: ["becn"],
  create: createReceiverPart,
};
