import type { Scheduler, TimePs } from "@cclab/core-des";
import {
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  InputBuffers,
  LINK_LOCAL,
  type Link,
  type LinkReceiver,
  type LinkSender,
  type LinkSet,
  NO_PACKET,
  type PacketColumn,
  type PacketId,
  type Packets,
  type PortFlowState,
  type PortView,
  type ReceiveTiming,
  type SwitchPart,
} from "@cclab/fabric";
import type { Arbiter, ArbitrationTarget } from "./arbiter.js";
import { ControlQueues } from "./control-queues.js";
import { Forwarding, noRouteError } from "./forwarding.js";
import { InputQueues } from "./input-queues.js";
import { createArbiter } from "./many-lane-arbiter.js";
import { OutputBuffers } from "./output-buffers.js";
import { SwitchPortView } from "./port-view.js";
import {
  arbiterLanesOf,
  inputCreditBlocksOf,
  pauseRuleOf,
  queueingPartOf,
  receiveTimingOf,
  type SwitchConfig,
} from "./switch-config.js";
import { combineParts, droppersByVl, type InstalledSwitchPart } from "./switch-parts.js";
import { MAX_SWITCH_PORTS, type SwitchKinds, type SwitchSetup, Target } from "./switch-setup.js";
import { type SwitchPortStats, switchPortStats } from "./switch-stats.js";

/**
 * The fields of an output port's record (`Switch.outPorts`), and its length: the link leaving
 * the port (−1: not cabled), whether it is transmitting, and the input, VL and size of the packet
 * it is sending. An enum: bundling writes its members as literals (module `const`s become `var`s
 * that V8 loads at every use; see core-des scheduler.ts).
 */
enum Out {
  Link = 0,
  Busy = 1,
  Input = 2,
  Vl = 3,
  Size = 4,
  Stride = 8,
}

/** The packet column in which `oldest-first` switches stamp a packet's arrival (ps). */
const ARRIVED_PS_COLUMN = "switch.arrivedPs";

export {
  MAX_SWITCH_PORTS,
  registerSwitchEvents,
  type SwitchKinds,
  type SwitchSetup,
} from "./switch-setup.js";
export type { SwitchPortStats } from "./switch-stats.js";

/**
 * An input-queued switch (docs/model.md, "Through a switch"): per-port, per-VL input buffers
 * organised by the queueing scheme; virtual cut-through or store-and-forward; round-robin over
 * input ports at each output (the "locally fair" policy, SRP paper L38 and Gran thesis L1115);
 * control lanes before data lanes, data lanes by weighted round-robin, low-priority lanes last;
 * `readPorts` packets per input at once. Without output buffers (the default) a packet holds its
 * input buffer until its last byte has left on the link; with them it crosses the crossbar at
 * `speedup` times the link rate into the output buffer, which then feeds the link.
 *
 * The switch is its event handlers over a few elements: the input buffers (`InputBuffers` of
 * @cclab/fabric), forwarding (`Forwarding`), the queues of each input, arbitration (`Arbiter`),
 * the output buffers (`OutputBuffers`), and the CC parts it runs.
 */
export class Switch implements LinkReceiver, LinkSender, ArbitrationTarget {
  readonly index: number;
  readonly name: string;
  readonly portCount: number;
  readonly vlCount: number;
  /** Credits / pause state of each output port's transmitter. */
  readonly outFlow: PortFlowState[] = [];
  /** The input buffers: bytes, credits and occupancy per input port and VL; the XOFF/XON rule. */
  readonly inputs: InputBuffers;
  /** The output buffers, when the switch has them. */
  readonly outputs: OutputBuffers | undefined;
  /** Packets a switch part dropped at a queue head (schemes that allow drops only). */
  droppedPackets = 0;
  readonly links: LinkSet;

