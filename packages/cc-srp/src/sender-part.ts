import {
  type FlowInfo,
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type SenderPart,
  type SenderPartFactory,
} from "@cclab/fabric";
import { COLUMN, RESERVATION_LANE, SPECULATIVE_LANE, SRP_LANES } from "./lanes.js";
import type { SrpParams } from "./params.js";
import { SendQueue } from "./send-queue.js";

const ACK_KIND = NAMED_PACKET_KINDS.indexOf("ack");
const NACK_KIND = NAMED_PACKET_KINDS.indexOf("nack");
const GRANT_KIND = NAMED_PACKET_KINDS.indexOf("grant");
const RESERVATION_KIND = NAMED_PACKET_KINDS.indexOf("reservation");

/**
 * SRP at a source (seed 000_23e1115f082a0339.txt, Section 3 and line 245): a send queue per
 * destination ({@link SendQueue}, the host's queue pairs, served round-robin by the host), the
 * reservations they issue, and the grants, ACKs and NACKs that come back.
 */
export class SrpSender implements SenderPart {
  readonly speculativeVl: number;
  private readonly reservationVl: number;
  readonly chunk;
  private readonly reserved;
  private readonly startPs;
  private readonly dropped;
  /** The in-order variant's packet numbers (`srp.psn`); undefined without it. */
  readonly psn;
  private readonly queues = new Map<number, SendQueue>();
  reservationsSent = 0;
  grantsReceived = 0;
  speculativeSent = 0;
  reservedSent = 0;
  bypassSent = 0;
  acksReceived = 0;
  nacksReceived = 0;
  resent = 0;
  copiesSent = 0;
  copiesCovered = 0;

  constructor(
    readonly context: HostPartContext,
    readonly p: SrpParams,
  ) {
    this.speculativeVl = context.lanes[SPECULATIVE_LANE]!;
    this.reservationVl = context.lanes[RESERVATION_LANE]!;
    const packets = context.packets;
    this.chunk = packets.column(COLUMN.chunk, Int32Array);
    this.reserved = packets.column(COLUMN.packets, Int32Array);
    this.startPs = packets.column(COLUMN.startPs, Float64Array);
    this.dropped = packets.column(COLUMN.dropped, Int32Array);
    this.psn = p.inOrder ? packets.column(COLUMN.psn, Int32Array) : undefined;
  }

  /** The flow's own lane: its SL's data VL (the data VLs come first, one per SL). */
  normalVl(flow: FlowInfo): number {
    return flow.sl;
  }

  openFlow(flow: FlowInfo): SendQueue {
    const queue = new SendQueue(this, flow);
    this.queues.set(flow.flowId, queue);
    return queue;
  }

  onControl(packet: PacketId): void {
    const packets = this.context.packets;
    const kind = packets.kindCode[packet];
    if (kind === RESERVATION_KIND) return; // the receiver part's
    const queue = this.queues.get(packets.flowId[packet]!);
    if (queue === undefined) return;
    if (kind === GRANT_KIND) {
      this.grantsReceived++;
      queue.granted(this.chunk.values[packet]!, this.startPs.values[packet]!);
    } else if (kind === ACK_KIND) {
      this.acksReceived++;
      queue.acked(this.chunk.values[packet]!, (this.psn?.values[packet] ?? 1) - 1);
    } else if (kind === NACK_KIND) {
      this.nacksReceived++;
      queue.nacked(this.dropped.values[packet]!);
    }
  }

  /** Sends the reservation of chunk `seq` of `flow`: `n` packets, on the reservation lane. */
  reserve(flow: FlowInfo, seq: number, n: number): void {
    const { context } = this;
    const packets = context.packets;
    const reservation = packets.alloc();
    packets.kindCode[reservation] = RESERVATION_KIND;
    packets.sizeBytes[reservation] = this.p.controlPacketBytes;
    packets.flowId[reservation] = flow.flowId;
    packets.dstHost[reservation] = flow.dstHost;
    packets.sl[reservation] = flow.sl;
    packets.vl[reservation] = this.reservationVl;
    packets.createdPs[reservation] = context.scheduler.nowPs;
    this.reserved.values[reservation] = n;
    this.chunk.values[reservation] = seq;
    this.reservationsSent++;
    context.sendControl(reservation);
  }

  /** Sends a NACKed packet again, ahead of new data. */
  resend(packet: PacketId): void {
    this.resent++;
    this.context.resend(packet);
  }

  /** In-order variant: sends the copy of an outstanding speculative packet, ahead of new data. */
  sendCopy(packet: PacketId): void {
    this.copiesSent++;
    this.context.resend(packet);
  }

  counters(): Readonly<Record<string, number>> {
    return {
      reservationsSent: this.reservationsSent,
      grantsReceived: this.grantsReceived,
      speculativeSent: this.speculativeSent,
      reservedSent: this.reservedSent,
      bypassSent: this.bypassSent,
      acksReceived: this.acksReceived,
      nacksReceived: this.nacksReceived,
      retransmitted: this.resent,
      ...(this.p.inOrder
        ? { copiesSent: this.copiesSent, nacksCoveredByCopy: this.copiesCovered }
        : {}),
    };
  }

  sampleFlows(visit: (flowId: number, variable: string, value: number) => void): void {
    for (const [flowId, q] of this.queues) {
      visit(flowId, "speculativeBytes", q.speculativeBytes);
      visit(flowId, "reservedBytes", q.reservedBytes);
      visit(flowId, "resentBytes", q.resentBytes);
    }
  }
}

/** The sender part's factory, for a scheme. */
export function senderPartFactory(p: SrpParams): SenderPartFactory {
  return {
    specVersion: p.inOrder ? "^3.2.0" : "^3.1.0",
    name: "srp-source",
    lanes: SRP_LANES,
    writes: p.inOrder ? [COLUMN.chunk, COLUMN.packets, COLUMN.psn] : [COLUMN.chunk, COLUMN.packets],
    reads: p.inOrder
      ? [COLUMN.chunk, COLUMN.startPs, COLUMN.dropped, COLUMN.psn]
      : [COLUMN.chunk, COLUMN.startPs, COLUMN.dropped],
    create: (context) => new SrpSender(context, p),
  };
}
