import {
  nsToPs,
  type RngStream,
  type Scheduler,
  type TimePs,
  TimeWeightedAverage,
} from "@cclab/core-des";
import {
  creditBlocks,
  type FlowControlDiscipline,
  type ForwardingTable,
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  type InputQueueSet,
  IntFifo,
  type Link,
  type LinkReceiver,
  type LinkSender,
  type LinkSet,
  NO_PACKET,
  PacketChains,
  type PacketId,
  type Packets,
  type PortFlowState,
  type PortView,
  type ReceiveTiming,
  type SwitchPart,
} from "@cclab/fabric";
import { flowHashModulo } from "./flow-hash.js";
import { voqPerOutput } from "./queues/voq-port.js";
import { queueingPartOf, type SwitchConfig } from "./switch-config.js";

// Constants of the hot paths are enum members, which bundling writes as literals (module
// `const`s become `var`s that V8 loads at every use; see core-des scheduler.ts).

/** Port selection rules (ForwardingTable["selection"]) as codes. */
enum Select {
  First = 0,
  Hash = 1,
  Random = 2,
}

/** The fields of an input occupancy record (`Switch.occ`), and its length. */
enum Occ {
  Area = 0,
  LastPs = 1,
  Max = 2,
  Stride = 4,
}

/**
 * The fields of an output port's record (`Switch.outPorts`), and its length: the link leaving
 * the port (−1: not cabled), whether it is transmitting, the input, VL and size of the packet it
 * is sending, and where its round robin over inputs starts.
 */
enum Out {
  Link = 0,
  Busy = 1,
  Input = 2,
  Vl = 3,
  Size = 4,
  Rr = 5,
  Stride = 8,
}

/**
 * The fields of an input port's record (`Switch.inPorts`), and its length: the link arriving at
 * the port (−1: not cabled), the packet last received there (see `Switch.lastInTailPs`), its
 * read ports in use, and where its round robin over outputs starts.
 */
enum In {
  Link = 0,
  LastPacket = 1,
  ReadBusy = 2,
  Rr = 3,
  Stride = 4,
}

/** Ports per switch the event target encoding allows (target = switch << 10 | port). */
export const MAX_SWITCH_PORTS = 1024;
/** A switch port's event target is `switch << PortBits | port`. */
enum Target {
  PortBits = 10,
}

/** The switch event kinds, registered once per scheduler by {@link registerSwitchEvents}. */
export interface SwitchKinds {
  readonly txEnd: number;
  readonly transferEnd: number;
}

/** Everything a switch needs from the network that builds it. */
export interface SwitchSetup {
  readonly index: number;
  readonly name: string;
  readonly portCount: number;
  readonly hostCount: number;
  readonly config: SwitchConfig;
  readonly discipline: FlowControlDiscipline;
  readonly table: ForwardingTable;
  readonly scheduler: Scheduler;
  /** The network's packets. */
  readonly packets: Packets;
  /** The network's links (the switch sends on and returns flow control over them). */
  readonly links: LinkSet;
  /** Used by `random` port selection. */
  readonly rng: RngStream;
  /** Event kinds registered by {@link registerSwitchEvents}. */
  readonly kinds: SwitchKinds;
}

/** Per-port counters of a switch (MODEL.md, "What is measured"). */
export interface SwitchPortStats {
  readonly port: number;
  readonly bytesForwarded: number;
  readonly packetsForwarded: number;
  /** Per VL: time the output had a packet ready but was held by flow control, ps. */
  readonly blockedPs: readonly number[];
  /** Per VL: ON→OFF transitions of the output. */
  readonly offTransitions: readonly number[];
  /** Per VL: time-weighted mean and maximum input-buffer occupancy, bytes. */
  readonly meanInputBytes: readonly number[];
  readonly maxInputBytes: readonly number[];
  /** Per VL: mean input occupancy in each bin, bytes (only with `occupancyBinNs`). */
  readonly inputBytesSeries?: readonly Float64Array[];
  /** Per VL: highest output-buffer occupancy, bytes (only with output buffers). */
  readonly maxOutputBytes?: readonly number[];
  /** Per VL: mean output-buffer occupancy in each bin, bytes (output buffers and `occupancyBinNs`). */
  readonly outputBytesSeries?: readonly Float64Array[];
}

/**
 * An input-queued switch (MODEL.md, "Through a switch"): per-port, per-VL input buffers
 * organised by the queueing scheme; virtual cut-through or store-and-forward; round-robin
 * over input ports at each output (the "locally fair" policy, SRP paper L38 and Gran thesis
 * L1115); control VLs before data VLs, data VLs round-robin; `readPorts` packets per input
 * at once. Without output buffers (the default) a packet holds its input buffer until its last
 * byte has left on the link; with them it crosses the crossbar at `speedup` times the link
 * rate into the output buffer, which then feeds the link.
 */
export class Switch implements LinkReceiver, LinkSender {
  readonly index: number;
  readonly name: string;
  readonly portCount: number;
  readonly vlCount: number;
  /** Credits / pause state of each output port's transmitter. */
  readonly outFlow: PortFlowState[] = [];
  /** Bytes buffered per input port and VL, at `[port * vlCount + vl]`. */
  readonly inputBytes: Float64Array;
  /**
   * Credit blocks held per input port and VL (credit conservation checks read it). Kept under
   * credit flow control only: under PFC it stays 0 (two updates per hop that nothing reads).
   */
  readonly inputBlocks: Int32Array;
  /** Bytes in (or crossing into) each output buffer, at `[port * vlCount + vl]`. */
  readonly outputBytes: Float64Array;
  /** Highest output-buffer occupancy per output port and VL, and its binned series (if asked). */
  private readonly outputMax: Float64Array;
  private readonly outputSeries: TimeWeightedAverage[] | undefined;
  /** Total bytes buffered in the switch's input buffers. */
  bufferedBytes = 0;
  /** Highest total ever buffered, bytes. */
  maxBufferedBytes = 0;
  /** Packets the switch part dropped at a queue head (schemes that allow drops only). */
  droppedPackets = 0;

