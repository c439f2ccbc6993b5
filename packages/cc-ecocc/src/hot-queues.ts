import {
  type InputQueueSet,
  NO_PACKET,
  PacketChains,
  type PacketId,
  type Packets,
  type QueueSetContext,
} from "@cclab/fabric";
import { InputLine, type OutputLine } from "./cam.js";
import { HotLines } from "./hot-lines.js";
import type { MessageType } from "./messages.js";

/** What the queues of one input need from their switch (switch-part.ts). */
export interface HotQueuesHost {
  /** Destinations a line holds at most (L2347, L2562). */
  readonly dListCap: number;
  /** The first-allocated output line of `port` holding `dst`. */
  outputLineFor(port: number, dst: number): OutputLine | undefined;
  /** A CPQ for `outPort` went above HTh (+1) or back to LTh (−1): the root's count. */
  rootCount(outPort: number, delta: 1 | -1): void;
  /** Sends a message about `line` upstream, out of `inPort`. */
  send(inPort: number, type: MessageType, line: InputLine): void;
  /** Counts an event for the results. */
  count(event: QueueEvent): void;
}

/** EcoCC's and HFDI's rules for one input (params.ts). */
export interface EcoccRules {
  readonly hthPackets: number;
  readonly lthPackets: number;
  readonly localRootHpq: boolean;
  /** A local-root line joins a downstream output line allocated later for its destinations. */
  readonly joinDownstreamLines: boolean;
  readonly rootLineStopGo: boolean;
}

/** What a switch asks of the queues of one of its inputs, whatever their organisation. */
export interface IsolatingQueues extends InputQueueSet {
  readonly vl: number;
  /** Hot queues without a line (S9.1's "ports out of HPQs" counts inputs where this is 0). */
  readonly freeHotQueues: number;
  /** CAM lines in use. */
  readonly linesInUse: number;
  /** The downstream neighbour of `out` allocated `line` in this switch's output CAM. */
  outputLineAdded(out: number, line: OutputLine): void;
}

export type QueueEvent =
  | "hotQueueAllocated"
  | "hotQueueReleased"
  | "hotQueueMisses"
  | "rootsDetected";

/**
 * The queues of one input port and VL of an EcoCC switch (Paper VI, seed 001 L2245–2307;
 * docs/design/ecocc.md §1.4): one cold-packet queue (CPQ) per output, as the VOQ switch has,
 * and `hotQueues` hot-packet queues (HPQs), all in the port's one buffer. The rules, by the
 * paper's events:
 * - Arrival: a packet joins the CPQ of its output (L2261).
 * - Detection (Event #1): a CPQ above HTh makes its output a root: the switch counts it for the
 *   congestion state, and a root line for the CPQ is allocated and sent upstream at once
 *   (L2263, L2269–2271). EcoCC isolates no local root in an HPQ (L2271); HFDI does
 *   (`localRootHpq`, L2587).
 * - Post-processing (Events #3, #5): a CPQ head whose destination an HPQ line of its output
 *   holds moves into that HPQ; a head an output line of its output holds, with no line here for
 *   it, first takes a free HPQ and a line linked to that output line (L2273, L2283). Without a
 *   free HPQ the packet stays cold and later heads try again (L451, L2587).
 * - HPQ thresholds (L2285): the first time above HTh the line goes upstream (allocate); above
 *   HTh again a stop, at LTh a go; an empty HPQ with no stop pending is freed and the upstream
 *   neighbour told (deallocate, L2287). A root CPQ's line does the same with the CPQ
 *   (`rootLineStopGo`).
 * - An HPQ whose output line is stopped is not offered to its output (L2269, L2301).
 * An output takes from the CPQ and the HPQs for it in round robin (the order is not given, L615).
 */
