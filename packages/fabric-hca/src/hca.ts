import { Histogram, type Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import {
  DATA_KIND,
  InputBuffers,
  IntFifo,
  LINK_LOCAL,
  type Link,
  type LinkReceiver,
  type LinkSender,
  type PacketId,
  type Packets,
  type PortFlowState,
  type PortView,
  type ReceiverPart,
  type ReceiveTiming,
  type SenderPart,
} from "@cclab/fabric";
import { BufferedUplinkTransmitter } from "./buffered-uplink-transmitter.js";
import { EgressBuffer } from "./egress-buffer.js";
import { EgressHop } from "./egress-hop.js";
import { flowEndpoints, flowIdOf } from "./flow-id.js";
import type { HcaConfig } from "./hca-config.js";
import type { DeliveryListener, HcaKinds, HcaSetup } from "./hca-setup.js";
import { type Message, type MessageCompletion, messageProblem } from "./message.js";
import { MessageArrivals } from "./message-arrivals.js";
import { HostPortView } from "./port-view.js";
import { QueuePair } from "./queue-pair.js";
import { Reassembly } from "./reassembly.js";
import { ReceiveRate } from "./receive-rate.js";
import { SendScheduler } from "./send-scheduler.js";
import { UplinkTransmitter } from "./uplink-transmitter.js";

/** One VL of a host's port, totals up to a time (see {@link Hca.portStats}). */
export interface HostPortStats {
  readonly vl: number;
  /** Bytes and packets started on the uplink, every VL together. */
  readonly bytesSent: number;
  readonly packetsSent: number;
  /** Time the uplink had a packet of this VL ready but was held by flow control, ps. */
  readonly blockedPs: number;
  readonly offTransitions: number;
  /** Time-weighted mean and peak bytes in the receive buffer of this VL. */
  readonly meanInputBytes: number;
  readonly maxInputBytes: number;
}

/** One VL of a host's egress buffer, totals up to a time (see {@link Hca.egressStats}). */
export interface HostEgressStats {
  readonly vl: number;
  /** Bytes the FIFO holds now, and the most it ever held. */
  readonly bytes: number;
  readonly peakBytes: number;
  /** Time the FIFO was XOFF (its queue pairs held), ps, and how many times it went XOFF. */
  readonly xoffPs: number;
  readonly xoffEvents: number;
}

/**
 * A host channel adapter (docs/model.md, "Hosts"): messages enter per-destination send queues
 * (queue pairs) at their start time; its {@link UplinkTransmitter} cuts them into packets of at
 * most `mtuBytes` payload and injects them, control packets first, from the queue pairs its
 * {@link SendScheduler} picks (round-robin or oldest first over those that have data, are
 * allowed by their CC gate and have credits, or are not paused, on the uplink). Received
 * packets wait in the receive buffer (port 0 of the host's {@link InputBuffers}, which returns
 * credits or pauses the switch), are consumed at `receiveRateGbps` or the rate its schedule
 * gives now ({@link ReceiveRate}), and are reassembled into messages ({@link Reassembly}).
 */
export class Hca implements LinkReceiver, LinkSender {
  readonly index: number;
  readonly name: string;
  /** The uplink transmitter's credits / pause state (after {@link attach}). */
  uplinkFlow!: PortFlowState;
  /**
   * Per VL: the most bytes the receive buffer ever held (the receive buffer's `peakBytes`).
   * Written when the maximum grows; an invariant check or a test may read it any time.
   */
  readonly maxReceiveBytes: Float64Array;
  /**
   * The egress FIFOs between the CC gates and the uplink, with their occupancy, XOFF state and
   * counters; undefined without `egressBuffer` (the default).
   */
  readonly egressBuffer: EgressBuffer | undefined;
  /** Completed messages, in completion order (only with `keepCompletions`, the default). */
  readonly completions: MessageCompletion[] = [];
  /** Messages received completely so far. */
  messagesCompleted = 0;
  packetsReceived = 0;
  /** Total packet latency, delivery − message arrival at the send queue, ps (docs/model.md). */
  readonly totalLatencyPs = new Histogram();
  /** In-network latency, delivery − start of the packet's injection, ps (docs/model.md). */
  readonly networkLatencyPs = new Histogram();

  private readonly config: HcaConfig;
  private readonly hostCount: number;
  private readonly vlCount: number;
  private readonly scheduler: Scheduler;
  private readonly kinds: HcaKinds;
  private readonly nextMessageId: () => number;
  private readonly packets: Packets;
  private readonly latencyStats: boolean;
  private readonly keepCompletions: boolean;
  private completionListener: ((completion: MessageCompletion) => void) | undefined = undefined;
  private uplink: Link | undefined = undefined;
  /** The receive buffer: port 0, one queue per VL. */
  private readonly inputs: InputBuffers;
  private readonly sending: SendScheduler;
  /** The hop into the egress FIFOs, where the send scheduler sends (with an egress buffer). */
  private readonly egressHop: EgressHop | undefined;
  private readonly tx: UplinkTransmitter;
  private readonly reassembly: Reassembly;
  private readonly arrivals = new MessageArrivals();
  private arrivalScheduledPs = Number.POSITIVE_INFINITY;
  /** True while `messagesArrive` runs: a flow a gate moves then sends once all have arrived. */
  private arriving = false;
  private readonly queuePairs = new Map<number, QueuePair>();
  /**
   * The queue pair a message last went to: a sender's messages mostly go to the destination of
   * the one before (a forest's tree contributors send only to their hotspot), and the Map lookup
   * it saves missed the cache on a large fabric.
   */
  private lastQueuePair: QueuePair | undefined = undefined;
  private readonly rxQueue = new IntFifo(8);
  private receiving = false;
  /** The receive rate now: `receiveRateGbps`, or its schedule's step in force. */
  private readonly receiveRate: ReceiveRate;
  /**
   * No receive rate and no schedule: every packet is consumed as it arrives, and this flag is
   * the one test on its way. Asking {@link receiveRate} there instead cost uniform256 0.3 % of
   * its instructions (300 µs under cachegrind, V8's default inlining budgets).
   */
  private readonly consumesAtOnce: boolean;
  private senderPart: SenderPart | undefined = undefined;
  private receiverPart: ReceiverPart | undefined = undefined;
  /** The receiver part, if it may discard second copies (contract 3.2), else undefined. */
  private discarding: ReceiverPart | undefined = undefined;
  /** Data packets the receiver part discarded as second copies. */
  duplicatesDiscarded = 0;
  private listener: DeliveryListener | undefined = undefined;

  constructor(setup: HcaSetup) {
    const { index, name, hostCount, vlCount, config, scheduler, packets, links, pfc } = setup;
    this.index = index;
    this.name = name;
    this.hostCount = hostCount;
    this.vlCount = vlCount;
    this.config = config;
    this.scheduler = scheduler;
    this.kinds = setup.kinds;
    this.nextMessageId = setup.nextMessageId;
    this.packets = packets;
    this.latencyStats = setup.latencyStats ?? true;
    this.keepCompletions = setup.keepCompletions ?? true;
    this.inputs = new InputBuffers({
      portCount: 1,
      vlCount,
      discipline: setup.discipline,
      links,
      ...(pfc === undefined ? {} : { pauseRule: { kind: "static", ...pfc } }),
      startPs: scheduler.nowPs,
    });
    this.maxReceiveBytes = this.inputs.peakBytes;
    const oldestFirst = config.injectionOrder === "oldest-first";
    const { mtuBytes, headerBytes } = config;
    // With an egress buffer the send scheduler sends into the FIFOs, and a transmitter of its
    // own drains them; without, the classes run as they always have.
    const egress =
      config.egressBuffer === null
        ? undefined
        : new EgressBuffer(vlCount, config.egressBuffer, packets);
    this.egressBuffer = egress;
    this.egressHop = egress === undefined ? undefined : new EgressHop(egress);
    this.sending = new SendScheduler({
      vlCount,
      mtuBytes,
      headerBytes,
      oldestFirst,
      links: this.egressHop ?? links,
      lowPriorityVls: setup.lowPriorityVls ?? [],
    });
    const sending = this.sending;
    const kinds = setup.kinds;
    const txSetup = { index, name, config, scheduler, kinds, packets, links, sending };
    this.tx =
      egress === undefined
        ? new UplinkTransmitter(txSetup)
        : new BufferedUplinkTransmitter(txSetup, egress);
    this.reassembly = new Reassembly(index, hostCount, vlCount);
    this.receiveRate = new ReceiveRate(config.receiveRateGbps, config.receiveRateSchedule);
    this.consumesAtOnce =
      config.receiveRateGbps === null && config.receiveRateSchedule.length === 0;
  }

  /** Rate of the host's uplink, Gb/s (after {@link attach}). */
  uplinkRateGbps(): number {
    return this.uplink!.rateGbps;
  }

  /**
   * Totals of the host's port per VL up to `untilPs`, as a switch port reports them
   * (docs/model.md, "What is measured"): what left on the uplink, how long the uplink was held
   * by flow control, and the receive buffer's mean and peak occupancy.
   */
  portStats(untilPs: TimePs): HostPortStats[] {
    const link = this.uplink;
    return Array.from({ length: this.vlCount }, (_, vl) => ({
      vl,
      bytesSent: link?.bytesSent ?? 0,
      packetsSent: link?.packetsSent ?? 0,
      blockedPs: link === undefined ? 0 : this.uplinkFlow.blockedPsUntil(vl, untilPs),
      offTransitions: link === undefined ? 0 : (this.uplinkFlow.offTransitions[vl] ?? 0),
      meanInputBytes: this.inputs.meanBytes(0, vl, untilPs),
      maxInputBytes: this.inputs.maxBytes(0, vl),
    }));
  }

  /**
   * The egress FIFOs per VL up to `untilPs` (docs/model.md, "Hosts"): bytes held now and at
   * most, time XOFF and XOFF events; an empty list without an egress buffer.
   */
  egressStats(untilPs: TimePs): HostEgressStats[] {
    const egress = this.egressBuffer;
    if (egress === undefined) return [];
    return Array.from({ length: this.vlCount }, (_, vl) => ({
      vl,
      bytes: egress.bytesOn(vl),
      peakBytes: egress.peakBytes[vl]!,
      xoffPs: egress.xoffPsUntil(vl, untilPs),
      xoffEvents: egress.xoffEvents[vl]!,
    }));
  }

  /** Packets started on the uplink (control, data and resent data). */
  get packetsSent(): number {
    return this.tx.packetsSent;
  }

  /** Data packets sent again after a drop a CC scheme reported. */
  get packetsResent(): number {
    return this.tx.packetsResent;
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
    this.uplinkFlow = uplink.flow;
    this.inputs.attach(0, downlink.index);
    const hop = this.egressHop;
    if (hop === undefined) this.sending.attach(uplink.index, uplink.flow);
    else this.sending.attach(0, hop.flowState); // the hop's columns are its VLs from 0
    this.tx.attach(uplink.index);
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
    this.discarding = receiver?.discard === undefined ? undefined : receiver;
  }

  /** Bytes in the receive buffer of `vl` now. */
  receiveBytesOf(vl: number): number {
    return this.inputs.bytes(0, vl);
  }

  /** Credit blocks the receive buffer of `vl` holds now (kept under credit flow control only). */
  receiveBlocksOf(vl: number): number {
    return this.inputs.blocks(0, vl);
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
    this.tx.injectedListener = listener;
  }

  /**
   * Observes every packet of this host from now on (packet traces): `started` when one
   * starts on the uplink (data, resent data, control), `consumed` when one leaves the receive
   * buffer, just before the host counts it and the listeners and CC parts see it. Both wrap the
   * host's own handlers instead of testing for an observer per packet, so a host nobody
   * observes runs the class's code unchanged (docs/model.md, "Performance rules").
   */
  observePackets(started: (packet: PacketId) => void, consumed: (packet: PacketId) => void): void {
    this.tx.observeStarts(started);
    const consume = this.consume;
    this.consume = (packet) => {
      consumed(packet);
      consume.call(this, packet);
    };
  }

  /** The host's port as its CC parts see it (after {@link attach}). */
  portView(): PortView {
    return new HostPortView(this.vlCount, this.inputs, this.uplinkFlow, this.tx);
  }

  /** Queues a message for sending at `message.startPs`; returns its message id. */
  addMessage(message: Message): number {
    const now = this.scheduler.nowPs;
    const problem = messageProblem(message, this.index, this.hostCount, this.vlCount, now);
    if (problem !== undefined) throw new RangeError(`host ${this.name}: message ${problem}`);
    const id = this.nextMessageId();
    this.arrivals.add(message, id);
    this.armArrival();
    return id;
  }

  /** Queues a control packet (from a CC part) ahead of data. */
  sendControl(packet: PacketId): void {
    this.tx.sendControl(packet);
  }

  /**
   * Queues a link-local control packet (from a CC part) ahead of data: it goes to the switch at
   * the other end of the uplink, not routed by destination (`dstHost` becomes LINK_LOCAL).
   */
  sendLinkControl(packet: PacketId): void {
    this.packets.dstHost[packet] = LINK_LOCAL;
    this.tx.sendControl(packet);
  }

  /** Queues a dropped data packet of this host for sending again, ahead of new data. */
  resend(packet: PacketId): void {
    this.tx.resend(packet);
  }

  /**
   * Puts flow `flowId`'s next packets on `vl` (a packet already made keeps its VL). The flow
   * must be one of this host's; its queue pair is made if it has none yet.
   */
  setFlowVl(flowId: number, vl: number): void {
    if (!Number.isInteger(vl) || vl < 0 || vl >= this.vlCount) {
      throw new RangeError(`host ${this.name}: vl must be in 0..${this.vlCount - 1}, got ${vl}`);
    }
    const { srcHost, dstHost, sl } = flowEndpoints(flowId, this.hostCount, this.vlCount);
    if (!Number.isInteger(flowId) || srcHost !== this.index || dstHost === this.index) {
      throw new RangeError(`host ${this.name}: flow ${flowId} is not one of this host's`);
    }
    this.sending.setVl(this.queuePair(dstHost, sl), vl);
    if (!this.arriving) this.tx.trySend();
  }

  /** Payload bytes delivered to this host so far, per flow id (of the flows that delivered any). */
  get deliveredBytesByFlow(): Map<number, number> {
    return this.reassembly.deliveredBytesByFlow();
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
    this.arriving = true;
    for (let m = this.arrivals.nextDue(now); m !== undefined; m = this.arrivals.nextDue(now)) {
      const { message, id } = m;
      const qp = this.queuePair(message.dstHost, message.sl ?? 0);
      qp.push(id, message.bytes, message.startPs);
      qp.gate?.onMessage?.(message.bytes, id);
      if (!qp.active) this.sending.activate(qp);
    }
    this.arriving = false;
    this.arrivals.compact();
    this.armArrival();
    this.tx.trySend();
  }

  /** Event handler: the uplink transmitter is free. */
  transmissionEnded(): void {
    this.tx.ended();
  }

  /**
   * A CC sender part says some gate may now allow its flow earlier than it last said (a rate
   * went up): parked queue pairs rejoin the rotation and are asked again.
   */
  gatesChanged(): void {
    this.sending.unparkAll();
    this.tx.trySend();
  }

  /** Event handler: a CC gate or the injection cap allows sending now. */
  wake(): void {
    this.tx.wake();
  }

  flowControlChanged(_port: number): void {
    this.tx.trySend();
  }

  receivePacket(packet: PacketId, _port: number, _tailArrivalPs: TimePs): void {
    this.receiverPart?.onArrive?.(packet);
    const packets = this.packets;
    const now = this.scheduler.nowPs;
    this.inputs.arrive(0, packets.vl[packet]!, packets.sizeBytes[packet]!, now);
    if (this.consumesAtOnce) {
      this.consume(packet);
      return;
    }
    this.receiveAtRate(packet, now);
  }

  /** Event handler: the packet at the head of the receive queue has been consumed. */
  receiveEnded(): void {
    this.receiving = false;
    this.consume(this.rxQueue.shift());
    if (this.rxQueue.length !== 0) this.startReceive();
  }

  // --- messages -------------------------------------------------------------------------------

  private queuePair(dstHost: number, sl: number): QueuePair {
    const last = this.lastQueuePair;
    if (last !== undefined && last.dstHost === dstHost && last.sl === sl) return last;
    const key = dstHost * this.vlCount + sl;
    let qp = this.queuePairs.get(key);
    if (qp === undefined) {
      const flowId = flowIdOf(this.index, dstHost, sl, this.hostCount, this.vlCount);
      qp = new QueuePair(flowId, dstHost, sl, sl % this.vlCount);
      // In the map before its gate opens: a part that moves the flow at once finds it.
      this.queuePairs.set(key, qp);
      qp.gate = this.senderPart?.openFlow({ flowId, srcHost: this.index, dstHost, sl });
    }
    this.lastQueuePair = qp;
    return qp;
  }

  private armArrival(): void {
    const nextPs = this.arrivals.nextPs();
    if (nextPs >= this.arrivalScheduledPs) return;
    this.arrivalScheduledPs = nextPs;
    this.scheduler.schedule(nextPs, this.kinds.messageArrives, this.index);
  }

  // --- receiving ------------------------------------------------------------------------------

  // A packet for a host with a receive rate or a schedule. The schedule's changes are taken as
  // time passes them, with no event of their own. The packet is consumed at once if the rate
  // is null now and none is in service (the rate may have become null while one was: then it
  // waits its turn, arrival order kept); else it queues for its service.
  private receiveAtRate(packet: PacketId, now: TimePs): void {
    const rate = this.receiveRate;
    if (now >= rate.nextChangePs) rate.advance(now);
    if (rate.rateGbps === null && !this.receiving) {
      this.consume(packet);
      return;
    }
    this.rxQueue.push(packet);
    if (!this.receiving) this.startReceive();
  }

  // The head of the receive queue starts its service at the rate in force now, which it keeps
  // to the end. A schedule that has turned the rate to null since the queue formed consumes
  // the queued packets at once, in order (docs/model.md, "Hosts").
  private startReceive(): void {
    const now = this.scheduler.nowPs;
    const rate = this.receiveRate;
    if (now >= rate.nextChangePs) rate.advance(now);
    const rateGbps = rate.rateGbps;
    if (rateGbps === null) {
      while (this.rxQueue.length !== 0) this.consume(this.rxQueue.shift());
      return;
    }
    const packet = this.rxQueue.peek();
    this.receiving = true;
    const servicePs = serializationPs(this.packets.sizeBytes[packet]!, rateGbps);
    this.scheduler.schedule(now + servicePs, this.kinds.rxEnds, this.index);
  }

  // The packet leaves the receive buffer: its credits go back (docs/model.md, "Flow control"),
  // then it is counted, shown to the listeners and CC parts, and freed; a second copy the
  // receiver part discards (contract 3.2) is only freed.
  private consume(packet: PacketId): void {
    const packets = this.packets;
    const now = this.scheduler.nowPs;
    this.inputs.leave(0, packets.vl[packet]!, packets.sizeBytes[packet]!, now);
    this.packetsReceived++;
    if (packets.kindCode[packet] !== DATA_KIND) {
      this.consumeControl(packet, now);
      return;
    }
    const discarding = this.discarding;
    if (discarding !== undefined && discarding.discard!(packet)) {
      this.duplicatesDiscarded++;
      packets.free(packet);
      return;
    }
    if (this.latencyStats) {
      this.totalLatencyPs.add(now - packets.createdPs[packet]!);
      this.networkLatencyPs.add(now - packets.injectedPs[packet]!);
    }
    const messageId = packets.messageId[packet]!;
    const srcHost = packets.srcHost[packet]!;
    const payloadBytes = packets.payloadBytes[packet]!;
    const messageBytes = packets.messageBytes[packet]!;
    const sl = packets.sl[packet]!;
    if (this.reassembly.receive(srcHost, sl, messageId, payloadBytes, messageBytes)) {
      this.messageReceived(packet, messageId, now);
    }
    this.receiverPart?.onData?.(packet);
    this.listener?.(packet, now);
    packets.free(packet);
  }

  // `packet` completed message `messageId`.
  private messageReceived(packet: PacketId, messageId: number, now: TimePs): void {
    const packets = this.packets;
    const completion: MessageCompletion = {
      messageId,
      flowId: packets.flowId[packet]!,
      srcHost: packets.srcHost[packet]!,
      dstHost: packets.dstHost[packet]!,
      bytes: packets.messageBytes[packet]!,
      createdPs: packets.createdPs[packet]!,
      completedPs: now,
    };
    this.messagesCompleted++;
    if (this.keepCompletions) this.completions.push(completion);
    this.completionListener?.(completion);
  }

  // A control packet for this host's sender part: a link-local one (from the switch at the
  // other end of the link) to `onLinkControl`, others to `onControl`.
  private consumeControl(packet: PacketId, now: TimePs): void {
    this.listener?.(packet, now);
    const senderPart = this.senderPart;
    const linkLocal = this.packets.dstHost[packet] === LINK_LOCAL;
    if (linkLocal) senderPart?.onLinkControl?.(packet);
    else senderPart?.onControl?.(packet);
    this.packets.free(packet);
    if ((linkLocal ? senderPart?.onLinkControl : senderPart?.onControl) !== undefined) {
      this.sending.gatesMoved();
      this.tx.trySend(); // the control packet may have opened a window or moved a rate
    }
  }
}