  private readonly config: SwitchConfig;
  private readonly discipline: FlowControlDiscipline;
  private readonly scheduler: Scheduler;
  private readonly packets: Packets;
  private readonly links: LinkSet;
  private readonly rng: RngStream;
  private readonly kinds: SwitchKinds;
  /** True when the switch has output buffers (and a crossbar stage in front of them). */
  private readonly buffered: boolean;
  private readonly outQueues: IntFifo[] = [];
  private readonly xbarBusy: Uint8Array;
  private readonly xbarInput: Int32Array;
  private readonly xbarPacket: Int32Array;
  private readonly xbarVlRr: Int32Array;
  /**
   * Per output port, one record at `port * Out.Stride` (see Out): a transmission's start and end
   * read and write most of it, and one array per field cost a cache line each per event.
   */
  private readonly outPorts: Int32Array;
  /** Per input port, one record at `port * In.Stride` (see In), for the same reason. */
  private readonly inPorts: Int32Array;
  /**
   * When the tail of the packet last received on each input arrives. A packet cut through
   * before its tail arrived is always the last one its input received (the next one's header
   * cannot arrive before its tail), so this is all the tail timing forwarding needs: any other
   * packet's tail has arrived already.
   */
  private readonly lastInTailPs: Float64Array;
  /**
   * The queue sets of a plug-in queueing scheme, per (input, VL); empty with the built-in VOQ
   * per output, which lives in `voq` instead.
   */
  private readonly queues: InputQueueSet[] = [];
  /**
   * VOQ per output port (`queueing: voq-port`, the default) as one set of chains: the queue of
   * (input, VL) for output `out` is chain `k = (input * vlCount + vl) * portCount + out`. The
   * same queues as the `VoqPerOutput` queue set, whose one object with arrays of its own per
   * (input, VL) cost several cache misses per hop on a large fabric.
   */
  private readonly voq: PacketChains | undefined;
  /** Control packets waiting in `controlQueues`, all ports: mostly none, and then no port is looked at. */
  private controlWaiting = 0;
  /**
   * Time-weighted input occupancy per (port, VL) `q`, a record of 4 numbers at `q * 4`: the
   * area under the curve up to the time of the last change, that time, and the maximum (the
   * fourth is unused). Two of these updates per packet-hop; one object per queue (a
   * TimeWeightedAverage) measured slower on large fabrics, where queues miss the cache, and so
   * did one array per field (three cache lines per update instead of one).
   */
  private readonly occ: Float64Array;
  private readonly occStartPs: number;
  /** Binned occupancy, only with `occupancyBinNs`. */
  private readonly occupancySeries: TimeWeightedAverage[] | undefined;
  private readonly outVlRr: Int32Array;
  private readonly controlQueues: IntFifo[] = [];
  private readonly controlVlList: Int32Array;
  private readonly dataVlList: Int32Array;
  /** Weighted round-robin weight of each entry of `dataVlList`, in packets. */
  private readonly dataVlWeights: Int32Array;
  private readonly outVlServed: Int32Array;
  private readonly xbarVlServed: Int32Array;
  /**
   * The XOFF rule of every packet arrival under PFC, as numbers (see `xoffThreshold`): with a
   * shared buffer a queue pauses above `xoffAlpha × (xoffSharedBytes − bufferedBytes)` (dynamic
   * threshold), with partitioned buffers above `xoffBytes` (`xoffAlpha` 0). Read through the
   * config object, the threshold function was not inlined by V8 and returned a heap
   * number allocated per packet-hop (uniform256 with DCQCN: 2 % of the run's profile on that
   * one line).
   */
  private readonly xoffAlpha: number;
  private readonly xoffSharedBytes: number;
  private readonly xoffBytes: number;
  /** 1 where this switch has paused the upstream of (port, VL) (PFC). */
  private readonly pausedUpstream: Uint8Array;
  /** Entries of `pausedUpstream` that are 1: lets XON checks skip the scan when none is. */
  private pausedCount = 0;
  /**
   * Packets in the input queues routed to each output and VL, at `[out * vlCount + vl]`. A
   * queue set's `headFor(out)` only returns a packet routed to `out`, so where this is 0 no
   * input can offer one: arbitration skips the scan over inputs (hot loop, DESIGN.md).
   */
  private readonly waitingFor: Int32Array;
  /**
   * The same per input: packets of input `i` routed to (out, VL), at
   * `[(out * vlCount + vl) * portCount + i]`. Arbitration asks a queue set for a head only
   * where this is not 0 (portCount² × vlCount entries: small beside the VOQs themselves).
   */
  private readonly pairWaiting: Int32Array;
  /**
   * Bit sets over ports (`maskWords` 32-bit words each) that let arbitration visit only the
   * ports that matter, in the same round-robin order as a scan over all of them would:
   * - `pairMask[(out * vlCount + vl) * maskWords + w]`: inputs with packets for (out, VL);
   * - `inputMask[input * maskWords + w]`: outputs `input` has packets for, on any VL
   *   (`inputOutCount[input * portCount + out]` counts them);
   * - `readFree`: inputs with a free read port;
   * - `crossbarFree`: cabled outputs whose crossbar side is free (the link without output
   *   buffers, the crossbar transfer with them).
   */
  private readonly maskWords: number;
  private readonly pairMask: Int32Array;
  private readonly inputMask: Int32Array;
  private readonly inputOutCount: Int32Array;
  private readonly readFree: Int32Array;
  private readonly crossbarFree: Int32Array;
  /**
   * The forwarding table flattened: destination `d`'s candidate ports are the `routeCount[d]`
   * entries of `routePorts` from `routeStart[d]`, and the selection rule is a code (an array of
   * arrays and a string compare per packet measured 5 % of uniform256's time). Destinations
   * that share a candidate list (the routing builders reuse one array per distinct list) share
   * its entries: a leaf sends most destinations up the same ports.
   */
  private readonly selection: number;
  private readonly routeStart: Int32Array;
  private readonly routeCount: Int32Array;
  private readonly routePorts: Int32Array;
  private part: SwitchPart | undefined = undefined;