  private readonly config: SwitchConfig;
  readonly scheduler: Scheduler;
  private readonly packets: Packets;
  private readonly kinds: SwitchKinds;
  readonly hostCount: number;
  private readonly forwarding: Forwarding;
  private readonly arbiter: Arbiter;
  /** Arrival time of each packet at this switch, ps: only with `oldest-first` arbitration. */
  private readonly arrivedPs: PacketColumn<Float64Array<ArrayBuffer>> | undefined;
  /**
   * Per output port, one record at `port * Out.Stride` (see Out): a transmission's start and end
   * read and write most of it, and one array per field cost a cache line each per event.
   */
  private readonly outPorts: Int32Array;
  /**
   * The packet last received on each input, and when its tail arrives. A packet cut through
   * before its tail arrived is always the last one its input received (the next one's header
   * cannot arrive before its tail), so this is all the tail timing forwarding needs: any other
   * packet's tail has arrived already.
   */
  private readonly lastInPacket: Int32Array;
  private readonly lastInTailPs: Float64Array;
  /** The queues of every input port and VL. */
  private readonly queues: InputQueues;
  private readonly control: ControlQueues;
  private part: SwitchPart | undefined = undefined;
  /** Per VL, the part that may drop heads there; undefined when no part drops. */
  private droppers: (SwitchPart | undefined)[] | undefined = undefined;
  /**
   * True while a switch part decides whether to drop a queue head: the arbiter is in the middle
   * of a walk, so a control packet the part sends then (SRP's NACK) is served by an event at the
   * same time instead of at once, which would arbitrate again over the head being dropped.
   */
  private deciding = false;

  constructor(setup: SwitchSetup) {
    const { portCount, config } = setup;
    if (portCount > MAX_SWITCH_PORTS) {
      throw new RangeError(`switch ${setup.name}: ${portCount} ports, at most ${MAX_SWITCH_PORTS}`);
    }
    this.index = setup.index;
    this.name = setup.name;
    this.portCount = portCount;
    this.vlCount = config.vlCount;
    this.hostCount = setup.hostCount;
    this.config = config;
    this.scheduler = setup.scheduler;
    this.packets = setup.packets;
    this.links = setup.links;
    this.kinds = setup.kinds;
    const pauseRule = pauseRuleOf(config, setup.discipline);
    this.inputs = new InputBuffers({
      portCount,
      vlCount: config.vlCount,
      discipline: setup.discipline,
      links: setup.links,
      ...(pauseRule === undefined ? {} : { pauseRule }),
      startPs: setup.scheduler.nowPs,
      occupancyBinNs: config.occupancyBinNs,
    });
    this.outputs = OutputBuffers.of(config, portCount);
    this.forwarding = new Forwarding(setup.table, setup.index, setup.rng);
    const lanes = arbiterLanesOf(config);
    this.arrivedPs =
      config.arbitration === "oldest-first"
        ? setup.packets.column(ARRIVED_PS_COLUMN, Float64Array)
        : undefined;
    this.arbiter = createArbiter(
      portCount,
      lanes,
      config.readPorts,
      setup.packets,
      this,
      this.arrivedPs,
    );
    this.outPorts = new Int32Array(portCount * Out.Stride);
    for (let port = 0; port < portCount; port++) this.outPorts[port * Out.Stride + Out.Link] = -1;
    this.lastInPacket = new Int32Array(portCount).fill(NO_PACKET);
    this.lastInTailPs = new Float64Array(portCount);
    this.queues = new InputQueues(portCount, config.vlCount, setup.packets);
    this.control = new ControlQueues(portCount);
    this.queues.build(queueingPartOf(config), [], this, this.name);
  }

  /** Credit blocks an input port holds per VL (what the upstream starts with). */
  inputCreditBlocks(): number {
    return inputCreditBlocksOf(this.config);
  }

  /** How packets arriving at this switch are handed over by the link. */
  receiveTiming(): ReceiveTiming {
    return receiveTimingOf(this.config);
  }

  /** Attaches the link leaving `port` and the link arriving at it. */
  attach(port: number, out: Link, incoming: Link): void {
    this.outPorts[port * Out.Stride + Out.Link] = out.index;
    this.inputs.attach(port, incoming.index);
    this.arbiter.outputFree(port);
    this.outFlow[port] = out.flow;
  }

  /**
   * Installs the CC switch parts this switch runs, in order, and builds its queues (a part may
   * build them, see `SwitchPart.createQueueSet`). Call before any packet arrives.
   */
  setParts(parts: readonly InstalledSwitchPart[]): void {
    this.part = combineParts(parts, this.packets, this.vlCount);
    this.droppers = droppersByVl(parts, this.vlCount, this.name);
    this.queues.build(queueingPartOf(this.config), parts, this, this.name);
  }

  /** The switch part of the CC scheme (several combined), if any (for reading its counters). */
  get ccPart(): SwitchPart | undefined {
    return this.part;
  }

  /** A read-only view of one port, for switch parts of CC schemes. */
  portView(port: number): PortView {
    return new SwitchPortView(port, this.vlCount, this.inputs, this.outFlow, this);
  }

