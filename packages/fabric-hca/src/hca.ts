import { Histogram, type Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import {
  creditBlocks,
  DATA_KIND,
  Fifo,
  type FlowControlDiscipline,
  type FlowGate,
  IntFifo,
  type Link,
  type LinkReceiver,
  type LinkSender,
  type LinkSet,
  NO_PACKET,
  type PacketId,
  type Packets,
  type PortFlowState,
  type PortView,
  type ReceiverPart,
  type ReceiveTiming,
  type SenderPart,
} from "@cclab/fabric";
import type { HcaConfig } from "./hca-config.js";
import { ParkedHeap } from "./parked-heap.js";
import { Rotation } from "./rotation.js";

// What a send decision makes of one queue pair (`Hca.consider`). An enum, which bundling writes
// as literals, where module `const`s become `var`s that V8 loads at every use (see core-des
// scheduler.ts).
enum Verdict {
  Send = 0,
  Skip = 1,
  Park = 2,
}

// The fields of a VL's record in `Hca.perVl`.
enum PerVl {
  /** The smallest packet size the uplink refused in the current send decision. */
  RefusedBytes = 0,
  /** The uplink's credits and pause state at the last send decision that found nothing. */
  RefusedCredits = 1,
  RefusedPaused = 2,
  /** Queue pairs in the rotation, and those of them whose next packet is short. */
  RotationCount = 3,
  RotationShort = 4,
  // The receive side, on a line of its own (the send side fills the first eight).
  /** Bytes in the receive buffer. */
  ReceiveBytes = 8,
  /** The most bytes the receive buffer ever held (published in `Hca.maxReceiveBytes`). */
  MaxReceiveBytes = 9,
  /** Credit blocks held by the receive buffer (kept under credit flow control only). */
  ReceiveBlocks = 10,
  /** 1 while this host has paused its upstream (PFC). */
  PausedUpstream = 11,
  Stride = 16,
}

// The fields of a sending queue pair's record in `Hca.fromSource`.
enum Source {
  Delivered = 0,
  Message = 1,
  Bytes = 2,
  Stride = 3,
}

// Pages of `Hca.fromSource`: 256 sending queue pairs each.
enum SourcePage {
  Bits = 8,
  Mask = 255,
  Length = 256,
}

/** A message handed to a host: `bytes` of payload for `dstHost`, arriving at `startPs`. */
export interface Message {
  readonly dstHost: number;
  readonly bytes: number;
  readonly startPs: TimePs;
  /** Service level (InfiniBand) or priority (PFC); default 0. */
  readonly sl?: number;
}

/** A message fully delivered: what message completion time (MCT/FCT) is computed from. */
export interface MessageCompletion {
  readonly messageId: number;
  readonly flowId: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly bytes: number;
  readonly createdPs: TimePs;
  readonly completedPs: TimePs;
}

/**
 * Called for every packet a host consumes (after its receive service), data and control. The
 * packet may be read during the call only: it is freed, and its id reused, once the listeners
 * and the host's CC parts have seen it.
 */
export type DeliveryListener = (packet: PacketId, nowPs: TimePs) => void;

/** Everything a host needs from the network that builds it. */
export interface HcaSetup {
  readonly index: number;
  readonly name: string;
  readonly hostCount: number;
  readonly vlCount: number;
  readonly config: HcaConfig;
  readonly discipline: FlowControlDiscipline;
  /** PFC thresholds of the receive buffer (PFC only). */
  readonly pfc?: { readonly xoffBytes: number; readonly xonBytes: number };
  readonly scheduler: Scheduler;
  /** Event kinds registered by {@link registerHcaEvents}. */
  readonly kinds: HcaKinds;
  /** Assigns message ids unique in the network. */
  readonly nextMessageId: () => number;
  /** The network's packets: data packets are made here and freed once consumed. */
  readonly packets: Packets;
  /** The network's links (the host sends on its uplink and returns flow control on its downlink). */
  readonly links: LinkSet;
  /**
   * Whether the host keeps its own latency histograms (`totalLatencyPs`, `networkLatencyPs`).
   * Default true; a runner that keeps its own (with a warm-up) turns them off: two histogram
   * updates less per delivered packet.
   */
  readonly latencyStats?: boolean;
  /**
   * Whether the host keeps every completed message in `completions`. Default true; a runner
   * that takes them as they happen ({@link Hca.onMessageComplete}) turns it off, so a long run
   * does not hold one record per message.
   */
  readonly keepCompletions?: boolean;
}

export interface HcaKinds {
  readonly messageArrives: number;
  readonly txEnds: number;
  readonly wake: number;
  readonly rxEnds: number;
}

/** One queue pair: the messages from this host to one destination at one SL. */
class QueuePair {
  readonly messages = new Fifo<{ id: number; bytes: number; createdPs: TimePs }>(4);
  /**
   * The head message's id, payload bytes and arrival, copied from it whenever the head changes
   * ({@link headChanged}): following the queue to the message object cost two or three cache
   * misses per queue pair on a large fabric (648-node silent forest, oldest-first: 14 % of the
   * run in the send decision). The rotation keeps a further copy of id and arrival.
   */
  headId = -1;
  headBytes = 0;
  headCreatedPs: TimePs = 0;
  /** Payload bytes of the head message already packetised. */
  sentOfHead = 0;
  queuedBytes = 0;
  /** Payload bytes packetised and started so far. */
  injectedBytes = 0;
  /** True while it has data: in the rotation, or parked until its gate allows it. */
  active = false;
  /** True when its next packet is shorter than a full one (the end of a message). */
  shortHead = false;
  gate: FlowGate | undefined = undefined;

  constructor(
    readonly flowId: number,
    readonly dstHost: number,
    readonly sl: number,
    /** The VL its packets use. */
    readonly vl: number,
  ) {}

  /** Copies the head message's fields (after a message joined an empty queue, or left it). */
  headChanged(): void {
    const head = this.messages.peek();
    if (head === undefined) return;
    this.headId = head.id;
    this.headBytes = head.bytes;
    this.headCreatedPs = head.createdPs;
  }
}

/**
 * A host channel adapter (MODEL.md, "Hosts"): messages enter per-destination send queues
 * (queue pairs), are cut into packets of at most `mtuBytes` payload, and are injected
 * round-robin over the queue pairs that have data, are allowed by their CC gate and have
 * credits (or are not paused) on the uplink; `injectionCapGbps` spaces packet starts.
 * Control packets go first. Received packets are consumed at `receiveRateGbps`.
 */
export class Hca implements LinkReceiver, LinkSender {
  readonly index: number;
  readonly name: string;
  /** The uplink transmitter's credits / pause state (after {@link attach}). */
  uplinkFlow!: PortFlowState;
  /**
   * Per VL: the most bytes the receive buffer ever held. Written when the maximum grows (the
   * running figure is in the per-VL record); an invariant check or a test may read it any time.
   */
  readonly maxReceiveBytes: Float64Array;
  /** Completed messages, in completion order (only with `keepCompletions`, the default). */
  readonly completions: MessageCompletion[] = [];
  /** Messages received completely so far. */
  messagesCompleted = 0;
  /**
   * Per sending queue pair `k = srcHost * vlCount + sl` (the flow's id less the destination,
   * which is this host), in page `k >> SourcePage.Bits` at `(k & SourcePage.Mask) *
   * Source.Stride + field`: the payload bytes delivered to this host, the message the queue
   * pair is delivering and its bytes received so far. Messages of a queue pair arrive one after
   * the other unless routing reorders them, in which case the others wait in `partial`. One
   * record, not a map keyed by flow id or three arrays, because every packet received updates
   * it: a host sees each source rarely (uniform256: 256 sources), so each array cost a cache
   * miss per packet.
   *
   * A page is made when one of its queue pairs first delivers: one array for every possible
   * source made the hosts' records grow with the square of the hosts, whether they sent or
   * not (a 4096-host fabric: 400 MB and 1.3 s to build).
   */
  private readonly fromSource: (Float64Array | undefined)[];
  packetsSent = 0;
  /** Data packets sent again after a drop a CC scheme reported. */
  packetsResent = 0;
  packetsReceived = 0;
  /** MODEL.md: total packet latency, delivery − message arrival at the send queue, ps. */
  readonly totalLatencyPs = new Histogram();
  /** MODEL.md: in-network packet latency, delivery − start of the packet's injection, ps. */
  readonly networkLatencyPs = new Histogram();

  private readonly config: HcaConfig;
  private readonly hostCount: number;
  private readonly vlCount: number;
  private readonly discipline: FlowControlDiscipline;
  private readonly pfc: { readonly xoffBytes: number; readonly xonBytes: number } | undefined;
  private readonly scheduler: Scheduler;
  private readonly kinds: HcaKinds;
  private readonly nextMessageId: () => number;
  private readonly packets: Packets;
  private readonly latencyStats: boolean;
  /** `injectionOrder` is `oldest-first` (else round-robin). */
  private readonly oldestFirst: boolean;
  private readonly keepCompletions: boolean;
  private completionListener: ((completion: MessageCompletion) => void) | undefined = undefined;
  private uplink: Link | undefined = undefined;
  /** Indices of the uplink and the downlink in `links` (−1 before {@link attach}). */
  private up = -1;
  private down = -1;
  private readonly links: LinkSet;
  private readonly queuePairs = new Map<number, QueuePair>();
  /**
   * The queue pair a message last went to: a sender's messages mostly go to the destination of
   * the one before (a forest's tree contributors send only to their hotspot), and the Map lookup
   * it saves missed the cache on a large fabric.
   */
  private lastQueuePair: QueuePair | undefined = undefined;
  /**
   * Queue pairs with data whose gate allowed them when last asked (or that an oldest-first
   * decision did not ask, see `gatesUnasked`), in round-robin order.
   */
  private readonly active = new Rotation<QueuePair>(8);
  /**
   * Queue pairs with data held by their gate, until the time it gave. They rejoin the back of
   * the rotation when their time comes, so a send decision looks at the queue pairs that may
   * send, not at every throttled one (a host of a 648-node fabric has hundreds of queue pairs).
   */
  private readonly parked = new ParkedHeap<QueuePair>(8);
  /**
   * When the first parked queue pair may go (+Infinity when none is parked), kept by `park` and
   * `unparkFirst`, the only ways in and out of `parked`. Every send decision compares it with
   * the clock: reading it from the heap's first queue pair took 1.6 % of the 648-node silent
   * forest's first 60 ms (CPU profile; two dependent cache misses), from the heap's arrays about
   * half that.
   */
  private parkedFirstPs: TimePs = Number.POSITIVE_INFINITY;
  /**
   * Per VL, one record at `vl * PerVl.Stride` (see PerVl): the send decision's state and
   * whether the upstream is paused. One array, not one per field: a host is visited rarely
   * (uniform256: 256 hosts), so each small array cost its own cache misses per packet.
   */
  private readonly perVl: Float64Array;
  /**
   * A send decision that found nothing to send is not repeated while nothing it depended on
   * has changed: the queue pairs in the rotation and their heads (`rotationVersion`) and the
   * uplink's room, which may only have shrunk (credits no more, pauses no fewer). Without this
   * every credit return to a blocked host scanned all its queue pairs.
   */
  private rotationVersion = 0;
  private refusedVersion = -1;
  /**
   * True when an oldest-first decision sent without asking the other queue pairs' gates: some
   * in the rotation may be held by their gate, which a full scan would have parked. The rotation
   * counts per VL then overstate what waits for room on the uplink (see `noRoomForAny`).
   */
  private gatesUnasked = false;
  private readonly control = new IntFifo(4);
  private readonly resends = new IntFifo(4);
  private readonly arrivals: { message: Message; id: number }[] = [];
  private arrivalCursor = 0;
  private arrivalsSorted = true;
  private arrivalScheduledPs = Number.POSITIVE_INFINITY;
  private transmitting = false;
  private nextStartPs: TimePs = 0;
  private wakeAtPs = Number.POSITIVE_INFINITY;
  private readonly rxQueue = new IntFifo(8);
  private receiving = false;
  /** Bytes received per message id of messages not current in `fromSource`, until they complete. */
  private readonly partial = new Map<number, number>();
  private senderPart: SenderPart | undefined = undefined;
  private receiverPart: ReceiverPart | undefined = undefined;
  private listener: DeliveryListener | undefined = undefined;
  private injectedListener: ((messageId: number) => void) | undefined = undefined;

  constructor(setup: HcaSetup) {
    this.index = setup.index;
    this.name = setup.name;
    this.hostCount = setup.hostCount;
    this.vlCount = setup.vlCount;
    this.config = setup.config;
    this.discipline = setup.discipline;
    this.pfc = setup.pfc;
    this.scheduler = setup.scheduler;
    this.kinds = setup.kinds;
    this.nextMessageId = setup.nextMessageId;
    this.packets = setup.packets;
    this.latencyStats = setup.latencyStats ?? true;
    this.oldestFirst = this.config.injectionOrder === "oldest-first";
    this.keepCompletions = setup.keepCompletions ?? true;
    this.fromSource = Array.from(
      { length: Math.ceil((setup.hostCount * setup.vlCount) / SourcePage.Length) },
      () => undefined,
    );
    this.maxReceiveBytes = new Float64Array(setup.vlCount);
    this.perVl = new Float64Array(setup.vlCount * PerVl.Stride);
    this.links = setup.links;
  }

  /** Rate of the host's uplink, Gb/s (after {@link attach}). */
  uplinkRateGbps(): number {
    return this.uplink!.rateGbps;
  }

  /** The CC parts this host runs, for reading their counters and samples. */
  get parts(): { readonly sender?: SenderPart; readonly receiver?: ReceiverPart } {
    return {
      ...(this.senderPart === undefined ? {} : { sender: this.senderPart }),
      ...(this.receiverPart === undefined ? {} : { receiver: this.receiverPart }),
    };
  }

  attach(uplink: Link, downlink: Link): void {
    this.uplink = uplink;
    this.up = uplink.index;
    this.down = downlink.index;
    this.uplinkFlow = uplink.flow;
  }

  /** Credit blocks the host's receive buffer offers per VL. */
  inputCreditBlocks(): number {
    return Math.floor(this.config.receiveBufferBytes / 64);
  }

  receiveTiming(): ReceiveTiming {
    return { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs: 0 };
  }

  setParts(sender: SenderPart | undefined, receiver: ReceiverPart | undefined): void {
    this.senderPart = sender;
    this.receiverPart = receiver;
  }

  /** Bytes in the receive buffer of `vl` now. */
  receiveBytesOf(vl: number): number {
    return this.perVl[vl * PerVl.Stride + PerVl.ReceiveBytes]!;
  }

  /** Credit blocks the receive buffer of `vl` holds now (kept under credit flow control only). */
  receiveBlocksOf(vl: number): number {
    return this.perVl[vl * PerVl.Stride + PerVl.ReceiveBlocks]!;
  }

  onDelivery(listener: DeliveryListener | undefined): void {
    this.listener = listener;
  }

  /** Called for every message this host receives completely, when it does. */
  onMessageComplete(listener: ((completion: MessageCompletion) => void) | undefined): void {
    this.completionListener = listener;
  }

  /** Called with a message's id when its last packet starts leaving this host. */
  onMessageInjected(listener: ((messageId: number) => void) | undefined): void {
    this.injectedListener = listener;
  }

  portView(): PortView {
    return {
      vlCount: this.vlCount,
      inputBytes: (vl) => this.receiveBytesOf(vl),
      credits: (vl) => this.uplinkFlow.creditsOn(vl),
      isPaused: (vl) => this.uplinkFlow.isPaused(vl),
      isTransmitting: () => this.transmitting,
      isBlocked: (vl) => this.uplinkFlow.isBlocked(vl),
    };
  }

  /** Queues a message for sending at `message.startPs`; returns its message id. */
  addMessage(message: Message): number {
    if (
      !Number.isInteger(message.dstHost) ||
      message.dstHost < 0 ||
      message.dstHost >= this.hostCount
    ) {
      throw this.messageError(
        `dstHost must be a host index in 0..${this.hostCount - 1}, got ${message.dstHost}`,
      );
    }
    if (message.dstHost === this.index) throw this.messageError(`to itself (host ${this.index})`);
    if (!Number.isInteger(message.bytes) || message.bytes < 1) {
      throw this.messageError(`bytes must be a whole number ≥ 1, got ${message.bytes}`);
    }
    const sl = message.sl ?? 0;
    if (!Number.isInteger(sl) || sl < 0 || sl >= this.vlCount) {
      throw this.messageError(`sl must be in 0..${this.vlCount - 1}, got ${sl}`);
    }
    if (!(message.startPs >= this.scheduler.nowPs) || !Number.isInteger(message.startPs)) {
      throw this.messageError(`startPs must be a whole number of ps ≥ now, got ${message.startPs}`);
    }
    const id = this.nextMessageId();
    const last = this.arrivals[this.arrivals.length - 1];
    if (last !== undefined && last.message.startPs > message.startPs) this.arrivalsSorted = false;
    this.arrivals.push({ message, id });
    this.armArrival();
    return id;
  }

  // The error for a message `addMessage` refuses. Its "host …: message" prefix is built here,
  // on the error path only: addMessage runs once per message.
  private messageError(detail: string): RangeError {
    return new RangeError(`host ${this.name}: message ${detail}`);
  }

  /** Queues a control packet (from a CC part) ahead of data. */
  sendControl(packet: PacketId): void {
    this.packets.srcHost[packet] = this.index;
    this.packets.injectedPs[packet] = this.scheduler.nowPs;
    this.control.push(packet);
    this.trySend();
  }

  /** Queues a dropped data packet of this host for sending again, ahead of new data. */
  resend(packet: PacketId): void {
    const packets = this.packets;
    if (packets.srcHost[packet] !== this.index || packets.kindCode[packet] !== DATA_KIND) {
      throw new RangeError(
        `host ${this.name} can only resend its own data packets (got a ${packets.kind(packet)} packet from host ${packets.srcHost[packet]})`,
      );
    }
    packets.hops[packet] = 0;
    packets.outPort[packet] = -1;
    this.resends.push(packet);
    this.trySend();
  }

  /** Payload bytes delivered to this host so far, per flow id (of the flows that delivered any). */
  get deliveredBytesByFlow(): Map<number, number> {
    const bytes = new Map<number, number>();
    for (let k = 0; k < this.hostCount * this.vlCount; k++) {
      const page = this.fromSource[k >> SourcePage.Bits];
      if (page === undefined) continue;
      const b = page[(k & SourcePage.Mask) * Source.Stride + Source.Delivered]!;
      if (b === 0) continue;
      const src = Math.floor(k / this.vlCount);
      const sl = k % this.vlCount;
      bytes.set(flowIdOf(src, this.index, sl, this.hostCount, this.vlCount), b);
    }
    return bytes;
  }

  /** Payload bytes this host has started to inject (resends excluded), per flow id. */
  injectedBytesByFlow(): Map<number, number> {
    const bytes = new Map<number, number>();
    for (const qp of this.queuePairs.values()) bytes.set(qp.flowId, qp.injectedBytes);
    return bytes;
  }

  // --- events -------------------------------------------------------------------------------

  /** Event handler: messages due now enter their queue pairs. */
  messagesArrive(): void {
    const now = this.scheduler.nowPs;
    this.arrivalScheduledPs = Number.POSITIVE_INFINITY;
    while (this.arrivalCursor < this.arrivals.length) {
      const next = this.arrivals[this.arrivalCursor]!;
      if (next.message.startPs > now) break;
      this.arrivalCursor++;
      const { message, id } = next;
      const qp = this.queuePair(message.dstHost, message.sl ?? 0);
      qp.messages.push({ id, bytes: message.bytes, createdPs: message.startPs });
      if (qp.messages.length === 1) qp.headChanged();
      qp.queuedBytes += message.bytes;
      if (!qp.active) {
        qp.active = true;
        qp.shortHead = this.payloadOf(qp) < this.config.mtuBytes;
        this.joinRotation(qp);
      }
    }
    if (this.arrivalCursor > 64 && this.arrivalCursor * 2 > this.arrivals.length) {
      this.arrivals.splice(0, this.arrivalCursor);
      this.arrivalCursor = 0;
    }
    this.armArrival();
    this.trySend();
  }

  /** Event handler: the uplink transmitter is free. */
  transmissionEnded(): void {
    this.transmitting = false;
    this.trySend();
  }

  /**
   * A CC sender part says some gate may now allow its flow earlier than it last said (a rate
   * went up): parked queue pairs rejoin the rotation and are asked again.
   */
  gatesChanged(): void {
    while (this.parked.length !== 0) this.joinRotation(this.unparkFirst());
    this.trySend();
  }

  /** Event handler: a CC gate or the injection cap allows sending now. */
  wake(): void {
    if (this.wakeAtPs <= this.scheduler.nowPs) this.wakeAtPs = Number.POSITIVE_INFINITY;
    this.trySend();
  }

  flowControlChanged(_port: number): void {
    this.trySend();
  }

  receivePacket(packet: PacketId, _port: number, _tailArrivalPs: TimePs): void {
    this.receiverPart?.onArrive?.(packet);
    const vl = this.packets.vl[packet]!;
    const size = this.packets.sizeBytes[packet]!;
    const perVl = this.perVl;
    const r = vl * PerVl.Stride;
    const held = perVl[r + PerVl.ReceiveBytes]! + size;
    perVl[r + PerVl.ReceiveBytes] = held;
    if (held > perVl[r + PerVl.MaxReceiveBytes]!) {
      perVl[r + PerVl.MaxReceiveBytes] = held;
      this.maxReceiveBytes[vl] = held;
    }
    if (this.discipline === "credit") perVl[r + PerVl.ReceiveBlocks]! += creditBlocks(size);
    else if (perVl[r + PerVl.PausedUpstream] === 0 && held > this.pfc!.xoffBytes) {
      perVl[r + PerVl.PausedUpstream] = 1;
      this.links.sendPause(this.down, vl, true);
    }
    if (this.config.receiveRateGbps === null) {
      this.consume(packet);
      return;
    }
    this.rxQueue.push(packet);
    if (!this.receiving) this.startReceive();
  }

  /** Event handler: the packet at the head of the receive queue has been consumed. */
  receiveEnded(): void {
    this.receiving = false;
    this.consume(this.rxQueue.shift());
    if (this.rxQueue.length !== 0) this.startReceive();
  }

  // --- sending --------------------------------------------------------------------------------

  private trySend(): void {
    if (this.transmitting) return;
    const now = this.scheduler.nowPs;
    const links = this.links;
    const up = this.up;
    const packets = this.packets;
    const control = this.control.peek();
    if (
      control !== NO_PACKET &&
      links.canSend(up, packets.vl[control]!, packets.sizeBytes[control]!)
    ) {
      this.control.shift();
      this.transmit(control);
      return;
    }
    if (this.nextStartPs > now) {
      if (this.active.length !== 0 || this.resends.length !== 0 || this.parked.length !== 0)
        this.wakeAt(this.nextStartPs);
      return;
    }
    const resend = this.resends.peek();
    if (
      resend !== NO_PACKET &&
      links.canSend(up, packets.vl[resend]!, packets.sizeBytes[resend]!)
    ) {
      this.resends.shift();
      packets.injectedPs[resend] = now;
      this.packetsResent++;
      this.transmit(resend);
      this.spaceNextStart(now, packets.sizeBytes[resend]!);
      return;
    }
    // Parked queue pairs whose time has come rejoin the rotation, in time order.
    while (this.parkedFirstPs <= now) {
      this.joinRotation(this.unparkFirst());
    }
    if (
      (this.refusedVersion === this.rotationVersion && this.roomNotGrown()) ||
      this.noRoomForAny(now)
    ) {
      this.wakeAt(this.parkedFirstPs); // no-op while none is parked (+Infinity)
      return;
    }
    const perVl = this.perVl;
    const v = this.vlCount;
    for (let vl = 0; vl < v; vl++) {
      perVl[vl * PerVl.Stride + PerVl.RefusedBytes] = Number.POSITIVE_INFINITY;
    }
    if (this.oldestFirst ? this.sendOldest(now) : this.sendRoundRobin(now)) return;
    this.refusedVersion = this.rotationVersion;
    const { credits, paused } = links.flow;
    for (let vl = 0; vl < v; vl++) {
      perVl[vl * PerVl.Stride + PerVl.RefusedCredits] = credits[up * v + vl]!;
      perVl[vl * PerVl.Stride + PerVl.RefusedPaused] = paused[up * v + vl]!;
    }
    this.wakeAt(this.parkedFirstPs); // no-op while none is parked (+Infinity)
  }

  // Round robin: the first queue pair in the rotation that may send does, and goes to the back.
  private sendRoundRobin(now: TimePs): boolean {
    const active = this.active;
    const count = active.length;
    for (let k = 0; k < count; k++) {
      const qp = active.shift()!;
      active.push(qp);
      const verdict = this.consider(qp, now);
      if (verdict === Verdict.Park) active.removeAt(active.length - 1);
      else if (verdict === Verdict.Send) {
        this.sendFrom(qp, active.length - 1, now);
        return true;
      }
    }
    return false;
  }

  // Oldest first: of the queue pairs that may send, the one whose head message arrived first.
  // The oldest head is asked alone first: it usually may send, and then the decision is made
  // without reading any other queue pair's gate, which lives in the CC part's memory (648-node
  // silent forest: 390 ns per gate asked, 6.4 queue pairs per decision, 10 % of the run). If
  // it may not, the full scan below asks every queue pair in rotation order; it picks the same
  // one, since a gate's answer does not depend on when it is asked within the decision. Queue
  // pairs not asked stay in the rotation instead of being parked until the next full scan, or
  // until `noRoomForAny` needs to know: the same packets leave at the same times, with a few
  // more wake-up events (0.07 % more events in the silent forest).
  private sendOldest(now: TimePs): boolean {
    const active = this.active;
    const count = active.length;
    if (count === 0) return false;
    const oldest = active.oldest();
    const oldestQp = active.at(oldest)!;
    const verdict = this.consider(oldestQp, now);
    if (verdict === Verdict.Send) {
      if (count > 1) this.gatesUnasked = true;
      this.sendFrom(oldestQp, oldest, now);
      return true;
    }
    if (verdict === Verdict.Park) active.removeAt(oldest);
    let best: QueuePair | undefined;
    let bestIndex = -1;
    for (let k = 0; k < active.length; ) {
      const qp = active.at(k)!;
      const verdict = this.consider(qp, now);
      if (verdict === Verdict.Park) {
        active.removeAt(k);
        continue;
      }
      if (verdict === Verdict.Send && (best === undefined || active.before(k, bestIndex))) {
        best = qp;
        bestIndex = k;
      }
      k++;
    }
    this.gatesUnasked = false;
    if (best === undefined) return false;
    this.sendFrom(best, bestIndex, now);
    return true;
  }

  // Parks the queue pairs of the rotation on `vl` that their gate holds back now, as a full
  // scan would have, until one that it does not (usually the first: one gate asked); returns
  // whether there is one. Parking schedules the wake-up at the time their gate allows them.
  private parkHeldBackOn(vl: number, now: TimePs): boolean {
    const active = this.active;
    for (let k = 0; k < active.length; ) {
      const qp = active.at(k)!;
      if (qp.vl === vl) {
        if (this.askGate(qp, now) !== Verdict.Park) return true;
        active.removeAt(k);
        continue;
      }
      k++;
    }
    return false;
  }

  // What the send decision makes of `qp` now: SEND (its gate and the uplink allow its next
  // packet), SKIP (its window is closed, or the uplink has no room for the packet), or PARK (its
  // gate allows it later: it leaves the rotation until then; the caller takes it out of
  // `active`).
  private consider(qp: QueuePair, now: TimePs): Verdict {
    const gated = this.askGate(qp, now);
    if (gated !== Verdict.Send) return gated;
    const size = this.payloadOf(qp) + this.config.headerBytes;
    const vl = qp.vl;
    const refused = vl * PerVl.Stride + PerVl.RefusedBytes;
    // Room on the uplink only grows with less to send: a size refused once this decision is
    // refused again without asking.
    if (size >= this.perVl[refused]!) return Verdict.Skip;
    const links = this.links;
    if (!links.canSend(this.up, vl, size)) {
      links.markBlocked(this.up, vl, now);
      this.perVl[refused] = size;
      return Verdict.Skip;
    }
    links.markUnblocked(this.up, vl, now);
    return Verdict.Send;
  }

  // What `qp`'s gate makes of it now: SEND (it allows the next packet now), SKIP (its window is
  // closed) or PARK (it allows it later: `qp` leaves the rotation until then; the caller takes
  // it out of `active`).
  private askGate(qp: QueuePair, now: TimePs): Verdict {
    const gate = qp.gate;
    if (gate === undefined) return Verdict.Send;
    if (gate.windowOpen !== undefined && !gate.windowOpen()) return Verdict.Skip;
    const allowedPs = gate.nextSendPs(now);
    if (allowedPs <= now) return Verdict.Send;
    this.leaveRotation(qp);
    this.park(qp, allowedPs);
    return Verdict.Park;
  }

  private park(qp: QueuePair, untilPs: TimePs): void {
    this.parked.push(qp, untilPs);
    this.parkedFirstPs = this.parked.topPs();
  }

  private unparkFirst(): QueuePair {
    const qp = this.parked.popTop();
    this.parkedFirstPs = this.parked.topPs();
    return qp;
  }

  // Payload of the next packet of `qp`.
  private payloadOf(qp: QueuePair): number {
    return Math.min(this.config.mtuBytes, qp.headBytes - qp.sentOfHead);
  }

  // Sends the next packet of `qp`, which may send now and is at `index` in the rotation.
  private sendFrom(qp: QueuePair, index: number, now: TimePs): void {
    const payload = this.payloadOf(qp);
    const size = payload + this.config.headerBytes;
    const vl = qp.vl;
    const packet = this.dataPacket(qp, payload, size, vl);
    this.leaveRotation(qp);
    if (qp.queuedBytes === 0) {
      this.active.removeAt(index);
      qp.active = false;
    } else {
      this.active.headChangedAt(index);
      qp.shortHead = this.payloadOf(qp) < this.config.mtuBytes;
      this.perVl[vl * PerVl.Stride + PerVl.RotationCount]!++;
      if (qp.shortHead) this.perVl[vl * PerVl.Stride + PerVl.RotationShort]!++;
    }
    this.rotationVersion++; // a queue pair's head moved on
    this.transmit(packet);
    this.spaceNextStart(now, size);
    // The gate hears of the packet once it is on the uplink: a gate that raises its rate here
    // (DCQCN's byte counter) asks the host to send again, which must find the uplink busy.
    qp.gate?.onSent?.(packet);
  }

  private joinRotation(qp: QueuePair): void {
    this.active.push(qp);
    this.perVl[qp.vl * PerVl.Stride + PerVl.RotationCount]!++;
    if (qp.shortHead) this.perVl[qp.vl * PerVl.Stride + PerVl.RotationShort]!++;
    this.rotationVersion++;
  }

  // Bookkeeping only: the caller takes it out of `active`.
  private leaveRotation(qp: QueuePair): void {
    this.perVl[qp.vl * PerVl.Stride + PerVl.RotationCount]!--;
    if (qp.shortHead) this.perVl[qp.vl * PerVl.Stride + PerVl.RotationShort]!--;
  }

  // True when no queue pair in the rotation could send even the smallest packet its VL may
  // hold next (a full one, unless some head is short): the decision is over without a scan,
  // which matters on a blocked uplink with hundreds of queue pairs.
  private noRoomForAny(now: TimePs): boolean {
    const links = this.links;
    const up = this.up;
    const full = this.config.mtuBytes + this.config.headerBytes;
    const smallest = this.config.headerBytes + 1;
    const perVl = this.perVl;
    for (let vl = 0; vl < this.vlCount; vl++) {
      const r = vl * PerVl.Stride;
      if (perVl[r + PerVl.RotationCount] === 0) continue;
      if (links.canSend(up, vl, perVl[r + PerVl.RotationShort] === 0 ? full : smallest)) {
        return false;
      }
    }
    // A VL with a queue pair in the rotation is now blocked. After a decision that did not ask
    // every gate, some of them are held back by their gate and would have been parked: a VL
    // whose queue pairs are all such is not blocked. They are looked for only where the mark
    // would change (a VL already blocked stays so until it sends).
    for (let vl = 0; vl < this.vlCount; vl++) {
      if (perVl[vl * PerVl.Stride + PerVl.RotationCount] === 0) continue;
      if (this.gatesUnasked && !this.uplinkFlow.isBlocked(vl) && !this.parkHeldBackOn(vl, now)) {
        continue;
      }
      links.markBlocked(up, vl, now);
    }
    return true;
  }

  // True when the uplink can take nothing it refused at the last fruitless send decision.
  private roomNotGrown(): boolean {
    const { credits, paused } = this.links.flow;
    const base = this.up * this.vlCount;
    const perVl = this.perVl;
    for (let vl = 0; vl < this.vlCount; vl++) {
      const r = vl * PerVl.Stride;
      if (credits[base + vl]! > perVl[r + PerVl.RefusedCredits]!) return false;
      if (paused[base + vl]! < perVl[r + PerVl.RefusedPaused]!) return false;
    }
    return true;
  }

  // The next packet of `qp`'s head message.
  private dataPacket(qp: QueuePair, payload: number, size: number, vl: number): PacketId {
    const packets = this.packets;
    // A fresh data packet (every field at its default), then this one's fields.
    const packet = packets.alloc();
    packets.sizeBytes[packet] = size;
    packets.payloadBytes[packet] = payload;
    packets.flowId[packet] = qp.flowId;
    const messageId = qp.headId;
    packets.messageId[packet] = messageId;
    packets.messageBytes[packet] = qp.headBytes;
    packets.seqInMessage[packet] = Math.floor(qp.sentOfHead / this.config.mtuBytes);
    packets.srcHost[packet] = this.index;
    packets.dstHost[packet] = qp.dstHost;
    packets.sl[packet] = qp.sl;
    packets.vl[packet] = vl;
    packets.createdPs[packet] = qp.headCreatedPs;
    packets.injectedPs[packet] = this.scheduler.nowPs;
    qp.sentOfHead += payload;
    qp.queuedBytes -= payload;
    if (qp.sentOfHead === qp.headBytes) {
      packets.lastOfMessage[packet] = 1;
      qp.messages.shift();
      qp.headChanged();
      qp.sentOfHead = 0;
      this.injectedListener?.(messageId);
    }
    qp.injectedBytes += payload;
    return packet;
  }

  private transmit(packet: PacketId): void {
    if (this.transmitting) {
      throw new Error(`host ${this.name} started a packet while its uplink was busy (a bug)`);
    }
    const links = this.links;
    const size = this.packets.sizeBytes[packet]!;
    links.consume(this.up, this.packets.vl[packet]!, size);
    this.transmitting = true;
    this.packetsSent++;
    const endPs = this.scheduler.nowPs + links.serPs(this.up, size);
    links.transmit(this.up, packet, endPs);
    this.scheduler.schedule(endPs, this.kinds.txEnds, this.index);
  }

  // The host cap (MODEL.md): packet starts at least size × 8 / cap apart.
  private spaceNextStart(now: TimePs, sizeBytes: number): void {
    if (this.config.injectionCapGbps !== null) {
      this.nextStartPs = now + serializationPs(sizeBytes, this.config.injectionCapGbps);
    }
  }

  private wakeAt(timePs: TimePs): void {
    if (timePs >= this.wakeAtPs) return;
    this.wakeAtPs = timePs;
    this.scheduler.schedule(timePs, this.kinds.wake, this.index);
  }

  private queuePair(dstHost: number, sl: number): QueuePair {
    const last = this.lastQueuePair;
    if (last !== undefined && last.dstHost === dstHost && last.sl === sl) return last;
    const key = dstHost * this.vlCount + sl;
    let qp = this.queuePairs.get(key);
    if (qp === undefined) {
      const flowId = flowIdOf(this.index, dstHost, sl, this.hostCount, this.vlCount);
      qp = new QueuePair(flowId, dstHost, sl, sl % this.vlCount);
      qp.gate = this.senderPart?.openFlow({ flowId, srcHost: this.index, dstHost, sl });
      this.queuePairs.set(key, qp);
    }
    this.lastQueuePair = qp;
    return qp;
  }

  private armArrival(): void {
    if (!this.arrivalsSorted) {
      const pending = this.arrivals.slice(this.arrivalCursor);
      pending.sort((a, b) => a.message.startPs - b.message.startPs || a.id - b.id);
      this.arrivals.length = 0;
      this.arrivals.push(...pending);
      this.arrivalCursor = 0;
      this.arrivalsSorted = true;
    }
    const next = this.arrivals[this.arrivalCursor];
    if (next === undefined || next.message.startPs >= this.arrivalScheduledPs) return;
    this.arrivalScheduledPs = next.message.startPs;
    this.scheduler.schedule(next.message.startPs, this.kinds.messageArrives, this.index);
  }

  // --- receiving ------------------------------------------------------------------------------

  private startReceive(): void {
    const packet = this.rxQueue.peek();
    this.receiving = true;
    const servicePs = serializationPs(
      this.packets.sizeBytes[packet]!,
      this.config.receiveRateGbps!,
    );
    this.scheduler.schedule(this.scheduler.nowPs + servicePs, this.kinds.rxEnds, this.index);
  }

  // The page of `fromSource` of queue pair `source`, made when first asked for.
  private sourcePage(source: number): Float64Array {
    const p = source >> SourcePage.Bits;
    let page = this.fromSource[p];
    if (page === undefined) {
      page = new Float64Array(SourcePage.Length * Source.Stride);
      for (let k = 0; k < SourcePage.Length; k++) page[k * Source.Stride + Source.Message] = -1;
      this.fromSource[p] = page;
    }
    return page;
  }

  // Bytes of message `messageId` received so far from the queue pair whose record is at `r` in
  // page `from`, with `payload` more.
  private receivedOf(from: Float64Array, r: number, messageId: number, payload: number): number {
    if (from[r + Source.Message] === messageId) {
      const got = from[r + Source.Bytes]! + payload;
      from[r + Source.Bytes] = got;
      return got;
    }
    const before = this.partial.get(messageId);
    if (before === undefined && from[r + Source.Message] === -1) {
      from[r + Source.Message] = messageId;
      from[r + Source.Bytes] = payload;
      return payload;
    }
    const got = (before ?? 0) + payload;
    this.partial.set(messageId, got);
    return got;
  }

  // Message `messageId` from the queue pair whose record is at `r` in page `from` is complete.
  private messageReceived(from: Float64Array, r: number, messageId: number): void {
    if (from[r + Source.Message] === messageId) from[r + Source.Message] = -1;
    else this.partial.delete(messageId);
  }

  // The packet leaves the receive buffer: its credits go back (MODEL.md), then it is counted,
  // shown to the listeners and CC parts, and freed.
  private consume(packet: PacketId): void {
    const packets = this.packets;
    const now = this.scheduler.nowPs;
    const vl = packets.vl[packet]!;
    const size = packets.sizeBytes[packet]!;
    const perVl = this.perVl;
    const r = vl * PerVl.Stride;
    const held = perVl[r + PerVl.ReceiveBytes]! - size;
    perVl[r + PerVl.ReceiveBytes] = held;
    if (this.discipline === "credit") {
      const blocks = creditBlocks(size);
      perVl[r + PerVl.ReceiveBlocks]! -= blocks;
      this.links.returnCredits(this.down, vl, blocks);
    } else if (perVl[r + PerVl.PausedUpstream] === 1 && held <= this.pfc!.xonBytes) {
      perVl[r + PerVl.PausedUpstream] = 0;
      this.links.sendPause(this.down, vl, false);
    }
    this.packetsReceived++;
    if (packets.kindCode[packet] === DATA_KIND) {
      if (this.latencyStats) {
        this.totalLatencyPs.add(now - packets.createdPs[packet]!);
        this.networkLatencyPs.add(now - packets.injectedPs[packet]!);
      }
      const payload = packets.payloadBytes[packet]!;
      const messageId = packets.messageId[packet]!;
      const source = packets.srcHost[packet]! * this.vlCount + packets.sl[packet]!;
      const from = this.fromSource[source >> SourcePage.Bits] ?? this.sourcePage(source);
      const r = (source & SourcePage.Mask) * Source.Stride;
      from[r + Source.Delivered]! += payload;
      const got = this.receivedOf(from, r, messageId, payload);
      if (got === packets.messageBytes[packet]) {
        this.messageReceived(from, r, messageId);
        const completion: MessageCompletion = {
          messageId,
          flowId: packets.flowId[packet]!,
          srcHost: packets.srcHost[packet]!,
          dstHost: packets.dstHost[packet]!,
          bytes: got,
          createdPs: packets.createdPs[packet]!,
          completedPs: now,
        };
        this.messagesCompleted++;
        if (this.keepCompletions) this.completions.push(completion);
        this.completionListener?.(completion);
      }
      this.receiverPart?.onData?.(packet);
      this.listener?.(packet, now);
      packets.free(packet);
    } else {
      this.listener?.(packet, now);
      const senderPart = this.senderPart;
      senderPart?.onControl?.(packet);
      packets.free(packet);
      if (senderPart?.onControl !== undefined) {
        this.rotationVersion++;
        this.trySend(); // the control packet may have opened a window or moved a rate
      }
    }
  }
}

/**
 * The flow id of the queue pair from `srcHost` to `dstHost` at service level `sl`: unique in
 * a network of `hostCount` hosts and `vlCount` VLs. {@link flowEndpoints} inverts it.
 */
export function flowIdOf(
  srcHost: number,
  dstHost: number,
  sl: number,
  hostCount: number,
  vlCount: number,
): number {
  return (srcHost * hostCount + dstHost) * vlCount + sl;
}

/** The source, destination and SL of a flow id made by {@link flowIdOf}. */
export function flowEndpoints(
  flowId: number,
  hostCount: number,
  vlCount: number,
): { srcHost: number; dstHost: number; sl: number } {
  const pair = Math.floor(flowId / vlCount);
  return { srcHost: Math.floor(pair / hostCount), dstHost: pair % hostCount, sl: flowId % vlCount };
}

/** Registers the host event kinds on a scheduler, dispatching to `hosts` by index. */
export function registerHcaEvents(scheduler: Scheduler, hosts: readonly Hca[]): HcaKinds {
  return {
    messageArrives: scheduler.defineKind("host: messages arrive", (i) =>
      hosts[i]!.messagesArrive(),
    ),
    txEnds: scheduler.defineKind("host: transmission ends", (i) => hosts[i]!.transmissionEnded()),
    wake: scheduler.defineKind("host: may send", (i) => hosts[i]!.wake()),
    rxEnds: scheduler.defineKind("host: packet consumed", (i) => hosts[i]!.receiveEnded()),
  };
}
