import {
  DATA_KIND,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import type { IbCcParams } from "./params.js";
import { tcdReceiverPartFactory } from "./tcd-receiver-part.js";

/**
 * The notification point (Paper I L858, Paper II L1267): a destination that receives a data
 * packet with FECN set returns a congestion notification packet (CNP) with BECN set to its
 * source at once, on arrival in the receive buffer rather than after the host has consumed
 * it, and ahead of its own data (the host sends control packets first). FECN is ignored on
 * ACKs and CNPs (L1273) and when BECN is also set (L858).
 */
export function createReceiverPart(context: HostPartContext): ReceiverPart {
  // Read once: this runs for every packet every host receives, and the context is one more
  // object per host to fetch from memory (648-node forest).
  const packets = context.packets;
  const scheduler = context.scheduler;
  const cnpKind = packets.kindCodeOf("cnp");
  const cnpBytes = context.controlPacketBytes;
  const controlVl: number | undefined = context.controlVls[0];
  let fecnReceived = 0;
  let cnpSent = 0;
  return {
    onArrive(packet: PacketId): void {
      if (
        packets.kindCode[packet] !== DATA_KIND ||
        packets.fecn[packet] === 0 ||
        packets.becn[packet] === 1
      ) {
        return;
      }
      fecnReceived++;
      // On the fabric's first control VL when it has one (ahead of data at every switch, as the
      // SRP paper's ECN network sends its notifications, seed 000_23e1115f082a0339.txt line 94),
      // else on the data packet's VL.
      const vl = controlVl ?? packets.vl[packet]!;
      const cnp = packets.replyTo(packet, cnpKind, cnpBytes, vl, scheduler.nowPs);
      packets.becn[cnp] = 1;
      context.sendControl(cnp);
      cnpSent++;
    },
    counters: () => ({ fecnReceived, cnpSent }),
  };
}

export const receiverPartFactory: ReceiverPartFactory = {
  specVersion: 2,
  name: "infiniband receiver (FECN → CNP)",
  reads: ["fecn"],
  writes: ["becn"],
  create: createReceiverPart,
};

/**
 * The receiver of resolved parameters: this one, or with `tcdReaction` the one that also
 * answers TCD's UE marks (tcd-receiver-part.ts). Chosen once, so the plain receiver does no
 * per-packet work for the option.
 */
export function receiverPartFactoryFor(p: Pick<IbCcParams, "tcdReaction">): ReceiverPartFactory {
  return p.tcdReaction ? tcdReceiverPartFactory : receiverPartFactory;
}