  constructor(setup: SwitchSetup) {
    const { portCount, config } = setup;
    if (portCount > MAX_SWITCH_PORTS) {
      throw new RangeError(`switch ${setup.name}: ${portCount} ports, at most ${MAX_SWITCH_PORTS}`);
    }
    this.index = setup.index;
    this.name = setup.name;
    this.portCount = portCount;
    this.vlCount = config.vlCount;
    this.config = config;
    this.discipline = setup.discipline;
    this.scheduler = setup.scheduler;
    this.packets = setup.packets;
    this.links = setup.links;
    this.rng = setup.rng;
    this.kinds = setup.kinds;
    this.buffered = config.outputBufferBytes > 0;
    const buffer = config.buffer;
    this.xoffAlpha = buffer.model === "shared" ? buffer.alpha : 0;
    this.xoffSharedBytes = buffer.model === "shared" ? buffer.sharedBytes : 0;
    this.xoffBytes = config.pfc?.xoffBytes ?? Number.POSITIVE_INFINITY;
    const v = config.vlCount;
    this.inputBytes = new Float64Array(portCount * v);
    this.inputBlocks = new Int32Array(portCount * v);
    this.pausedUpstream = new Uint8Array(portCount * v);
    this.waitingFor = new Int32Array(portCount * v);
    this.occ = new Float64Array(portCount * v * Occ.Stride);
    this.occStartPs = setup.scheduler.nowPs;
    for (let q = 0; q < portCount * v; q++) this.occ[q * Occ.Stride + Occ.LastPs] = this.occStartPs;
    this.occupancySeries = config.occupancyBinNs === null ? undefined : [];
    this.pairWaiting = new Int32Array(portCount * portCount * v);
    const words = (portCount + 31) >>> 5;
    this.maskWords = words;
    this.pairMask = new Int32Array(portCount * v * words);
    this.inputMask = new Int32Array(portCount * words);
    this.inputOutCount = new Int32Array(portCount * portCount);
    this.readFree = new Int32Array(words);
    for (let port = 0; port < portCount; port++) setBit(this.readFree, 0, port);
    this.crossbarFree = new Int32Array(words);
    this.outPorts = new Int32Array(portCount * Out.Stride);
    this.inPorts = new Int32Array(portCount * In.Stride);
    this.lastInTailPs = new Float64Array(portCount);
    for (let port = 0; port < portCount; port++) {
      this.outPorts[port * Out.Stride + Out.Link] = -1;
      this.inPorts[port * In.Stride + In.Link] = -1;
      this.inPorts[port * In.Stride + In.LastPacket] = NO_PACKET;
    }
    this.xbarBusy = new Uint8Array(portCount);
    this.xbarInput = new Int32Array(portCount);
    this.xbarPacket = new Int32Array(portCount).fill(NO_PACKET);
    this.xbarVlRr = new Int32Array(portCount);
    this.outputBytes = new Float64Array(portCount * v);
    this.outputMax = new Float64Array(portCount * v);
    this.outputSeries =
      this.buffered && config.occupancyBinNs !== null
        ? Array.from(
            { length: portCount * v },
            () => new TimeWeightedAverage({ binWidthPs: nsToPs(config.occupancyBinNs!) }),
          )
        : undefined;
    this.outVlRr = new Int32Array(portCount);
    const control = config.controlVls;
    this.controlVlList = Int32Array.from(control);
    this.dataVlList = Int32Array.from(
      Array.from({ length: v }, (_, vl) => vl).filter((vl) => !control.includes(vl)),
    );
    this.dataVlWeights = Int32Array.from(this.dataVlList, (vl) => config.vlWeights?.[vl] ?? 1);
    this.outVlServed = new Int32Array(portCount);
    this.xbarVlServed = new Int32Array(portCount);
    const queueing = queueingPartOf(config);
    const flatVoq = queueing === voqPerOutput;
    this.voq = flatVoq ? new PacketChains(portCount * v * portCount, setup.packets) : undefined;
    for (let port = 0; port < portCount; port++) {
      this.controlQueues.push(new IntFifo(2));
      for (let vl = 0; vl < v; vl++) this.outQueues.push(new IntFifo(4));
      for (let vl = 0; vl < v; vl++) {
        if (!flatVoq) {
          this.queues.push(
            queueing.create({
              switchIndex: setup.index,
              inPort: port,
              vl,
              portCount,
              hostCount: setup.hostCount,
              packets: setup.packets,
            }),
          );
        }
        if (config.occupancyBinNs !== null) {
          this.occupancySeries!.push(
            new TimeWeightedAverage({ binWidthPs: nsToPs(config.occupancyBinNs) }),
          );
        }
      }
    }
    const table = setup.table;
    this.selection =
      table.selection === "first"
        ? Select.First
        : table.selection === "flow-hash"
          ? Select.Hash
          : Select.Random;
    // Each distinct list is copied once. A copy per destination made a leaf of an 8192-host
    // leaf–spine hold 524 k entries (268 MB over its 128 leaves); `Int32Array.from` over the
    // flattened lists went through an iterator per entry (4.3 s of an 8.8 s `cclab validate`
    // at 4096 hosts).
    const candidates = table.candidates;
    this.routeStart = new Int32Array(candidates.length);
    this.routeCount = new Int32Array(candidates.length);
    const startOf = new Map<readonly number[], number>();
    let entries = 0;
    for (const list of candidates) {
      if (!startOf.has(list)) {
        startOf.set(list, entries);
        entries += list.length;
      }
    }
    this.routePorts = new Int32Array(entries);
    for (const [list, start] of startOf) this.routePorts.set(list, start);
    for (let d = 0; d < candidates.length; d++) {
      this.routeStart[d] = startOf.get(candidates[d]!)!;
      this.routeCount[d] = candidates[d]!.length;
    }
  }