  /** True while `port`'s transmitter is sending a packet. */
  isTransmitting(port: number): boolean {
    return this.outPorts[port * Out.Stride + Out.Busy] === 1;
  }

  /** The link leaving `port`, or −1 where none is cabled. */
  outLink(port: number): number {
    return this.outPorts[port * Out.Stride + Out.Link]!;
  }

  // --- events -------------------------------------------------------------------------------

  receivePacket(packet: PacketId, inPort: number, tailArrivalPs: TimePs): void {
    const packets = this.packets;
    this.lastInPacket[inPort] = packet;
    this.lastInTailPs[inPort] = tailArrivalPs;
    packets.hops[packet]!++;
    const out = this.route(packet);
    if (out < 0) {
      this.receiveUnrouted(packet, inPort);
      return;
    }
    packets.outPort[packet] = out;
    const vl = packets.vl[packet]!;
    if (this.arrivedPs !== undefined) this.arrivedPs.values[packet] = this.scheduler.nowPs;
    this.inputs.arrive(inPort, vl, packets.sizeBytes[packet]!, this.scheduler.nowPs);
    this.queues.enqueue(inPort, vl, out, packet);
    this.arbiter.queued(inPort, out, vl);
    this.part?.onEnqueue?.(packet, inPort);
    this.serveOutput(out);
  }

  flowControlChanged(port: number): void {
    this.serveOutput(port);
  }

  /** Event handler: the packet on `outPort`'s link has left completely. */
  transmissionEnded(outPort: number): void {
    const o = outPort * Out.Stride;
    const source = this.outPorts[o + Out.Input]!;
    this.outPorts[o + Out.Busy] = 0;
    const outputs = this.outputs;
    if (outputs === undefined) this.arbiter.outputFree(outPort);
    if (source >= 0) {
      this.releaseInput(source, this.outPorts[o + Out.Vl]!, this.outPorts[o + Out.Size]!);
    } else if (source === FROM_OUTPUT_BUFFER) {
      const vl = this.outPorts[o + Out.Vl]!;
      outputs!.sent(outPort, vl, this.outPorts[o + Out.Size]!, this.scheduler.nowPs);
    }
    this.serveOutput(outPort);
    if (source >= 0) this.arbiter.serveInput(source);
  }

  /** Event handler: a packet has crossed the crossbar into `outPort`'s output buffer. */
  transferEnded(outPort: number): void {
    const outputs = this.outputs!;
    const input = outputs.crossingFrom(outPort);
    const packet = outputs.crossingPacketOf(outPort);
    const vl = this.packets.vl[packet]!;
    this.arbiter.outputFree(outPort);
    this.releaseInput(input, vl, this.packets.sizeBytes[packet]!);
    outputs.endCrossing(outPort, vl);
    this.serveOutput(outPort);
    this.arbiter.serveInput(input);
  }

  /** Sends a control packet routed by its `dstHost`, ahead of data (switch parts of CC schemes). */
  sendControl(packet: PacketId): void {
    const out = this.route(packet);
    if (out < 0) throw noRouteError(this.name, this.packets, packet);
    this.packets.outPort[packet] = out;
    this.queueControl(out, packet);
  }

  /** Sends a link-local control packet out of `port`, ahead of data (see `LINK_LOCAL`). */
  sendOnPort(port: number, packet: PacketId): void {
    if (!(port >= 0 && port < this.portCount) || this.outPorts[port * Out.Stride + Out.Link]! < 0) {
      throw new RangeError(`switch ${this.name}: port ${port} is not cabled; cannot send on it`);
    }
    this.packets.dstHost[packet] = LINK_LOCAL;
    this.packets.outPort[packet] = port;
    this.queueControl(port, packet);
  }

  /** Makes `outPort` arbitrate again now (a queue a part held back may go). */
  wake(outPort: number): void {
    this.serveOutput(outPort);
  }

  private queueControl(out: number, packet: PacketId): void {
    this.control.push(out, packet);
    if (!this.deciding) this.serveOutput(out);
    else {
      const now = this.scheduler.nowPs;
      this.scheduler.schedule(now, this.kinds.controlQueued, (this.index << Target.PortBits) | out);
    }
  }

  /** Event handler: a control packet a part sent while deciding a drop waits on `outPort`. */
  controlQueued(outPort: number): void {
    this.serveOutput(outPort);
  }