export class HotFlowQueues implements IsolatingQueues {
  /** Chains 0..P−1 are the CPQs by output, P..P+H−1 the HPQs. */
  private readonly chains: PacketChains;
  private readonly counts: Int32Array;
  /** Per CPQ: above HTh and not yet back to LTh (counted at its output, L2263). */
  private readonly cpqHot: Uint8Array;
  private readonly rootLines: (InputLine | undefined)[];
  private readonly hpqLines: HotLines;
  /** Per output, the next of its candidates (0: the CPQ, 1 + h: HPQ h) round robin starts at. */
  private readonly rr: Int32Array;
  private readonly portCount: number;
  private readonly hotQueues: number;
  private readonly packets: Packets;
  /** Line numbers on the link: `idBase` + slot (root lines 0..P−1, HPQ lines P..P+H−1). */
  private readonly idBase: number;
  private count = 0;

  constructor(
    private readonly context: QueueSetContext,
    hotQueues: number,
    private readonly host: HotQueuesHost,
    private readonly rules: EcoccRules,
    vlOrdinal: number,
  ) {
    const p = context.portCount;
    this.portCount = p;
    this.hotQueues = hotQueues;
    this.packets = context.packets;
    this.chains = new PacketChains(p + hotQueues, context.packets);
    this.counts = new Int32Array(p + hotQueues);
    this.cpqHot = new Uint8Array(p);
    this.rootLines = new Array<InputLine | undefined>(p).fill(undefined);
    this.idBase = vlOrdinal * (p + hotQueues);
    this.hpqLines = new HotLines(hotQueues, this.idBase + p, host, context.inPort);
    this.rr = new Int32Array(p);
  }

  /** The VL these queues are for. */
  get vl(): number {
    return this.context.vl;
  }

  get packetCount(): number {
    return this.count;
  }

  get freeHotQueues(): number {
    return this.hpqLines.free;
  }

  /** Lines in use: root lines and HPQ lines. */
  get linesInUse(): number {
    let used = this.hpqLines.inUse;
    for (const line of this.rootLines) if (line !== undefined) used++;
    return used;
  }

  /** Packets in the CPQ of `out` (0..P−1) or HPQ `P + h`, for tests. */
  queued(queue: number): number {
    return this.counts[queue]!;
  }

  /** The line of HPQ `h`, for tests and the switch's bookkeeping. */
  hotLine(h: number): InputLine | undefined {
    return this.hpqLines.at(h);
  }

  rootLine(out: number): InputLine | undefined {
    return this.rootLines[out];
  }

  enqueue(packet: PacketId): void {
    const out = this.packets.outPort[packet]!;
    this.chains.push(out, packet);
    this.count++;
    if (++this.counts[out]! === 1) this.postProcess(out);
    if (this.counts[out]! > this.rules.hthPackets) this.cpqAbove(out);
  }

  headFor(outPort: number): PacketId {
    const j = this.pick(outPort);
    return j < 0 ? NO_PACKET : this.chains.head(this.queueOf(outPort, j));
  }

  dequeueFor(outPort: number): PacketId {
    const j = this.pick(outPort);
    const q = this.queueOf(outPort, j);
    const packet = this.chains.shift(q);
    this.counts[q]!--;
    this.count--;
    this.rr[outPort] = (j + 1) % (1 + this.hotQueues);
    if (j === 0) {
      this.cpqBelow(outPort);
      this.postProcess(outPort);
    } else {
      this.hpqBelow(j - 1);
    }
    return packet;
  }

  /**
   * An output line was allocated at `out` (the downstream neighbour's allocate): lines here that
   * lost theirs to a deallocate and hold some of its destinations join it, and the CPQ head of
   * `out` is looked at again.
   */
  outputLineAdded(out: number, line: OutputLine): void {
    this.hpqLines.relinkOrphans(out, line, this.rules.joinDownstreamLines);
    this.postProcess(out);
  }

  // Candidate j of `out`: the CPQ (0) or HPQ j − 1.
  private queueOf(out: number, j: number): number {
    return j === 0 ? out : this.portCount + j - 1;
  }

  // The candidate `out` takes next, round robin from rr[out], or −1. Changes nothing.
  private pick(out: number): number {
    const n = 1 + this.hotQueues;
    const start = this.rr[out]!;
    for (let i = 0; i < n; i++) {
      const j = (start + i) % n;
      if (j === 0) {
        if (this.counts[out]! > 0) return 0;
        continue;
      }
      const line = this.hpqLines.at(j - 1);
      if (line !== undefined && line.op === out && !line.stopped) {
        if (this.counts[this.portCount + j - 1]! > 0) return j;
      }
    }
    return -1;
  }