  /** Credit blocks an input port holds per VL (what the upstream starts with). */
  inputCreditBlocks(): number {
    const buffer = this.config.buffer;
    return buffer.model === "partitioned" ? Math.floor(buffer.bytesPerPortVl / 64) : 0;
  }

  /** How packets arriving at this switch are handed over by the link. */
  receiveTiming(): ReceiveTiming {
    return {
      cutThroughBytes:
        this.config.switching === "vct" ? this.config.headerBytes : Number.POSITIVE_INFINITY,
      processingPs: nsToPs(this.config.routingLatencyNs),
    };
  }

  /** Attaches the link leaving `port` and the link arriving at it. */
  attach(port: number, out: Link, incoming: Link): void {
    this.outPorts[port * Out.Stride + Out.Link] = out.index;
    this.inPorts[port * In.Stride + In.Link] = incoming.index;
    setBit(this.crossbarFree, 0, port);
    this.outFlow[port] = out.flow;
  }

  setPart(part: SwitchPart | undefined): void {
    this.part = part;
  }

  /** The switch part of the CC scheme, if any (for reading its counters). */
  get ccPart(): SwitchPart | undefined {
    return this.part;
  }

  /** A read-only view of one port, for switch parts of CC schemes. */
  portView(port: number): PortView {
    return new SwitchPortView(port, this.vlCount, this.inputBytes, this.outFlow, this.outPorts);
  }

  // --- events -------------------------------------------------------------------------------

  receivePacket(packet: PacketId, inPort: number, tailArrivalPs: TimePs): void {
    const packets = this.packets;
    this.inPorts[inPort * In.Stride + In.LastPacket] = packet;
    this.lastInTailPs[inPort] = tailArrivalPs;
    packets.hops[packet]!++;
    const out = this.route(packet);
    packets.outPort[packet] = out;
    const vl = packets.vl[packet]!;
    const size = packets.sizeBytes[packet]!;
    const q = inPort * this.vlCount + vl;
    this.addBytes(q, size);
    this.enqueue(inPort, vl, out, packet);
    this.countQueued(inPort, out, vl);
    if (this.discipline === "pfc") this.checkXoff(inPort, vl, q);
    else this.inputBlocks[q]! += creditBlocks(size);
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
    if (!this.buffered) setBit(this.crossbarFree, 0, outPort);
    if (source >= 0) {
      this.releaseInput(source, this.outPorts[o + Out.Vl]!, this.outPorts[o + Out.Size]!);
    } else if (source === FROM_OUTPUT_BUFFER) {
      this.addOutputBytes(
        outPort * this.vlCount + this.outPorts[o + Out.Vl]!,
        -this.outPorts[o + Out.Size]!,
      );
    }
    this.serveOutput(outPort);
    if (source >= 0) this.serveInput(source);
  }

  /** Event handler: a packet has crossed the crossbar into `outPort`'s output buffer. */
  transferEnded(outPort: number): void {
    const input = this.xbarInput[outPort]!;
    const packet = this.xbarPacket[outPort]!;
    const vl = this.packets.vl[packet]!;
    this.xbarPacket[outPort] = NO_PACKET;
    this.xbarBusy[outPort] = 0;
    setBit(this.crossbarFree, 0, outPort);
    this.releaseInput(input, vl, this.packets.sizeBytes[packet]!);
    this.outQueues[outPort * this.vlCount + vl]!.push(packet);
    this.serveOutput(outPort);
    this.serveInput(input);
  }

  /** Sends a control packet routed by its `dstHost`, ahead of data (switch parts of CC schemes). */
  sendControl(packet: PacketId): void {
    const out = this.route(packet);
    this.packets.outPort[packet] = out;
    this.controlQueues[out]!.push(packet);
    this.controlWaiting++;
    this.serveOutput(out);
  }

  // --- arbitration ----------------------------------------------------------------------------

  // Without output buffers the link and the crossbar output are one resource: a free output
  // sends a waiting control packet, else grants an input. With output buffers the link drains
  // the output buffer while the crossbar output refills it.
  private serveOutput(out: number): void {
    if (this.outPorts[out * Out.Stride + Out.Link]! < 0) return;
    if (this.buffered) {
      if (this.outPorts[out * Out.Stride + Out.Busy] === 0) this.serveLink(out);
      if (this.xbarBusy[out] === 0) this.arbitrate(out);
    } else if (this.outPorts[out * Out.Stride + Out.Busy] === 0 && !this.sendWaitingControl(out)) {
      this.arbitrate(out);
    }
  }

