import { type Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import { creditBlocks, PAUSE_FRAME_BYTES, type PortFlowState } from "./flow-control.js";
import { NO_PACKET, type PacketId, type Packets } from "./packet.js";
import { RecordRing } from "./record-ring.js";

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

/**
 * One direction of a cable (MODEL.md): a rate, a propagation latency, a sender port and a
 * receiver port. It is a delay line: packets in flight wait in a FIFO and only the head has an
 * event in the scheduler, so the heap holds one entry per busy link, not one per packet. The
 * reverse channel carries this link's flow control (credit returns, pause and resume) back to
 * the sender, also as a delay line.
 */
export class Link {
  /**
   * Packets on the wire, in sending order, chained through `Packets.next`; each packet's
   * arrival and tail times at the receiver are in `Packets.arrivalPs` and `tailPs`.
   */
  private firstInFlight: PacketId = NO_PACKET;
  private lastInFlight: PacketId = NO_PACKET;
  /**
   * Flow-control updates on their way back: (dueTimePs, vl, value). A fabric uses one
   * discipline, so every update on a link has the same delay (latency for credits, pause
   * frame + latency for PFC) and the FIFO stays in time order.
   */
  private readonly backward = new RecordRing(3, 16);
  /** Credit blocks on the wire forward, per VL (part of credit conservation). */
  readonly blocksInFlight: Int32Array;
  /** Credit blocks on their way back to the sender, per VL. */
  readonly creditsReturning: Int32Array;
  /** Payload and total bytes this link has started to send. */
  bytesSent = 0;
  payloadBytesSent = 0;
  packetsSent = 0;
  /** PFC frames the receiver sent back over this link: pauses (XOFF) and resumes (XON). */
  pauseFramesSent = 0;
  resumeFramesSent = 0;
  private readonly pausePs: TimePs;
  private receiver: LinkReceiver | undefined;
  private receiverPort = 0;
  private sender: LinkSender | undefined;
  private senderPort = 0;
  private senderState: PortFlowState | undefined;
  private timing: ReceiveTiming = { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs: 0 };
  /** From a packet's start to its header being usable at the receiver (cut-through), ps. */
  private headerDelayPs = 0;
  // One-entry cache of `serPs`: nearly every packet on a link has the same size.
  private lastSerBytes = -1;
  private lastSerPs: TimePs = 0;

  constructor(
    /** Position in the fabric's link list; the target of this link's events. */
    readonly index: number,
    readonly rateGbps: number,
    readonly latencyPs: TimePs,
    vlCount: number,
    private readonly scheduler: Scheduler,
    private readonly packets: Packets,
    private readonly deliverKind: number,
    private readonly backwardKind: number,
  ) {
    this.blocksInFlight = new Int32Array(vlCount);
    this.creditsReturning = new Int32Array(vlCount);
    this.pausePs = serializationPs(PAUSE_FRAME_BYTES, rateGbps);
  }

  /** Wires the two ends. `senderState` is the sending port's credits / pause state. */
  connect(
    sender: LinkSender,
    senderPort: number,
    senderState: PortFlowState,
    receiver: LinkReceiver,
    receiverPort: number,
    timing: ReceiveTiming,
  ): void {
    this.sender = sender;
    this.senderPort = senderPort;
    this.senderState = senderState;
    this.receiver = receiver;
    this.receiverPort = receiverPort;
    this.timing = timing;
    this.headerDelayPs =
      timing.cutThroughBytes === Number.POSITIVE_INFINITY
        ? 0
        : this.latencyPs + this.serPs(timing.cutThroughBytes) + timing.processingPs;
  }

  /** Serialization time of `bytes` on this link. */
  serPs(bytes: number): TimePs {
    if (bytes === this.lastSerBytes) return this.lastSerPs;
    const ps = serializationPs(bytes, this.rateGbps);
    this.lastSerBytes = bytes;
    this.lastSerPs = ps;
    return ps;
  }

  /**
   * Puts a packet on the wire now. `endPs` is when its last byte leaves the sender, which is
   * later than `now + ser(size)` when the packet is cut through from a slower or later input
   * (MODEL.md: it cannot finish leaving before its tail has arrived). Credits must already
   * have been consumed by the sender.
   */
  transmit(packet: PacketId, endPs: TimePs): void {
    const packets = this.packets;
    const now = this.scheduler.nowPs;
    const tail = endPs + this.latencyPs;
    const timing = this.timing;
    const size = packets.sizeBytes[packet]!;
    const arrival =
      size > timing.cutThroughBytes ? now + this.headerDelayPs : tail + timing.processingPs;
    packets.arrivalPs[packet] = arrival;
    packets.tailPs[packet] = tail;
    this.blocksInFlight[packets.vl[packet]!]! += creditBlocks(size);
    this.bytesSent += size;
    this.payloadBytesSent += packets.payloadBytes[packet]!;
    this.packetsSent++;
    packets.next[packet] = NO_PACKET;
    const last = this.lastInFlight;
    this.lastInFlight = packet;
    if (last === NO_PACKET) {
      this.firstInFlight = packet;
      this.scheduler.schedule(arrival, this.deliverKind, this.index);
    } else {
      packets.next[last] = packet;
    }
  }

  /** The receiver freed `blocks` of `vl`: they reach the sender one latency later. */
  returnCredits(vl: number, blocks: number): void {
    this.creditsReturning[vl]! += blocks;
    this.pushBackward(this.scheduler.nowPs + this.latencyPs, vl, blocks);
  }

  /**
   * The receiver pauses (`paused` true) or resumes priority `vl`. The frame is sent at once,
   * ahead of any data, and acts at the sender after its serialization and one latency. Its
   * 64 bytes are not charged to the reverse link's data bandwidth.
   */
  sendPause(vl: number, paused: boolean): void {
    if (paused) this.pauseFramesSent++;
    else this.resumeFramesSent++;
    this.pushBackward(this.scheduler.nowPs + this.pausePs + this.latencyPs, vl, paused ? -1 : -2);
  }

  /** Event handler: the head packet has arrived. */
  deliverHead(): void {
    const packets = this.packets;
    const packet = this.firstInFlight;
    this.blocksInFlight[packets.vl[packet]!]! -= creditBlocks(packets.sizeBytes[packet]!);
    const next = packets.next[packet]!;
    this.firstInFlight = next;
    if (next === NO_PACKET) {
      this.lastInFlight = NO_PACKET;
    } else {
      packets.next[packet] = NO_PACKET;
      this.scheduler.schedule(packets.arrivalPs[next]!, this.deliverKind, this.index);
    }
    this.receiver!.receivePacket(packet, this.receiverPort, packets.tailPs[packet]!);
  }

  /** Event handler: flow-control updates due now have reached the sender. */
  deliverBackward(): void {
    const now = this.scheduler.nowPs;
    const queue = this.backward;
    const state = this.senderState!;
    const data = queue.data;
    while (queue.length !== 0 && data[queue.headIndex()]! <= now) {
      const at = queue.headIndex();
      const vl = data[at + 1]!;
      const value = data[at + 2]!;
      queue.shift();
      if (value >= 0) {
        this.creditsReturning[vl]! -= value;
        state.credits[vl]! += value;
      } else {
        state.paused[vl] = value === -1 ? 1 : 0;
      }
    }
    if (queue.length !== 0) {
      this.scheduler.schedule(data[queue.headIndex()]!, this.backwardKind, this.index);
    }
    this.sender!.flowControlChanged(this.senderPort);
  }

  private pushBackward(dueTimePs: TimePs, vl: number, value: number): void {
    const queue = this.backward;
    const wasEmpty = queue.length === 0;
    const at = queue.pushIndex();
    queue.data[at] = dueTimePs;
    queue.data[at + 1] = vl;
    queue.data[at + 2] = value;
    if (wasEmpty) this.scheduler.schedule(dueTimePs, this.backwardKind, this.index);
  }
}

/**
 * All links of a fabric on one scheduler: registers the two link event kinds once and
 * dispatches them by link index.
 */
export class LinkSet {
  readonly links: Link[] = [];
  private readonly deliverKind: number;
  private readonly backwardKind: number;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly packets: Packets,
  ) {
    const links = this.links;
    this.deliverKind = scheduler.defineKind("link: packet arrives", (i) => links[i]!.deliverHead());
    this.backwardKind = scheduler.defineKind("link: flow control arrives", (i) =>
      links[i]!.deliverBackward(),
    );
  }

  add(rateGbps: number, latencyPs: TimePs, vlCount: number): Link {
    const link = new Link(
      this.links.length,
      rateGbps,
      latencyPs,
      vlCount,
      this.scheduler,
      this.packets,
      this.deliverKind,
      this.backwardKind,
    );
    this.links.push(link);
    return link;
  }
}