  // Moves hot heads of CPQ[out] into their HPQs until the head is cold (Events #3, #5).
  private postProcess(out: number): void {
    const chains = this.chains;
    for (;;) {
      const packet = chains.head(out);
      if (packet === NO_PACKET) return;
      const dst = this.packets.dstHost[packet]!;
      let line = this.hpqLines.lineFor(out, dst);
      if (line === undefined) {
        const outLine = this.host.outputLineFor(out, dst);
        if (outLine === undefined) return;
        line = this.hpqLines.allocate(out, outLine.hops + 1, outLine.dList);
        if (line === undefined) return;
        line.link(outLine);
      }
      chains.shift(out);
      this.counts[out]!--;
      const q = this.portCount + line.hpq;
      chains.push(q, packet);
      this.counts[q]!++;
      this.cpqBelow(out);
      if (this.counts[q]! > this.rules.hthPackets) this.hpqAbove(line);
    }
  }

  // CPQ[out] holds more than HTh packets.
  private cpqAbove(out: number): void {
    if (this.cpqHot[out] === 0) {
      this.cpqHot[out] = 1;
      this.host.rootCount(out, 1);
    }
    const line = this.rootLines[out];
    if (line === undefined) this.detect(out);
    else if (this.rules.rootLineStopGo) this.hpqLines.stop(line);
  }

  // Event #1: `out` is a root seen from this input; its line goes upstream at once (L2271).
  private detect(out: number): void {
    this.host.count("rootsDetected");
    const dList = this.destinationsIn(out);
    if (this.rules.localRootHpq) {
      const line = this.hpqLines.allocate(out, 1, dList);
      if (line !== undefined) {
        this.hpqLines.propagate(line);
        this.postProcess(out);
        return;
      }
    }
    const line = new InputLine(this.idBase + out, -1, out, 1, dList);
    this.rootLines[out] = line;
    this.hpqLines.propagate(line);
  }

  // The distinct destinations queued in CPQ[out], in queue order, up to the cap (L2271).
  private destinationsIn(out: number): ReadonlySet<number> {
    const dList = new Set<number>();
    const next = this.packets.next;
    const dst = this.packets.dstHost;
    for (let p = this.chains.head(out); p !== NO_PACKET; p = next[p]!) {
      if (dList.size >= this.host.dListCap) break;
      dList.add(dst[p]!);
    }
    return dList;
  }

  // CPQ[out] lost a packet: LTh ends its part in the root's count, gives the go its root line
  // owes, and an empty CPQ with no stop pending frees the root line (README, "Choices").
  private cpqBelow(out: number): void {
    const c = this.counts[out]!;
    if (this.cpqHot[out] === 1 && c <= this.rules.lthPackets) {
      this.cpqHot[out] = 0;
      this.host.rootCount(out, -1);
    }
    const line = this.rootLines[out];
    if (line === undefined) return;
    this.hpqLines.goAt(line, c, this.rules.lthPackets);
    if (c === 0 && !line.sentStop) {
      this.rootLines[out] = undefined;
      this.hpqLines.deallocate(line);
    }
  }

  // An HPQ above HTh: its first time sends the line upstream, later ones a stop (L2285).
  private hpqAbove(line: InputLine): void {
    if (!line.propagated) this.hpqLines.propagate(line);
    else this.hpqLines.stop(line);
  }

  // HPQ h lost a packet: a go at LTh; once empty with no stop pending it is freed (L2287).
  private hpqBelow(h: number): void {
    const c = this.counts[this.portCount + h]!;
    if (!this.hpqLines.drained(h, c, this.rules.lthPackets)) return;
    // A freed HPQ may now take a tree a head could not get one for (L2587).
    for (let out = 0; out < this.portCount; out++) {
      if (this.counts[out]! > 0) this.postProcess(out);
    }
  }
}