  private sendWaitingControl(out: number): boolean {
    if (this.controlWaiting === 0) return false;
    const control = this.controlQueues[out]!;
    if (control.length === 0) return false;
    const packet = control.peek();
    const l = this.outPorts[out * Out.Stride + Out.Link]!;
    if (!this.links.canSend(l, this.packets.vl[packet]!, this.packets.sizeBytes[packet]!)) {
      return false;
    }
    control.shift();
    this.controlWaiting--;
    this.startOnLink(out, FROM_SWITCH_CONTROL, packet);
    return true;
  }

  // An output that is free grants, round-robin over input ports, the first input with a
  // packet for it at a queue head, a free read port and downstream room (MODEL.md,
  // "Arbitration").
  private arbitrate(out: number): void {
    this.serveVls(out, false);
  }

  // VL arbitration, for the crossbar stage (`linkStage` false: grant an input) or the link of
  // an output buffer (true: send the buffer's head): control VLs first, in order, then data
  // VLs round-robin, each stage with its own round-robin pointer.
  private serveVls(out: number, linkStage: boolean): boolean {
    const controlVls = this.controlVlList;
    for (let k = 0; k < controlVls.length; k++) {
      const vl = controlVls[k]!;
      if (linkStage ? this.sendBuffered(out, vl) : this.grant(out, vl)) return true;
    }
    // Weighted round-robin: the VL under the pointer keeps it for `weight` packets in a row.
    const rr = linkStage ? this.outVlRr : this.xbarVlRr;
    const served = linkStage ? this.outVlServed : this.xbarVlServed;
    const dataVls = this.dataVlList;
    const weights = this.dataVlWeights;
    const n = dataVls.length;
    const first = rr[out]!;
    for (let k = 0; k < n; k++) {
      const j = first + k < n ? first + k : first + k - n;
      const vl = dataVls[j]!;
      if (linkStage ? this.sendBuffered(out, vl) : this.grant(out, vl)) {
        const count = k === 0 ? served[out]! + 1 : 1;
        if (count >= weights[j]!) {
          rr[out] = j + 1 < n ? j + 1 : 0;
          served[out] = 0;
        } else {
          rr[out] = j;
          served[out] = count;
        }
        return true;
      }
    }
    return false;
  }

