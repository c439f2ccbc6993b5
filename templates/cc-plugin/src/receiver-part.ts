import type { HostPartContext, PacketId, ReceiverPart, ReceiverPartFactory } from "@cclab/fabric";
import { CONTROL_LANE, ECHO_KIND, LANES, MARK_COLUMN, SCHEME } from "./scheme.js";

/** The notification point: every marked data packet is echoed to its source. */
export function createReceiverPart(host: HostPartContext): ReceiverPart {
  const packets = host.packets;
  const marked = packets.column(MARK_COLUMN, Uint8Array);
  const echoKind = packets.kindCodeOf(ECHO_KIND);
  const vl = host.lanes[CONTROL_LANE]!;
  let echoesSent = 0;
  return {
    onData(packet: PacketId): void {
      if (marked.values[packet] !== 1) return;
      // On the data packet's flow, back to its source, on the control lane.
      const echo = packets.replyTo(
        packet,
        echoKind,
        host.controlPacketBytes,
        vl,
        host.scheduler.nowPs,
      );
      host.sendControl(echo);
      echoesSent++;
    },
    counters: () => ({ [`${SCHEME}.echoesSent`]: echoesSent }),
  };
}

export const receiverPartFactory: ReceiverPartFactory = {
  specVersion: "^3.0.0",
  name: `${SCHEME} echo`,
  lanes: LANES,
  reads: [MARK_COLUMN],
  create: createReceiverPart,
};
