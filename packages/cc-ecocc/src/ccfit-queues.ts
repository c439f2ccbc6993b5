import {
  type InputQueueSet,
  NO_PACKET,
  PacketChains,
  type PacketId,
  type Packets,
  type QueueSetContext,
} from "@cclab/fabric";
import type { InputLine, OutputLine } from "./cam.js";
import { HotLines } from "./hot-lines.js";
import type { HotQueuesHost, IsolatingQueues } from "./hot-queues.js";

/** CCFIT's queue thresholds, packets (Paper V, seed 001 L2027, L2066; README "Choices"). */
export interface CcfitThresholds {
  /** The NFQ above this detects congestion (not given). */
  readonly detectPackets: number;
  /** A root CFQ above High puts its output in the congestion state, at Low it leaves (not given). */
  readonly highPackets: number;
  readonly lowPackets: number;
  /** Stop and Go of a CFQ's upstream (L2066: 10 and 4 MTU). */
  readonly stopPackets: number;
  readonly goPackets: number;
}

/**
 * The queues of one input port and VL of a CCFIT switch (Paper V, seed 001 L1949–2023;
 * docs/design/ecocc.md §1.3): an input-queued switch whose inputs hold one normal queue (NFQ)
 * for every arriving packet and `hotQueues` congested-flow queues (CFQs), each with a CAM line.
 * - Arrival (Event #1): into the NFQ (L1987).
 * - Detection (Event #2): the NFQ above the detection threshold takes a free CFQ and line for
 *   the output and destination of its head packet, one hop from the root (L1987, L1991, L2005).
 * - Post-processing (Event #3): an NFQ head whose output and destination a line here holds moves
 *   into its CFQ; one an output line of its output holds first takes a free CFQ and a line linked
 *   to it (FBICM's propagation, L2001). Only cold packets request outputs from the NFQ head.
 * - CFQ Stop/Go (Events #4, #5): above Stop the upstream neighbour is told to stop (the first
 *   time also sent the line, so the information propagates with the flow control, L2011); at Go,
 *   go. An empty CFQ with no stop pending is freed and its line deallocated upstream (L2003).
 * - Root state (L2005): a CFQ one hop from the root above High counts at its output, which is
 *   in the congestion state while any does; back at Low it stops counting.
 * An output takes from the NFQ head and its CFQs round robin (not given, L615).
 */
export class NfqQueues implements InputQueueSet, IsolatingQueues {
  /** Chain 0 is the NFQ, 1..H the CFQs. */
  private readonly chains: PacketChains;
  private readonly counts: Int32Array;
  private readonly lines: HotLines;
  /** Per CFQ: a root CFQ counted above High at its output. */
  private readonly aboveHigh: Uint8Array;
  private readonly rr: Int32Array;
  private readonly packets: Packets;
  private count = 0;

  constructor(
    private readonly context: QueueSetContext,
    private readonly hotQueues: number,
    private readonly host: HotQueuesHost,
    private readonly t: CcfitThresholds,
    vlOrdinal: number,
  ) {
    this.packets = context.packets;
    this.chains = new PacketChains(1 + hotQueues, context.packets);
    this.counts = new Int32Array(1 + hotQueues);
    this.lines = new HotLines(hotQueues, vlOrdinal * hotQueues, host, context.inPort);
    this.aboveHigh = new Uint8Array(hotQueues);
    this.rr = new Int32Array(context.portCount);
  }

  get vl(): number {
    return this.context.vl;
  }

  get packetCount(): number {
    return this.count;
  }

  get freeHotQueues(): number {
    return this.lines.free;
  }

  get linesInUse(): number {
    return this.lines.inUse;
  }

  /** Packets in the NFQ (0) or CFQ `1 + h`, for tests. */
  queued(queue: number): number {
    return this.counts[queue]!;
  }

  hotLine(h: number): InputLine | undefined {
    return this.lines.at(h);
  }

  enqueue(packet: PacketId): void {
    this.chains.push(0, packet);
    this.count++;
    if (++this.counts[0]! === 1) this.postProcess();
    if (this.counts[0]! > this.t.detectPackets) this.detect();
  }

  headFor(outPort: number): PacketId {
    const j = this.pick(outPort);
    return j < 0 ? NO_PACKET : this.chains.head(j);
  }

  dequeueFor(outPort: number): PacketId {
    const j = this.pick(outPort);
    const packet = this.chains.shift(j);
    this.counts[j]!--;
    this.count--;
    this.rr[outPort] = (j + 1) % (1 + this.hotQueues);
    if (j === 0) this.postProcess();
    else this.cfqBelow(j - 1);
    return packet;
  }

  outputLineAdded(out: number, line: OutputLine): void {
    this.lines.relinkOrphans(out, line);
    this.postProcess();
  }

  // Queue j (0: NFQ, 1 + h: CFQ h) that `out` takes next, round robin; changes nothing.
  private pick(out: number): number {
    const n = 1 + this.hotQueues;
    const start = this.rr[out]!;
    for (let i = 0; i < n; i++) {
      const j = (start + i) % n;
      if (this.counts[j] === 0) continue;
      if (j === 0) {
        if (this.packets.outPort[this.chains.head(0)] === out) return 0;
        continue;
      }
      const line = this.lines.at(j - 1)!;
      if (line.op === out && !line.stopped) return j;
    }
    return -1;
  }

  private postProcess(): void {
    const chains = this.chains;
    for (;;) {
      const packet = chains.head(0);
      if (packet === NO_PACKET) return;
      const out = this.packets.outPort[packet]!;
      const dst = this.packets.dstHost[packet]!;
      let line = this.lines.lineFor(out, dst);
      if (line === undefined) {
        const outLine = this.host.outputLineFor(out, dst);
        if (outLine === undefined) return;
        line = this.lines.allocate(out, outLine.hops + 1, outLine.dList);
        if (line === undefined) return;
        line.link(outLine);
      }
      chains.shift(0);
      this.counts[0]!--;
      chains.push(1 + line.hpq, packet);
      this.counts[1 + line.hpq]!++;
      this.cfqAbove(line);
    }
  }

  // Event #2: congestion at the output the NFQ's head requests (L1987).
  private detect(): void {
    const head = this.chains.head(0);
    const line = this.lines.allocate(
      this.packets.outPort[head]!,
      1,
      new Set([this.packets.dstHost[head]!]),
    );
    if (line === undefined) return;
    this.host.count("rootsDetected");
    this.postProcess();
  }

  private cfqAbove(line: InputLine): void {
    const h = line.hpq;
    const c = this.counts[1 + h]!;
    if (line.hops === 1 && this.aboveHigh[h] === 0 && c > this.t.highPackets) {
      this.aboveHigh[h] = 1;
      this.host.rootCount(line.op, 1);
    }
    if (c <= this.t.stopPackets || line.sentStop) return;
    this.lines.propagate(line);
    this.lines.stop(line);
  }

  private cfqBelow(h: number): void {
    const line = this.lines.at(h)!;
    const c = this.counts[1 + h]!;
    if (this.aboveHigh[h] === 1 && c <= this.t.lowPackets) {
      this.aboveHigh[h] = 0;
      this.host.rootCount(line.op, -1);
    }
    if (!this.lines.drained(h, c, this.t.goPackets)) return;
    // A freed CFQ may take a tree the NFQ's head could not get one for.
    this.postProcess();
  }
}
