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
  protected readonly psn;
  private reservations = 0;
  private acks = 0;

  constructor(
    protected readonly context: HostPartContext,
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
    this.psn = p.inOrder ? packets.column(COLUMN.psn, Int32Array) : undefined;
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
    if (this.psn !== undefined) this.psn.values[reply] = this.psn.values[packet]!;
    return reply;
  }

  counters(): Readonly<Record<string, number>> {
    return { reservationsGranted: this.reservations, speculativeAcked: this.acks };
  }
}

/** What a destination knows of one flow's packet numbers (in-order variant). */
interface FlowArrivals {
  /** Every packet numbered below this has arrived. */
  below: number;
  /** Packets numbered `below` or more that have arrived. */
  readonly above: Set<number>;
  /** The highest number that has arrived, −1 before any. */
  highest: number;
}

/**
 * The destination of SRP's in-order variant (line 82): the source sends a second copy of each
 * speculative packet still outstanding at t_s, so the copy that arrives second is discarded
 * (by its number in the flow, `srp.psn`). Counts the packets discarded and those that arrived
 * after one numbered higher in their flow (out of order).
 */
export class SrpInOrderReceiver extends SrpReceiver {
  private readonly flows = new Map<number, FlowArrivals>();
  private duplicates = 0;
  private outOfOrder = 0;

  discard(packet: PacketId): boolean {
    const numbered = this.psn!.values[packet]!;
    if (numbered === 0) return false; // not from an SRP source
    const psn = numbered - 1;
    const flowId = this.context.packets.flowId[packet]!;
    let f = this.flows.get(flowId);
    if (f === undefined) {
      f = { below: 0, above: new Set(), highest: -1 };
      this.flows.set(flowId, f);
    }
    if (psn < f.below || f.above.has(psn)) {
      this.duplicates++;
      return true;
    }
    if (psn < f.highest) this.outOfOrder++;
    else f.highest = psn;
    if (psn === f.below) {
      f.below++;
      while (f.above.delete(f.below)) f.below++;
    } else f.above.add(psn);
    return false;
  }

  override counters(): Readonly<Record<string, number>> {
    return {
      ...super.counters(),
      duplicatesDiscarded: this.duplicates,
      arrivedOutOfOrder: this.outOfOrder,
    };
  }
}

/** The receiver part's factory, for a scheme. */
export function receiverPartFactory(p: SrpParams): ReceiverPartFactory {
  return {
    specVersion: p.inOrder ? "^3.2.0" : "^3.1.0",
    name: "srp-destination",
    lanes: SRP_LANES,
    writes: p.inOrder ? [COLUMN.chunk, COLUMN.startPs, COLUMN.psn] : [COLUMN.chunk, COLUMN.startPs],
    reads: p.inOrder ? [COLUMN.chunk, COLUMN.packets, COLUMN.psn] : [COLUMN.chunk, COLUMN.packets],
    create: (context) =>
      p.inOrder ? new SrpInOrderReceiver(context, p) : new SrpReceiver(context, p),
  };
}
