import { serializationPs, type TimePs } from "@cclab/core-des";
import {
  DATA_KIND,
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import { COLUMN, REPLY_LANE, SPECULATIVE_LANE, SRP_LANES } from "./lanes.js";
import type { SrpParams } from "./params.js";

const ACK_KIND = NAMED_PACKET_KINDS.indexOf("ack");
const GRANT_KIND = NAMED_PACKET_KINDS.indexOf("grant");
const RESERVATION_KIND = NAMED_PACKET_KINDS.indexOf("reservation");

/**
 * SRP at a destination (seed 000_23e1115f082a0339.txt, lines 72–74, 245): one reservation
 * register, the earliest start it may grant. A reservation of n packets arriving at time t is
 * granted t_s = max(t, register), and the register moves to t_s + n·(1+ε)·τ_p, τ_p being one
 * full data packet's time on this host's link. Grants go back at once, on the reply lane. Each
 * speculative data packet that arrives is ACKed (line 70), on the same lane.
 */
export class SrpReceiver implements ReceiverPart {
  private registerPs: TimePs = 0;
  private readonly packetPs: number;
  private readonly speculativeVl: number;
  private readonly replyVl: number;
  private readonly chunk;
  private readonly reserved;
  private readonly startPs;
  private reservations = 0;
  private acks = 0;

  constructor(
    private readonly context: HostPartContext,
    private readonly p: SrpParams,
  ) {
    this.packetPs = serializationPs(
      context.mtuBytes + context.dataHeaderBytes,
      context.uplinkRateGbps,
    );
    this.speculativeVl = context.lanes[SPECULATIVE_LANE]!;
    this.replyVl = context.lanes[REPLY_LANE]!;
    const packets = context.packets;
    this.chunk = packets.column(COLUMN.chunk, Int32Array);
    this.reserved = packets.column(COLUMN.packets, Int32Array);
    this.startPs = packets.column(COLUMN.startPs, Float64Array);
  }

  onArrive(packet: PacketId): void {
    const kind = this.context.packets.kindCode[packet];
    if (kind === RESERVATION_KIND) this.grant(packet);
    else if (kind === DATA_KIND && this.context.packets.vl[packet] === this.speculativeVl) {
      this.context.sendControl(this.reply(packet, ACK_KIND));
      this.acks++;
    }
  }

  private grant(reservation: PacketId): void {
    const now = this.context.scheduler.nowPs;
    const start = Math.max(now, this.registerPs);
    const n = this.reserved.values[reservation]!;
    this.registerPs = start + Math.ceil(n * (1 + this.p.epsilon) * this.packetPs);
    const grant = this.reply(reservation, GRANT_KIND);
    this.startPs.values[grant] = start;
    this.context.sendControl(grant);
    this.reservations++;
  }

  // A reply to `packet`'s source on the reply lane, carrying its reservation number.
  private reply(packet: PacketId, kindCode: number): PacketId {
    const context = this.context;
    const packets = context.packets;
    const reply = packets.replyTo(
      packet,
      kindCode,
      this.p.controlPacketBytes,
      this.replyVl,
      context.scheduler.nowPs,
    );
    this.chunk.values[reply] = this.chunk.values[packet]!;
    return reply;
  }

  counters(): Readonly<Record<string, number>> {
    return { reservationsGranted: this.reservations, speculativeAcked: this.acks };
  }
}

/** The receiver part's factory, for a scheme. */
export function receiverPartFactory(p: SrpParams): ReceiverPartFactory {
  return {
    specVersion: "^3.1.0",
    name: "srp-destination",
    lanes: SRP_LANES,
    writes: [COLUMN.chunk, COLUMN.startPs],
    reads: [COLUMN.chunk, COLUMN.packets],
    create: (context) => new SrpReceiver(context, p),
  };
}
