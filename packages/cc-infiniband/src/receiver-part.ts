import {
  type HostPartContext,
  Packet,
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
    onArrive(packet: Packet): void {
      if (packet.kind !== "data" || !packet.fecn || packet.becn) return;
      fecnReceived++;
      const cnp = new Packet();
      cnp.kind = "cnp";
      cnp.becn = true;
      cnp.sizeBytes = context.controlPacketBytes;
      cnp.flowId = packet.flowId;
      cnp.dstHost = packet.srcHost;
      cnp.sl = packet.sl;
      cnp.vl = packet.vl;
      cnp.createdPs = context.scheduler.nowPs;
      context.sendControl(cnp);
      cnpSent++;
    },
    counters: () => ({ fecnReceived, cnpSent }),
  };
}

export const receiverPartFactory: ReceiverPartFactory = {
  specVersion: 1,
  name: "infiniband receiver (FECN → CNP)",
  create: createReceiverPart,
};
