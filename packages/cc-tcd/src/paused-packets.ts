import type { TimePs } from "@cclab/core-des";
import type { PacketColumn, PacketId, Packets } from "@cclab/fabric";

/**
 * The scheme column (a `Float64Array` by packet id) holding a packet's place in the order of
 * arrivals at the egress queue it waits in: the n-th packet to join that queue gets n. Each
 * switch writes it at enqueue; a packet leaves one switch (its dequeue there) before it joins
 * the next, so one column serves every switch.
 */
export const NP_ECN_SEQ_COLUMN = "tcd.npEcnSeq";

/**
 * Which packets of each egress queue (output port and VL, index `q`) are left from the port's
 * last paused period: NP-ECN's "paused packets" (PCN's non-PAUSE ECN, Cheng et al.,
 * "Re-architecting Congestion Management in Lossless Ethernet", NSDI 2020, as the TCD authors'
 * ns-3 code implements it: Yi-ran/DCQCN-TCD `qbb-net-device.cc`, `pausedPacketsNum` under
 * `EnableNPECN`).
 *
 * The reference sets a counter to the number of packets in the egress queue when the port
 * resumes (`Resume`: `pausedPacketsNum = m_queue->GetNPackets(q)`) and takes one off per packet
 * that starts on the link. Its egress queue is one FIFO per priority, so the counter is zero
 * exactly when every packet queued at the resume has left: packets that arrived while the port
 * was paused, and those already waiting when the pause began. Here the egress queue is spread
 * over the input ports' queues, served round-robin, so a later packet may leave before an older
 * one; counting any departure would let the count reach zero while paused packets still wait.
 * The tracker therefore remembers which packets were queued at the resume (by their arrival
 * number) and counts down only when one of them leaves. In a FIFO both are the same.
 *
 * The resume is the port's `lastOnPs(vl)` (contract 3.0), read lazily as the TCD part reads
 * it: at every enqueue and dequeue of the queue, before the queue changes. The queue changes
 * only at those events, so the packets queued then are those queued at the resume instant.
 * Under credit flow control `lastOnPs` is a restart after a credit starvation (INFERRED: PCN
 * and the reference are PFC only).
 */
export class PausedPackets {
  /** Packets that ever joined each queue (the next arrival number). */
  private readonly joined: Float64Array;
  /** Arrival numbers below this were queued at the last resume. */
  private readonly boundary: Float64Array;
  /** Packets in each queue now. */
  private readonly queued: Float64Array;
  /** Packets queued at the last resume still in each queue. */
  private readonly left: Float64Array;
  /** The last resume seen per queue, ps (−Infinity: never paused). */
  private readonly resumePs: Float64Array;
  private readonly seq: PacketColumn<Float64Array<ArrayBuffer>>;

  constructor(
    queueCount: number,
    packets: Packets,
    /** The port's last OFF→ON time for queue `q`, ps. */
    private readonly lastOnPs: (q: number) => TimePs,
  ) {
    this.joined = new Float64Array(queueCount);
    this.boundary = new Float64Array(queueCount);
    this.queued = new Float64Array(queueCount);
    this.left = new Float64Array(queueCount);
    this.resumePs = new Float64Array(queueCount).fill(Number.NEGATIVE_INFINITY);
    this.seq = packets.column(NP_ECN_SEQ_COLUMN, Float64Array);
  }

  /** `packet` joins queue `q`. */
  enqueue(packet: PacketId, q: number): void {
    this.noteResume(q);
    this.seq.values[packet] = this.joined[q]!;
    this.joined[q]! += 1;
    this.queued[q]! += 1;
  }

  /**
   * `packet` leaves queue `q`. Returns how many packets of the last paused period were still
   * queued as it left, itself included: 0 means none remain, and NP-ECN may mark it (the
   * reference tests `pausedPacketsNum == 0` before it takes the packet off).
   */
  dequeue(packet: PacketId, q: number): number {
    this.noteResume(q);
    const before = this.left[q]!;
    if (before > 0 && this.seq.values[packet]! < this.boundary[q]!) this.left[q] = before - 1;
    this.queued[q]! -= 1;
    return before;
  }

  /** Packets of the last paused period still in queue `q`. */
  pausedLeft(q: number): number {
    return this.left[q]!;
  }

  // A resume since the last event: every packet queued now is a paused-period packet.
  private noteResume(q: number): void {
    const on = this.lastOnPs(q);
    if (on === this.resumePs[q]) return;
    this.resumePs[q] = on;
    this.boundary[q] = this.joined[q]!;
    this.left[q] = this.queued[q]!;
  }
}
