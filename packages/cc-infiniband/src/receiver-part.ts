import {
  DATA_KIND,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";

/**
 * The notification point (Paper I L858, Paper II L1267): a destination that receives a data
 * packet with FECN set returns a congestion notification packet (CNP) with BECN set to its
 * source at once, on arrival in the receive buffer rather than after the host has consumed
 * it, and ahead of its own data (the host sends control packets first). FECN is ignored on
 * ACKs and CNPs (L1273) and when BECN is also set (L858).
 */
export function createReceiverPart(context: HostPartContext): ReceiverPart {
  let fecnReceived = 0;
  let cnpSent = 0;
  return {
    onArrive(packet: PacketId): void {
      const packets = context.packets;
      if (
        packets.kindCode[packet] !== DATA_KIND ||
        packets.fecn[packet] === 0 ||
        packets.becn[packet] === 1
      ) {
        return;
      }
      fecnReceived++;
      const cnp = packets.create({
        kind: "cnp",
        becn: true,
        sizeBytes: context.controlPacketBytes,
        flowId: packets.flowId[packet]!,
        dstHost: packets.srcHost[packet]!,
        sl: packets.sl[packet]!,
        vl: packets.vl[packet]!,
        createdPs: context.scheduler.nowPs,
      });
      context.sendControl(cnp);
      cnpSent++;
    },
    counters: () => ({ fecnReceived, cnpSent }),
  };
}

export const receiverPartFactory: ReceiverPartFactory = {
  specVersion: 2,
  name: "infiniband receiver (FECN → CNP)",
  create: createReceiverPart,
};