  private grant(out: number, vl: number): boolean {
    const v = this.vlCount;
    const ov = out * v + vl;
    if (this.waitingFor[ov] === 0) return false;
    const n = this.portCount;
    const words = this.maskWords;
    const pairMask = this.pairMask;
    const readFree = this.readFree;
    const base = ov * words;
    const first = this.outPorts[out * Out.Stride + Out.Rr]!;
    let blocked = false;
    // The smallest packet refused room so far: room only grows with less to send, and nothing
    // in the scan changes this output's credits or pause state, so a packet at least as large
    // is refused without asking again. On the 648-node forest most candidates are refused
    // (5 ms: 2.37 M of 2.84 M), each through a call the inliner had no budget for.
    let refusedBytes = Number.POSITIVE_INFINITY;
    // The inputs with a packet for (out, vl) and a free read port, in round-robin order from
    // `first`: [first, n), then [0, first). A head the switch part drops only clears bits of
    // inputs already taken from `bits`. serveInput walks its outputs the same way; the walk is
    // written out in both rather than shared through a callback, which the hot loop would pay
    // for on every candidate.
    let from = first;
    let to = n;
    for (let pass = 0; pass < 2; pass++) {
      for (let w = from >>> 5; w << 5 < to; w++) {
        let bits = pairMask[base + w]! & readFree[w]!;
        if (w === from >>> 5) bits &= -1 << (from & 31);
        const end = to - (w << 5);
        if (end < 32) bits &= (1 << end) - 1;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const input = (w << 5) + 31 - Math.clz32(low);
          const packet = this.headFor(input, vl, out);
          if (packet === NO_PACKET) continue;
          const size = this.packets.sizeBytes[packet]!;
          if (size >= refusedBytes || !this.hasRoom(out, vl, size)) {
            if (size < refusedBytes) refusedBytes = size;
            blocked = true;
            continue;
          }
          this.dequeue(input, vl, out);
          this.countDequeued(input, out, vl);
          this.outPorts[out * Out.Stride + Out.Rr] = input + 1 < n ? input + 1 : 0;
          this.forward(out, input, packet);
          return true;
        }
      }
      from = 0;
      to = first;
    }
    if (blocked && !this.buffered) {
      this.links.markBlocked(this.outPorts[out * Out.Stride + Out.Link]!, vl, this.scheduler.nowPs);
    }
    return false;
  }

  // A read port of `input` has freed: it offers its queue heads to free outputs, round-robin
  // over outputs (MODEL.md, "Arbitration").
  private serveInput(input: number): void {
    const n = this.portCount;
    const v = this.vlCount;
    const readPorts = this.config.readPorts;
    if (this.inPorts[input * In.Stride + In.ReadBusy]! >= readPorts) return;
    const buffered = this.buffered;
    const words = this.maskWords;
    const inputMask = this.inputMask;
    const crossbarFree = this.crossbarFree;
    const base = input * words;
    const first = this.inPorts[input * In.Stride + In.Rr]!;
    // The free outputs this input has packets for, in round-robin order from `first`. A
    // forward can make outputs busy (the one granted, and any a switch part's hook serves),
    // so each is checked again when reached.
    let from = first;
    let to = n;
    for (let pass = 0; pass < 2; pass++) {
      for (let w = from >>> 5; w << 5 < to; w++) {
        let bits = inputMask[base + w]! & crossbarFree[w]!;
        if (w === from >>> 5) bits &= -1 << (from & 31);
        const end = to - (w << 5);
        if (end < 32) bits &= (1 << end) - 1;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const out = (w << 5) + 31 - Math.clz32(low);
          if (
            buffered ? this.xbarBusy[out] === 1 : this.outPorts[out * Out.Stride + Out.Busy] === 1
          ) {
            continue;
          }
          for (let vl = 0; vl < v; vl++) {
            if (this.pairWaiting[(out * v + vl) * n + input] === 0) continue;
            const packet = this.headFor(input, vl, out);
            if (packet === NO_PACKET) continue;
            if (!this.hasRoom(out, vl, this.packets.sizeBytes[packet]!)) {
              if (!this.buffered) {
                this.links.markBlocked(
                  this.outPorts[out * Out.Stride + Out.Link]!,
                  vl,
                  this.scheduler.nowPs,
                );
              }
              continue;
            }
            this.dequeue(input, vl, out);
            this.countDequeued(input, out, vl);
            this.inPorts[input * In.Stride + In.Rr] = out + 1 < n ? out + 1 : 0;
            this.forward(out, input, packet);
            break;
          }
          if (this.inPorts[input * In.Stride + In.ReadBusy]! >= readPorts) return;
        }
      }
      from = 0;
      to = first;
    }
  }

  // A packet routed to `out` joined (or left) the queues of `input` and `vl`.
  private countQueued(input: number, out: number, vl: number): void {
    const ov = out * this.vlCount + vl;
    this.waitingFor[ov]!++;
    if (this.pairWaiting[ov * this.portCount + input]!++ === 0) {
      setBit(this.pairMask, ov * this.maskWords, input);
    }
    if (this.inputOutCount[input * this.portCount + out]!++ === 0) {
      setBit(this.inputMask, input * this.maskWords, out);
    }
  }

  private countDequeued(input: number, out: number, vl: number): void {
    const ov = out * this.vlCount + vl;
    this.waitingFor[ov]!--;
    if (--this.pairWaiting[ov * this.portCount + input]! === 0) {
      clearBit(this.pairMask, ov * this.maskWords, input);
    }
    if (--this.inputOutCount[input * this.portCount + out]! === 0) {
      clearBit(this.inputMask, input * this.maskWords, out);
    }
  }

  // The head an input would send to `out` on `vl`, after the switch part has dropped the
  // heads its scheme allows to drop.
  private headFor(input: number, vl: number, out: number): PacketId {
    let packet = this.head(input, vl, out);
    const drop = this.part?.dropAtHead;
    if (drop === undefined) return packet;
    while (packet !== NO_PACKET && drop.call(this.part, packet, input)) {
      this.dequeue(input, vl, out);
      this.countDequeued(input, out, vl);
      this.part?.onDequeue?.(packet, input);
      this.droppedPackets++;
      this.freeInputBuffer(input, vl, this.packets.sizeBytes[packet]!);
      packet = this.head(input, vl, out);
    }
    return packet;
  }

  // The queues of (input, VL), through the flat VOQ or the queue set.
  private enqueue(input: number, vl: number, out: number, packet: PacketId): void {
    const voq = this.voq;
    if (voq === undefined) this.queues[input * this.vlCount + vl]!.enqueue(packet);
    else voq.push((input * this.vlCount + vl) * this.portCount + out, packet);
  }

  private head(input: number, vl: number, out: number): PacketId {
    const voq = this.voq;
    if (voq === undefined) return this.queues[input * this.vlCount + vl]!.headFor(out);
    return voq.head((input * this.vlCount + vl) * this.portCount + out);
  }

  private dequeue(input: number, vl: number, out: number): void {
    const voq = this.voq;
    if (voq === undefined) this.queues[input * this.vlCount + vl]!.dequeueFor(out);
    else voq.shift((input * this.vlCount + vl) * this.portCount + out);
  }

  // Room downstream of the crossbar: credits or no pause on the link, or space in the
  // output buffer when there is one.
  private hasRoom(out: number, vl: number, sizeBytes: number): boolean {
    if (!this.buffered)
      return this.links.canSend(this.outPorts[out * Out.Stride + Out.Link]!, vl, sizeBytes);
    return this.outputBytes[out * this.vlCount + vl]! + sizeBytes <= this.config.outputBufferBytes;
  }

  private forward(out: number, input: number, packet: PacketId): void {
    this.part?.onDequeue?.(packet, input);
    if (++this.inPorts[input * In.Stride + In.ReadBusy]! === this.config.readPorts)
      clearBit(this.readFree, 0, input);
    if (this.buffered) this.startTransfer(out, input, packet);
    else this.startOnLink(out, input, packet);
  }

  // MODEL.md: with output buffers and speedup s a packet crosses in ser(size)/s and leaves
  // the input buffer then. It cannot finish crossing before its tail has arrived.
  private startTransfer(out: number, input: number, packet: PacketId): void {
    const now = this.scheduler.nowPs;
    const size = this.packets.sizeBytes[packet]!;
    this.xbarBusy[out] = 1;
    clearBit(this.crossbarFree, 0, out);
    this.xbarInput[out] = input;
    this.xbarPacket[out] = packet;
    this.addOutputBytes(out * this.vlCount + this.packets.vl[packet]!, size);
    const crossed =
      now +
      Math.ceil(
        this.links.serPs(this.outPorts[out * Out.Stride + Out.Link]!, size) / this.config.speedup,
      );
    const tail = this.tailArrivalPs(input, packet);
    const endPs = tail > crossed ? tail : crossed;
    this.scheduler.schedule(endPs, this.kinds.transferEnd, (this.index << Target.PortBits) | out);
  }

  // The link of an output with a buffer: control packets, then the output queues by VL,
  // each when the link has credits or no pause.
  private serveLink(out: number): void {
    if (!this.sendWaitingControl(out)) this.serveVls(out, true);
  }

  private sendBuffered(out: number, vl: number): boolean {
    const queue = this.outQueues[out * this.vlCount + vl]!;
    const packet = queue.peek();
    if (packet === NO_PACKET) return false;
    const l = this.outPorts[out * Out.Stride + Out.Link]!;
    if (!this.links.canSend(l, vl, this.packets.sizeBytes[packet]!)) {
      this.links.markBlocked(l, vl, this.scheduler.nowPs);
      return false;
    }
    queue.shift();
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
    if (!this.buffered) clearBit(this.crossbarFree, 0, out);
    this.outPorts[o + Out.Input] = source;
    this.outPorts[o + Out.Vl] = vl;
    this.outPorts[o + Out.Size] = size;
    // MODEL.md: a packet cut through before its tail arrived cannot finish before it does.
    const serialized = now + links.serPs(l, size);
    const tail = source >= 0 ? this.tailArrivalPs(source, packet) : 0;
    const endPs = tail > serialized ? tail : serialized;
    this.part?.onTransmit?.(packet, source, out);
    links.transmit(l, packet, endPs);
    this.scheduler.schedule(endPs, this.kinds.txEnd, (this.index << Target.PortBits) | out);
  }

  // When the tail of `packet`, received on `input`, arrives; 0 when it has (see `lastInTailPs`).
  private tailArrivalPs(input: number, packet: PacketId): TimePs {
    return this.inPorts[input * In.Stride + In.LastPacket] === packet
      ? this.lastInTailPs[input]!
      : 0;
  }

  // The packet's last byte has left the input buffer: free its read port and buffer, and
  // return its credits (MODEL.md: credits are freed when the packet's last byte leaves the
  // input buffer) or check XON.
  private releaseInput(input: number, vl: number, size: number): void {
    if (this.inPorts[input * In.Stride + In.ReadBusy]!-- === this.config.readPorts)
      setBit(this.readFree, 0, input);
    this.freeInputBuffer(input, vl, size);
  }

  private freeInputBuffer(input: number, vl: number, size: number): void {
    const q = input * this.vlCount + vl;
    this.addBytes(q, -size);
    if (this.discipline === "credit") {
      const blocks = creditBlocks(size);
      this.inputBlocks[q]! -= blocks;
      this.links.returnCredits(this.inPorts[input * In.Stride + In.Link]!, vl, blocks);
    } else this.checkXon(q);
  }

  // --- routing and buffers --------------------------------------------------------------------

  private route(packet: PacketId): number {
    const dst = this.packets.dstHost[packet]!;
    let out: number;
    const start = this.routeStart[dst];
    const count = start === undefined ? 0 : this.routeCount[dst]!;
    if (count === 0) out = -1;
    else if (count === 1 || this.selection === Select.First) out = this.routePorts[start!]!;
    else if (this.selection === Select.Hash) {
      out =
        this.routePorts[start! + flowHashModulo(this.packets.flowId[packet]!, this.index, count)]!;
    } else out = this.routePorts[start! + this.rng.intRange(0, count - 1)]!;
    if (out < 0 || !(this.outPorts[out * Out.Stride + Out.Link]! >= 0)) {
      throw new Error(
        `switch ${this.name} has no route to host ${dst} (packet of flow ${this.packets.flowId[packet]}); check the routing tables`,
      );
    }
    return out;
  }

  private addBytes(q: number, delta: number): void {
    const now = this.scheduler.nowPs;
    const before = this.inputBytes[q]!;
    const bytes = before + delta;
    this.inputBytes[q] = bytes;
    const occ = this.occ;
    const r = q * Occ.Stride;
    occ[r + Occ.Area]! += before * (now - occ[r + Occ.LastPs]!);
    occ[r + Occ.LastPs] = now;
    if (bytes > occ[r + Occ.Max]!) occ[r + Occ.Max] = bytes;
    this.bufferedBytes += delta;
    if (this.bufferedBytes > this.maxBufferedBytes) this.maxBufferedBytes = this.bufferedBytes;
    const series = this.occupancySeries;
    if (series !== undefined) series[q]!.set(now, bytes);
  }

  // The output buffer of (out, VL) at `ov` gains `delta` bytes (a packet starts crossing into
  // it, or one has left it on the link).
  private addOutputBytes(ov: number, delta: number): void {
    const bytes = this.outputBytes[ov]! + delta;
    this.outputBytes[ov] = bytes;
    if (bytes > this.outputMax[ov]!) this.outputMax[ov] = bytes;
    const series = this.outputSeries;
    if (series !== undefined) series[ov]!.set(this.scheduler.nowPs, bytes);
  }

  // Time-weighted mean occupancy of queue q over [start, untilPs].
  private meanOccupancy(q: number, untilPs: number): number {
    const span = untilPs - this.occStartPs;
    const bytes = this.inputBytes[q]!;
    if (span === 0) return bytes;
    const r = q * Occ.Stride;
    return (this.occ[r + Occ.Area]! + bytes * (untilPs - this.occ[r + Occ.LastPs]!)) / span;
  }

  private xoffThreshold(): number {
    const alpha = this.xoffAlpha;
    if (alpha === 0) return this.xoffBytes;
    // Dynamic threshold: alpha × free shared memory.
    return alpha * Math.max(0, this.xoffSharedBytes - this.bufferedBytes);
  }

  private xonThreshold(): number {
    const buffer = this.config.buffer;
    if (buffer.model === "partitioned") return this.config.pfc!.xonBytes;
    return this.xoffThreshold() - buffer.xonOffsetBytes;
  }

  private checkXoff(port: number, vl: number, q: number): void {
    if (this.pausedUpstream[q] === 0 && this.inputBytes[q]! > this.xoffThreshold()) {
      this.pausedUpstream[q] = 1;
      this.pausedCount++;
      this.links.sendPause(this.inPorts[port * In.Stride + In.Link]!, vl, true);
    }
  }

  private checkXon(q: number): void {
    if (this.config.buffer.model === "partitioned") {
      if (this.pausedUpstream[q] === 1 && this.inputBytes[q]! <= this.xonThreshold()) {
        this.resumeUpstream(q);
      }
      return;
    }
    // Shared memory: freeing bytes anywhere raises every queue's threshold, so every paused
    // queue is checked (few are paused at once, and mostly none).
    if (this.pausedCount === 0) return;
    const xon = this.xonThreshold();
    const paused = this.pausedUpstream;
    for (let k = 0; k < paused.length; k++) {
      if (paused[k] === 1 && this.inputBytes[k]! <= xon) this.resumeUpstream(k);
    }
  }

  private resumeUpstream(q: number): void {
    this.pausedUpstream[q] = 0;
    this.pausedCount--;
    this.links.sendPause(
      this.inPorts[Math.floor(q / this.vlCount) * In.Stride + In.Link]!,
      q % this.vlCount,
      false,
    );
  }

  /** Counters per port, with occupancy means up to `untilPs`. */
  portStats(untilPs: number): SwitchPortStats[] {
    const stats: SwitchPortStats[] = [];
    const v = this.vlCount;
    for (let port = 0; port < this.portCount; port++) {
      const link = this.outPorts[port * Out.Stride + Out.Link]!;
      const flow = this.outFlow[port];
      const vls = Array.from({ length: v }, (_, vl) => vl);
      stats.push({
        port,
        bytesForwarded: link >= 0 ? this.links.bytesSent[link]! : 0,
        // The link counts what the switch started on it: no counter of its own per packet.
        packetsForwarded: link >= 0 ? this.links.packetsSent[link]! : 0,
        blockedPs: vls.map((vl) => flow?.blockedPsUntil(vl, untilPs) ?? 0),
        offTransitions: vls.map((vl) => flow?.offTransitions[vl] ?? 0),
        meanInputBytes: vls.map((vl) => this.meanOccupancy(port * v + vl, untilPs)),
        maxInputBytes: vls.map((vl) => this.occ[(port * v + vl) * Occ.Stride + Occ.Max]!),
        ...(this.occupancySeries === undefined
          ? {}
          : {
              inputBytesSeries: vls.map((vl) =>
                this.occupancySeries![port * v + vl]!.binMeans(untilPs),
              ),
            }),
        ...(this.buffered
          ? { maxOutputBytes: vls.map((vl) => this.outputMax[port * v + vl]!) }
          : {}),
        ...(this.outputSeries === undefined
          ? {}
          : {
              outputBytesSeries: vls.map((vl) =>
                this.outputSeries![port * v + vl]!.binMeans(untilPs),
              ),
            }),
      });
    }
    return stats;
  }
}