  /** Event handler: heads of `input` were dropped; what is at its queue heads now may go. */
  headDropped(input: number): void {
    this.arbiter.serveInput(input);
  }

  // A packet the forwarding table has no port for: a link-local control packet for the
  // switch's parts (its buffer is returned at once), or a routing error.
  private receiveUnrouted(packet: PacketId, inPort: number): void {
    const packets = this.packets;
    if (packets.dstHost[packet] !== LINK_LOCAL) throw noRouteError(this.name, packets, packet);
    const vl = packets.vl[packet]!;
    const size = packets.sizeBytes[packet]!;
    const now = this.scheduler.nowPs;
    this.inputs.arrive(inPort, vl, size, now);
    this.inputs.leave(inPort, vl, size, now);
    this.part?.onLinkControl?.(packet, inPort);
    packets.free(packet);
  }

  // The output the table gives `packet`, or −1 where it gives none or that port is not cabled.
  private route(packet: PacketId): number {
    const out = this.forwarding.outPort(this.packets, packet);
    return out >= 0 && this.outPorts[out * Out.Stride + Out.Link]! >= 0 ? out : -1;
  }

  // --- arbitration (the Arbiter decides; these are the switch's side of it) -----------------

  // Without output buffers the link and the crossbar output are one resource: a free output
  // sends a waiting control packet, else grants an input. With output buffers the link drains
  // the output buffer while the crossbar output refills it.
  private serveOutput(out: number): void {
    if (this.outPorts[out * Out.Stride + Out.Link]! < 0) return;
    const outputs = this.outputs;
    if (outputs !== undefined) {
      if (this.outPorts[out * Out.Stride + Out.Busy] === 0 && !this.sendWaitingControl(out)) {
        this.arbiter.serveLanes(out, true);
      }
      if (!outputs.isCrossing(out)) this.arbiter.serveLanes(out, false);
    } else if (this.outPorts[out * Out.Stride + Out.Busy] === 0 && !this.sendWaitingControl(out)) {
      this.arbiter.serveLanes(out, false);
    }
  }

  private sendWaitingControl(out: number): boolean {
    const packet = this.control.peek(out);
    if (packet === NO_PACKET) return false;
    const l = this.outPorts[out * Out.Stride + Out.Link]!;
    if (!this.links.canSend(l, this.packets.vl[packet]!, this.packets.sizeBytes[packet]!)) {
      return false;
    }
    this.control.shift(out);
    this.startOnLink(out, FROM_SWITCH_CONTROL, packet);
    return true;
  }

  /** The head an input would send to `out` on `vl`, after a part dropped what it may drop. */
  headFor(input: number, vl: number, out: number): PacketId {
    const queues = this.queues;
    let packet = queues.head(input, vl, out);
    const droppers = this.droppers;
    if (droppers === undefined) return packet;
    const dropper = droppers[vl];
    if (dropper === undefined) return packet;
    let dropped = false;
    while (packet !== NO_PACKET && this.dropsAtHead(dropper, packet, input, out, vl)) {
      queues.dequeue(input, vl, out);
      this.arbiter.dequeued(input, out, vl);
      this.part?.onDequeue?.(packet, input);
      this.droppedPackets++;
      this.inputs.leave(input, vl, this.packets.sizeBytes[packet]!, this.scheduler.nowPs);
      packet = queues.head(input, vl, out);
      dropped = true;
    }
    // In a FIFO the head behind a dropped one may be for another output, which may be idle
    // and has no event of its own to look again: the input offers its heads once this
    // arbitration is over (an event at the same time, as for a NACK sent during the drop).
    if (dropped && packet === NO_PACKET) {
      const now = this.scheduler.nowPs;
      this.scheduler.schedule(now, this.kinds.headDropped, (this.index << Target.PortBits) | input);
    }
    return packet;
  }

  private dropsAtHead(
    dropper: SwitchPart,
    packet: PacketId,
    input: number,
    out: number,
    vl: number,
  ): boolean {
    const hasRoom = this.hasRoom(out, vl, this.packets.sizeBytes[packet]!);
    this.deciding = true;
    try {
      return dropper.dropAtHead!(packet, input, hasRoom);
    } finally {
      this.deciding = false;
    }
  }

  /** Room past the crossbar: credits or no pause on the link, or space in the output buffer. */
  hasRoom(out: number, vl: number, sizeBytes: number): boolean {
    const outputs = this.outputs;
    if (outputs === undefined) {
      return this.links.canSend(this.outPorts[out * Out.Stride + Out.Link]!, vl, sizeBytes);
    }
    return outputs.hasRoom(out, vl, sizeBytes);
  }

