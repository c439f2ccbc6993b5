import { resized, type Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import {
  canSendAt,
  consumeAt,
  creditBlocks,
  emptyFlowStateColumns,
  type FlowControlDiscipline,
  type FlowStateColumns,
  markBlockedAt,
  markUnblockedAt,
  PAUSE_FRAME_BYTES,
  PortFlowState,
  setPausedAt,
} from "./flow-control.js";
import { NO_PACKET, type PacketId, type Packets } from "./packet.js";

/** The device at the far end of a link: it gets each packet once its header is usable. */
export interface LinkReceiver {
  /**
   * Called when the packet may be acted on: under virtual cut-through once its header has
   * arrived and been routed, otherwise once its tail has arrived (plus any processing delay).
   * `tailArrivalPs` is when its last byte arrives (≤ now unless it is cut through).
   */
  receivePacket(packet: PacketId, port: number, tailArrivalPs: TimePs): void;
}

/** The device at the near end: told when credits or pause state of its port changed. */
export interface LinkSender {
  flowControlChanged(port: number): void;
}

/** How the receiving device wants packets handed over. */
export interface ReceiveTiming {
  /**
   * Bytes the receiver needs before it can act: the header size under virtual cut-through,
   * or `Infinity` to wait for the whole packet (store-and-forward, or a host).
   */
  readonly cutThroughBytes: number;
  /** Added to the arrival: routing and crossbar setup latency, ps. */
  readonly processingPs: TimePs;
}

// Pause-frame values in the reverse channel (credit returns carry their block count, ≥ 0). An
// enum, which bundling writes as literals (see core-des scheduler.ts).
enum Frame {
  Pause = -1,
  Resume = -2,
}

/**
 * One direction of a cable (docs/model.md, "A packet on a link"): a rate, a propagation latency, a sender port and a
 * receiver port, as seen from outside. Its state lives in its {@link LinkSet}'s columns,
 * where devices reach it by link index on the hot path; this object is for wiring, reports
 * and tests.
 */
export class Link {
  /** The sending port's credits / pause state (the link's transmitter). */
  readonly flow: PortFlowState;

  constructor(
    private readonly set: LinkSet,
    /** Position in the fabric's link list; the target of this link's events. */
    readonly index: number,
    readonly rateGbps: number,
    readonly latencyPs: TimePs,
  ) {
    this.flow = set.flowState(index);
  }

  /** Credit blocks on the wire forward, per VL (credit conservation; 0 under PFC). A copy. */
  get blocksInFlight(): Int32Array {
    return this.set.perVl(this.set.blocksInFlight, this.index);
  }

  /** Credit blocks on their way back to the sender, per VL. A copy. */
  get creditsReturning(): Int32Array {
    return this.set.perVl(this.set.creditsReturning, this.index);
  }

  /** Total bytes this link has started to send. */
  get bytesSent(): number {
    return this.set.bytesSent[this.index]!;
  }

  /** Payload bytes this link has started to send. */
  get payloadBytesSent(): number {
    return this.set.payloadBytesSent[this.index]!;
  }

  get packetsSent(): number {
    return this.set.packetsSent[this.index]!;
  }

  /** PFC frames the receiver sent back over this link: pauses (XOFF). */
  get pauseFramesSent(): number {
    return this.set.pauseFramesSent[this.index]!;
  }

  /** PFC frames the receiver sent back over this link: resumes (XON). */
  get resumeFramesSent(): number {
    return this.set.resumeFramesSent[this.index]!;
  }

  /** Wires the two ends. */
  connect(
    sender: LinkSender,
    senderPort: number,
    receiver: LinkReceiver,
    receiverPort: number,
    timing: ReceiveTiming,
  ): void {
    this.set.connect(this.index, sender, senderPort, receiver, receiverPort, timing);
  }

  /** See {@link LinkSet.transmit}. */
  transmit(packet: PacketId, endPs: TimePs): void {
    this.set.transmit(this.index, packet, endPs);
  }

  /** See {@link LinkSet.returnCredits}. */
  returnCredits(vl: number, blocks: number): void {
    this.set.returnCredits(this.index, vl, blocks);
  }

  /** See {@link LinkSet.sendPause}. */
  sendPause(vl: number, paused: boolean): void {
    this.set.sendPause(this.index, vl, paused);
  }
}

/**
 * All links of a fabric on one scheduler, and their state as columns indexed by link (and by
 * `link * vlCount + vl` per VL), with their transmitters' flow state. Every packet-hop
 * touches two links; columns keep what it touches in a few dense arrays, where an object per
 * link (and per port flow state) with arrays of its own cost several cache misses per hop on
 * a large fabric (uniform256: about 40 L2 misses per event, against 0.5 for a model of the
 * same events in flat arrays).
 *
 * A link is a delay line: packets in flight wait in a FIFO and only the head has an event in
 * the scheduler, so the scheduler holds one entry per busy link, not one per packet. The FIFO
 * is chained through columns indexed by packet id: the next packet, that packet's arrival time
 * and this packet's tail time. Delivering the head reads the head's entries only; keeping each
 * packet's own arrival time instead would read it from the next packet, a dependent cache miss
 * per hop on a large fabric. The reverse channel carries the link's flow control (credit
 * returns, pause and resume) back to the sender, also as a delay line: a fabric uses one
 * discipline, so every update on a link has the same delay (latency for credits, pause frame
 * + latency for PFC) and its FIFO stays in time order.
 */
export class LinkSet {
  readonly links: Link[] = [];
  /** The transmitters' flow state, per (link, VL). */
  readonly flow: FlowStateColumns;
  // Per link.
  firstInFlight: Int32Array<ArrayBuffer>;
  lastInFlight: Int32Array<ArrayBuffer>;
  bytesSent: Float64Array<ArrayBuffer>;
  payloadBytesSent: Float64Array<ArrayBuffer>;
  packetsSent: Float64Array<ArrayBuffer>;
  pauseFramesSent: Float64Array<ArrayBuffer>;
  resumeFramesSent: Float64Array<ArrayBuffer>;
  private rateGbps: Float64Array<ArrayBuffer>;
  private latencyPs: Float64Array<ArrayBuffer>;
  private pausePs: Float64Array<ArrayBuffer>;
  /** Bytes the receiver needs before it can act (Infinity: the whole packet). */
  private cutThroughBytes: Float64Array<ArrayBuffer>;
  private processingPs: Float64Array<ArrayBuffer>;
  /** From a packet's start to its header being usable at the receiver (cut-through), ps. */
  private headerDelayPs: Float64Array<ArrayBuffer>;
  // One-entry cache of `serPs` per link: nearly every packet on a link has the same size.
  private lastSerBytes: Float64Array<ArrayBuffer>;
  private lastSerPs: Float64Array<ArrayBuffer>;
  private receiverPort: Int32Array<ArrayBuffer>;
  private senderPort: Int32Array<ArrayBuffer>;
  private readonly receivers: (LinkReceiver | undefined)[] = [];
  private readonly senders: (LinkSender | undefined)[] = [];
  // Per (link, VL).
  /**
   * Credit blocks on the wire forward (part of credit conservation). Kept under credit flow
   * control only: under PFC it stays 0 (two updates per hop that nothing reads).
   */
  blocksInFlight: Int32Array<ArrayBuffer>;
  /** Credit blocks on their way back to the sender. */
  creditsReturning: Int32Array<ArrayBuffer>;
  // The reverse channels: records (due time, VL, value) in a pool shared by all links,
  // chained per link from `backHead` to `backTail` through `backNext`.
  private backHead: Int32Array<ArrayBuffer>;
  private backTail: Int32Array<ArrayBuffer>;
  private backDuePs = new Float64Array(64);
  private backVl = new Int32Array(64);
  private backValue = new Int32Array(64);
  private backNext = new Int32Array(64);
  private backFree: number[] = [];
  private backCount = 0;
  // Packets in flight, by packet id (grown with the largest id sent): the packet sent behind it
  // on the same link (or NO_PACKET), and at `2p` that packet's arrival time (when it may be
  // acted on at the far end), at `2p + 1` this packet's tail time there, ps.
  private flightNext = new Int32Array(1024);
  private flightPs = new Float64Array(2 * 1024);

  private capacity = 0;
  private readonly deliverKind: number;
  private readonly backwardKind: number;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly packets: Packets,
    readonly vlCount: number,
    readonly discipline: FlowControlDiscipline,
  ) {
    if (!Number.isInteger(vlCount) || vlCount < 1) {
      throw new RangeError(`vlCount must be an integer ≥ 1, got ${vlCount}`);
    }
    this.flow = emptyFlowStateColumns();
    this.firstInFlight = new Int32Array(0);
    this.lastInFlight = new Int32Array(0);
    this.bytesSent = new Float64Array(0);
    this.payloadBytesSent = new Float64Array(0);
    this.packetsSent = new Float64Array(0);
    this.pauseFramesSent = new Float64Array(0);
    this.resumeFramesSent = new Float64Array(0);
    this.rateGbps = new Float64Array(0);
    this.latencyPs = new Float64Array(0);
    this.pausePs = new Float64Array(0);
    this.cutThroughBytes = new Float64Array(0);
    this.processingPs = new Float64Array(0);
    this.headerDelayPs = new Float64Array(0);
    this.lastSerBytes = new Float64Array(0);
    this.lastSerPs = new Float64Array(0);
    this.receiverPort = new Int32Array(0);
    this.senderPort = new Int32Array(0);
    this.blocksInFlight = new Int32Array(0);
    this.creditsReturning = new Int32Array(0);
    this.backHead = new Int32Array(0);
    this.backTail = new Int32Array(0);
    this.grow(16);
    this.deliverKind = scheduler.defineKind("link: packet arrives", (l) => this.deliverHead(l));
    this.backwardKind = scheduler.defineKind("link: flow control arrives", (l) =>
      this.deliverBackward(l),
    );
  }

  /** Adds a link; it carries nothing until {@link connect}ed. */
  add(rateGbps: number, latencyPs: TimePs): Link {
    const l = this.links.length;
    if (l === this.capacity) this.grow(this.capacity * 2);
    this.rateGbps[l] = rateGbps;
    this.latencyPs[l] = latencyPs;
    this.pausePs[l] = serializationPs(PAUSE_FRAME_BYTES, rateGbps);
    this.cutThroughBytes[l] = Number.POSITIVE_INFINITY;
    const link = new Link(this, l, rateGbps, latencyPs);
    this.links.push(link);
    this.receivers.push(undefined);
    this.senders.push(undefined);
    return link;
  }

  /** Wires the two ends of link `l`. */
  connect(
    l: number,
    sender: LinkSender,
    senderPort: number,
    receiver: LinkReceiver,
    receiverPort: number,
    timing: ReceiveTiming,
  ): void {
    this.senders[l] = sender;
    this.senderPort[l] = senderPort;
    this.receivers[l] = receiver;
    this.receiverPort[l] = receiverPort;
    this.cutThroughBytes[l] = timing.cutThroughBytes;
    this.processingPs[l] = timing.processingPs;
    this.headerDelayPs[l] =
      timing.cutThroughBytes === Number.POSITIVE_INFINITY
        ? 0
        : this.latencyPs[l]! + this.serPs(l, timing.cutThroughBytes) + timing.processingPs;
  }

  /** A view of link `l`'s transmitter flow state. */
  flowState(l: number): PortFlowState {
    return PortFlowState.view(this.discipline, this.flow, l * this.vlCount, this.vlCount);
  }

  /** Serialization time of `bytes` on link `l`. */
  serPs(l: number, bytes: number): TimePs {
    if (bytes === this.lastSerBytes[l]) return this.lastSerPs[l]!;
    const ps = serializationPs(bytes, this.rateGbps[l]!);
    this.lastSerBytes[l] = bytes;
    this.lastSerPs[l] = ps;
    return ps;
  }

  // --- the transmitters' flow control, by link and VL (docs/model.md, "Flow control") ------------

  /** True if a packet of `sizeBytes` may start on `vl` of link `l` now. */
  canSend(l: number, vl: number, sizeBytes: number): boolean {
    return canSendAt(this.discipline, this.flow, l * this.vlCount + vl, sizeBytes);
  }

  /** Takes the credits for a packet that starts now on `vl` of link `l` (no-op under PFC). */
  consume(l: number, vl: number, sizeBytes: number): void {
    consumeAt(this.discipline, this.flow, l * this.vlCount + vl, sizeBytes);
  }

  /** Marks `vl` of link `l` blocked from `nowPs` (a packet is ready but flow control holds it). */
  markBlocked(l: number, vl: number, nowPs: TimePs): void {
    markBlockedAt(this.flow, l * this.vlCount + vl, nowPs);
  }

  /** Ends a blocked period of `vl` of link `l` at `nowPs`, if one is open. */
  markUnblocked(l: number, vl: number, nowPs: TimePs): void {
    markUnblockedAt(this.flow, l * this.vlCount + vl, nowPs);
  }

  // --- packets ------------------------------------------------------------------------------

  /**
   * Puts a packet on link `l` now. `endPs` is when its last byte leaves the sender, which is
   * later than `now + ser(size)` when the packet is cut through from a slower or later input
   * (docs/model.md, "Through a switch": it cannot finish leaving before its tail has arrived). Credits must already
   * have been consumed by the sender.
   */
  transmit(l: number, packet: PacketId, endPs: TimePs): void {
    const packets = this.packets;
    const now = this.scheduler.nowPs;
    const tail = endPs + this.latencyPs[l]!;
    const size = packets.sizeBytes[packet]!;
    const arrival =
      size > this.cutThroughBytes[l]! ? now + this.headerDelayPs[l]! : tail + this.processingPs[l]!;
    if (this.discipline === "credit")
      this.blocksInFlight[l * this.vlCount + packets.vl[packet]!]! += creditBlocks(size);
    this.bytesSent[l]! += size;
    this.payloadBytesSent[l]! += packets.payloadBytes[packet]!;
    this.packetsSent[l]!++;
    if (packet >= this.flightNext.length) this.growFlight(packet);
    this.flightNext[packet] = NO_PACKET;
    this.flightPs[2 * packet + 1] = tail;
    const last = this.lastInFlight[l]!;
    this.lastInFlight[l] = packet;
    if (last === NO_PACKET) {
      this.firstInFlight[l] = packet;
      this.scheduler.schedule(arrival, this.deliverKind, l);
    } else {
      this.flightNext[last] = packet;
      this.flightPs[2 * last] = arrival;
    }
  }

  /** Event handler: the head packet of link `l` has arrived. */
  private deliverHead(l: number): void {
    const packet = this.firstInFlight[l]!;
    if (this.discipline === "credit") {
      const packets = this.packets;
      this.blocksInFlight[l * this.vlCount + packets.vl[packet]!]! -= creditBlocks(
        packets.sizeBytes[packet]!,
      );
    }
    const next = this.flightNext[packet]!;
    this.firstInFlight[l] = next;
    if (next === NO_PACKET) this.lastInFlight[l] = NO_PACKET;
    else this.scheduler.schedule(this.flightPs[2 * packet]!, this.deliverKind, l);
    this.receivers[l]!.receivePacket(packet, this.receiverPort[l]!, this.flightPs[2 * packet + 1]!);
  }

  // --- the reverse channel ------------------------------------------------------------------

  /** The receiver of link `l` freed `blocks` of `vl`: they reach the sender one latency later. */
  returnCredits(l: number, vl: number, blocks: number): void {
    this.creditsReturning[l * this.vlCount + vl]! += blocks;
    this.pushBackward(l, this.scheduler.nowPs + this.latencyPs[l]!, vl, blocks);
  }

  /**
   * The receiver of link `l` pauses (`paused` true) or resumes priority `vl`. The frame is
   * sent at once, ahead of any data, and acts at the sender after its serialization and one
   * latency. Its 64 bytes are not charged to the reverse link's data bandwidth.
   */
  sendPause(l: number, vl: number, paused: boolean): void {
    if (paused) this.pauseFramesSent[l]!++;
    else this.resumeFramesSent[l]!++;
    this.pushBackward(
      l,
      this.scheduler.nowPs + this.pausePs[l]! + this.latencyPs[l]!,
      vl,
      paused ? Frame.Pause : Frame.Resume,
    );
  }

  // Event handler: flow-control updates of link `l` due now have reached its sender.
  private deliverBackward(l: number): void {
    const now = this.scheduler.nowPs;
    const flow = this.flow;
    const base = l * this.vlCount;
    let r = this.backHead[l]!;
    while (r !== -1 && this.backDuePs[r]! <= now) {
      const vl = this.backVl[r]!;
      const value = this.backValue[r]!;
      if (value >= 0) {
        this.creditsReturning[base + vl]! -= value;
        flow.credits[base + vl]! += value;
      } else {
        setPausedAt(flow, base + vl, value === Frame.Pause ? 1 : 0, now);
      }
      const next = this.backNext[r]!;
      this.backFree.push(r);
      r = next;
    }
    this.backHead[l] = r;
    if (r !== -1) this.scheduler.schedule(this.backDuePs[r]!, this.backwardKind, l);
    this.senders[l]!.flowControlChanged(this.senderPort[l]!);
  }

  private pushBackward(l: number, dueTimePs: TimePs, vl: number, value: number): void {
    let r: number;
    if (this.backFree.length !== 0) r = this.backFree.pop()!;
    else {
      if (this.backCount === this.backDuePs.length) this.growBackward();
      r = this.backCount++;
    }
    this.backDuePs[r] = dueTimePs;
    this.backVl[r] = vl;
    this.backValue[r] = value;
    this.backNext[r] = -1;
    if (this.backHead[l] === -1) {
      this.backHead[l] = r;
      this.scheduler.schedule(dueTimePs, this.backwardKind, l);
    } else {
      this.backNext[this.backTail[l]!] = r;
    }
    this.backTail[l] = r;
  }

  /** A copy of link `l`'s entries of a per-VL column. */
  perVl(column: Int32Array, l: number): Int32Array {
    return column.slice(l * this.vlCount, (l + 1) * this.vlCount);
  }

  private grow(capacity: number): void {
    const v = this.vlCount;
    const flow = this.flow as {
      -readonly [K in keyof FlowStateColumns]: FlowStateColumns[K];
    };
    flow.credits = resized(flow.credits, capacity * v);
    flow.paused = resized(flow.paused, capacity * v);
    flow.blockedSincePs = resized(flow.blockedSincePs, capacity * v, -1);
    flow.blockedPs = resized(flow.blockedPs, capacity * v);
    flow.offTransitions = resized(flow.offTransitions, capacity * v);
    flow.unblockedPs = resized(flow.unblockedPs, capacity * v, Number.NEGATIVE_INFINITY);
    flow.pauses = resized(flow.pauses, capacity * v);
    flow.resumedPs = resized(flow.resumedPs, capacity * v, Number.NEGATIVE_INFINITY);
    this.firstInFlight = resized(this.firstInFlight, capacity, NO_PACKET);
    this.lastInFlight = resized(this.lastInFlight, capacity, NO_PACKET);
    this.bytesSent = resized(this.bytesSent, capacity);
    this.payloadBytesSent = resized(this.payloadBytesSent, capacity);
    this.packetsSent = resized(this.packetsSent, capacity);
    this.pauseFramesSent = resized(this.pauseFramesSent, capacity);
    this.resumeFramesSent = resized(this.resumeFramesSent, capacity);
    this.rateGbps = resized(this.rateGbps, capacity);
    this.latencyPs = resized(this.latencyPs, capacity);
    this.pausePs = resized(this.pausePs, capacity);
    this.cutThroughBytes = resized(this.cutThroughBytes, capacity);
    this.processingPs = resized(this.processingPs, capacity);
    this.headerDelayPs = resized(this.headerDelayPs, capacity);
    this.lastSerBytes = resized(this.lastSerBytes, capacity, -1);
    this.lastSerPs = resized(this.lastSerPs, capacity);
    this.receiverPort = resized(this.receiverPort, capacity);
    this.senderPort = resized(this.senderPort, capacity);
    this.blocksInFlight = resized(this.blocksInFlight, capacity * v);
    this.creditsReturning = resized(this.creditsReturning, capacity * v);
    this.backHead = resized(this.backHead, capacity, -1);
    this.backTail = resized(this.backTail, capacity, -1);
    this.capacity = capacity;
  }

  private growFlight(packet: number): void {
    let n = this.flightNext.length * 2;
    while (n <= packet) n *= 2;
    this.flightNext = resized(this.flightNext, n);
    this.flightPs = resized(this.flightPs, 2 * n);
  }

  private growBackward(): void {
    const n = this.backDuePs.length * 2;
    this.backDuePs = resized(this.backDuePs, n);
    this.backVl = resized(this.backVl, n);
    this.backValue = resized(this.backValue, n);
    this.backNext = resized(this.backNext, n);
  }
}