function setBit(words: Int32Array, base: number, i: number): void {
  words[base + (i >>> 5)]! |= 1 << (i & 31);
}

function clearBit(words: Int32Array, base: number, i: number): void {
  words[base + (i >>> 5)]! &= ~(1 << (i & 31));
}

/** Registers the switch event kinds on a scheduler, dispatching to `switches` by index. */
export function registerSwitchEvents(
  scheduler: Scheduler,
  switches: readonly Switch[],
): SwitchKinds {
  const mask = MAX_SWITCH_PORTS - 1;
  return {
    txEnd: scheduler.defineKind("switch: transmission ends", (target) =>
      switches[target >>> Target.PortBits]!.transmissionEnded(target & mask),
    ),
    transferEnd: scheduler.defineKind("switch: crossbar transfer ends", (target) =>
      switches[target >>> Target.PortBits]!.transferEnded(target & mask),
    ),
  };
}

/**
 * A switch port as CC parts see it. A class, not an object of closures: with a closure per port
 * and method, every call site in a part (the InfiniBand part asks `isBlocked` on each VOQ change
 * of a port above its threshold) saw thousands of distinct functions and made a full call each
 * time; 648-node forest, 60 ms: 3.1 k of the 7.5 k profile ticks of that part's VOQ update.
 */
class SwitchPortView implements PortView {
  constructor(
    private readonly port: number,
    readonly vlCount: number,
    private readonly inputBytesOf: Float64Array,
    private readonly outFlow: readonly (PortFlowState | undefined)[],
    private readonly outPorts: Int32Array,
  ) {}

  inputBytes(vl: number): number {
    return this.inputBytesOf[this.port * this.vlCount + vl]!;
  }

  credits(vl: number): number {
    return this.outFlow[this.port]?.creditsOn(vl) ?? 0;
  }

  isPaused(vl: number): boolean {
    return this.outFlow[this.port]?.isPaused(vl) ?? false;
  }

  isTransmitting(): boolean {
    return this.outPorts[this.port * Out.Stride + Out.Busy] === 1;
  }

  isBlocked(vl: number): boolean {
    return this.outFlow[this.port]?.isBlocked(vl) ?? false;
  }
}