  /** Flow control holds `out`'s link on `vl` (ON/OFF); an output buffer is not flow control. */
  blocked(out: number, vl: number): void {
    if (this.outputs === undefined) {
      this.links.markBlocked(this.outPorts[out * Out.Stride + Out.Link]!, vl, this.scheduler.nowPs);
    }
  }

  /** Takes the head {@link headFor} gave out of its queue. */
  dequeue(input: number, vl: number, out: number): void {
    this.queues.dequeue(input, vl, out);
  }

  forward(out: number, input: number, packet: PacketId): void {
    this.part?.onDequeue?.(packet, input);
    this.arbiter.takeReadPort(input);
    if (this.outputs !== undefined) this.startTransfer(out, input, packet);
    else this.startOnLink(out, input, packet);
  }

  // docs/model.md: with output buffers and speedup s a packet crosses in ser(size)/s and leaves
  // the input buffer then. It cannot finish crossing before its tail has arrived.
  private startTransfer(out: number, input: number, packet: PacketId): void {
    const now = this.scheduler.nowPs;
    const size = this.packets.sizeBytes[packet]!;
    this.arbiter.outputBusy(out);
    this.outputs!.startCrossing(out, input, packet, this.packets.vl[packet]!, size, now);
    const l = this.outPorts[out * Out.Stride + Out.Link]!;
    const crossed = now + Math.ceil(this.links.serPs(l, size) / this.config.speedup);
    const tail = this.tailArrivalPs(input, packet);
    const endPs = tail > crossed ? tail : crossed;
    this.scheduler.schedule(endPs, this.kinds.transferEnd, (this.index << Target.PortBits) | out);
  }

  /** The link stage of an output buffer: sends the buffer's head on `vl` if it may go. */
  sendBuffered(out: number, vl: number): boolean {
    const outputs = this.outputs!;
    const packet = outputs.head(out, vl);
    if (packet === NO_PACKET) return false;
    const l = this.outPorts[out * Out.Stride + Out.Link]!;
    if (!this.links.canSend(l, vl, this.packets.sizeBytes[packet]!)) {
      this.links.markBlocked(l, vl, this.scheduler.nowPs);
      return false;
    }
    outputs.shift(out, vl);
    this.startOnLink(out, FROM_OUTPUT_BUFFER, packet);
    return true;
  }

  private startOnLink(out: number, source: number, packet: PacketId): void {
    const links = this.links;
    const o = out * Out.Stride;
    const l = this.outPorts[o + Out.Link]!;
    const now = this.scheduler.nowPs;
    const vl = this.packets.vl[packet]!;
    const size = this.packets.sizeBytes[packet]!;
    links.consume(l, vl, size);
    links.markUnblocked(l, vl, now);
    this.outPorts[o + Out.Busy] = 1;
    if (this.outputs === undefined) this.arbiter.outputBusy(out);
    this.outPorts[o + Out.Input] = source;
    this.outPorts[o + Out.Vl] = vl;
    this.outPorts[o + Out.Size] = size;
    // docs/model.md: a packet cut through before its tail arrived cannot finish before it does.
    const serialized = now + links.serPs(l, size);
    const tail = source >= 0 ? this.tailArrivalPs(source, packet) : 0;
    const endPs = tail > serialized ? tail : serialized;
    this.part?.onTransmit?.(packet, source, out);
    links.transmit(l, packet, endPs);
    this.scheduler.schedule(endPs, this.kinds.txEnd, (this.index << Target.PortBits) | out);
  }

  // When the tail of `packet`, received on `input`, arrives; 0 when it has (see `lastInTailPs`).
  private tailArrivalPs(input: number, packet: PacketId): TimePs {
    return this.lastInPacket[input] === packet ? this.lastInTailPs[input]! : 0;
  }

  // The packet's last byte has left the input buffer: its read port and buffer are free, and
  // its credits go back or XON is checked (docs/model.md, "Flow control").
  private releaseInput(input: number, vl: number, size: number): void {
    this.arbiter.releaseReadPort(input);
    this.inputs.leave(input, vl, size, this.scheduler.nowPs);
  }

  /** Counters per port, with occupancy means up to `untilPs`. */
  portStats(untilPs: number): SwitchPortStats[] {
    return switchPortStats(this, untilPs);
  }
}
