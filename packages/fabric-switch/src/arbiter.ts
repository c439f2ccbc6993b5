import { NO_PACKET, type PacketColumn, type PacketId, type Packets } from "@cclab/fabric";
import { clearBit, setBit } from "./bits.js";

/** What the arbiter asks of its switch. */
export interface ArbitrationTarget {
  /** The packet `input` would send to `out` on `vl` now (after any drops), or NO_PACKET. */
  headFor(input: number, vl: number, out: number): PacketId;
  /** True if a packet of `sizeBytes` for `out` on `vl` has room past the crossbar now. */
  hasRoom(out: number, vl: number, sizeBytes: number): boolean;
  /** `out` has a packet ready on `vl` that flow control holds (the OFF state). */
  blocked(out: number, vl: number): void;
  /** Takes the head `headFor(input, vl, out)` gave out of its queue. */
  dequeue(input: number, vl: number, out: number): void;
  /** Starts the granted `packet` from `input` through `out` (after {@link dequeue}). */
  forward(out: number, input: number, packet: PacketId): void;
  /** The link stage of an output buffer: sends its head on `vl` if it may go. */
  sendBuffered(out: number, vl: number): boolean;
}

/** The lanes of a port as the arbiter serves them (docs/model.md, "Arbitration"). */
export interface ArbiterLanes {
  readonly vlCount: number;
  /** Served first, with strict priority, in this order. */
  readonly controlVls: readonly number[];
  /** Served only when no normal data lane (the rest) has a packet that may go, in order. */
  readonly lowPriorityVls: readonly number[];
  /** Weighted round-robin weight per VL, in packets in a row (control and low lanes ignored). */
  readonly weights?: readonly number[];
}

/**
 * The arbitration of one switch (docs/model.md, "Arbitration"): a free output grants,
 * round-robin over input ports, the first input with a packet for it at a queue head, a free
 * read port and downstream room; a freed read port offers its input's heads to free outputs,
 * round-robin over outputs; control lanes go first, data lanes share by weighted round-robin,
 * low-priority lanes take what is left.
 *
 * It visits only candidates: counts of waiting packets per (output, VL) and per (input,
 * output, VL), and bit sets of the inputs with packets for (output, VL), the outputs each input
 * has packets for, the inputs with a free read port and the outputs whose crossbar side is
 * free. Every walk visits them in the same round-robin order a scan over all ports would.
 *
 * It tries each data lane in turn: with more than 16 VLs (VOQnet's lane per destination) a
 * switch uses {@link ManyLaneArbiter}, which visits only the lanes with packets waiting. The
 * subclass leaves this class's hot path as it is for the few lanes of most fabrics.
 */
export class Arbiter {
  private readonly portCount: number;
  protected readonly vlCount: number;
  private readonly readPorts: number;
  /**
   * Packets in the input queues routed to each output and VL, at `[out * vlCount + vl]`. A
   * queue set's `headFor(out)` only returns a packet routed to `out`, so where this is 0 no
   * input can offer one: arbitration skips the scan over inputs (hot loop).
   */
  protected readonly waitingFor: Int32Array;
  /**
   * The same per input: packets of input `i` routed to (out, VL), at
   * `[(out * vlCount + vl) * portCount + i]`. Arbitration asks a queue set for a head only
   * where this is not 0 (portCount² × vlCount entries: small beside the VOQs themselves).
   */
  private readonly pairWaiting: Int32Array;
  /**
   * Bit sets over ports (`maskWords` 32-bit words each):
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
  /** Per output, the input its round robin starts at. */
  private readonly outRr: Int32Array;
  /** Per input, the output its round robin starts at, and its read ports in use. */
  private readonly inRr: Int32Array;
  private readonly readBusy: Int32Array;
  protected readonly controlVls: Int32Array;
  protected readonly dataVls: Int32Array;
  /** Weighted round-robin weight of each entry of `dataVls`, in packets. */
  protected readonly dataWeights: Int32Array;
  protected readonly lowVls: Int32Array;
  /** Per output, the data-lane round robin of the crossbar stage and of the link stage. */
  protected readonly xbarVlRr: Int32Array;
  protected readonly xbarVlServed: Int32Array;
  private readonly linkVlRr: Int32Array;
  private readonly linkVlServed: Int32Array;

  constructor(
    portCount: number,
    lanes: ArbiterLanes,
    readPorts: number,
    private readonly packets: Packets,
    private readonly target: ArbitrationTarget,
    /**
     * With `oldest-first` arbitration, each packet's arrival time at this switch (ps), written
     * by the switch when the packet arrives; undefined for round-robin.
     */
    private readonly arrivedPs?: PacketColumn<Float64Array<ArrayBuffer>>,
  ) {
    const v = lanes.vlCount;
    this.portCount = portCount;
    this.vlCount = v;
    this.readPorts = readPorts;
    this.waitingFor = new Int32Array(portCount * v);
    this.pairWaiting = new Int32Array(portCount * portCount * v);
    const words = (portCount + 31) >>> 5;
    this.maskWords = words;
    this.pairMask = new Int32Array(portCount * v * words);
    this.inputMask = new Int32Array(portCount * words);
    this.inputOutCount = new Int32Array(portCount * portCount);
    this.readFree = new Int32Array(words);
    for (let port = 0; port < portCount; port++) setBit(this.readFree, 0, port);
    this.crossbarFree = new Int32Array(words);
    this.outRr = new Int32Array(portCount);
    this.inRr = new Int32Array(portCount);
    this.readBusy = new Int32Array(portCount);
    this.controlVls = Int32Array.from(lanes.controlVls);
    this.lowVls = Int32Array.from(lanes.lowPriorityVls);
    const special = new Set([...lanes.controlVls, ...lanes.lowPriorityVls]);
    this.dataVls = Int32Array.from(
      Array.from({ length: v }, (_, vl) => vl).filter((vl) => !special.has(vl)),
    );
    this.dataWeights = Int32Array.from(this.dataVls, (vl) => lanes.weights?.[vl] ?? 1);
    this.xbarVlRr = new Int32Array(portCount);
    this.xbarVlServed = new Int32Array(portCount);
    this.linkVlRr = new Int32Array(portCount);
    this.linkVlServed = new Int32Array(portCount);
  }

  // --- what the switch tells the arbiter ------------------------------------------------------

  /** The crossbar side of `out` is free (a cabled output, or its transmission ended). */
  outputFree(out: number): void {
    setBit(this.crossbarFree, 0, out);
  }

  /** The crossbar side of `out` is busy. */
  outputBusy(out: number): void {
    clearBit(this.crossbarFree, 0, out);
  }

  /** A packet for `out` on `vl` joined the queues of `input`. */
  queued(input: number, out: number, vl: number): void {
    const ov = out * this.vlCount + vl;
    this.waitingFor[ov]!++;
    if (this.pairWaiting[ov * this.portCount + input]!++ === 0) {
      setBit(this.pairMask, ov * this.maskWords, input);
    }
    if (this.inputOutCount[input * this.portCount + out]!++ === 0) {
      setBit(this.inputMask, input * this.maskWords, out);
    }
  }

  /** A packet for `out` on `vl` left the queues of `input` (granted or dropped). */
  dequeued(input: number, out: number, vl: number): void {
    const ov = out * this.vlCount + vl;
    this.waitingFor[ov]!--;
    if (--this.pairWaiting[ov * this.portCount + input]! === 0) {
      clearBit(this.pairMask, ov * this.maskWords, input);
    }
    if (--this.inputOutCount[input * this.portCount + out]! === 0) {
      clearBit(this.inputMask, input * this.maskWords, out);
    }
  }

  /** A granted packet takes a read port of `input`. */
  takeReadPort(input: number): void {
    if (++this.readBusy[input]! === this.readPorts) clearBit(this.readFree, 0, input);
  }

  /** A packet's last byte has left `input`'s buffer: its read port is free. */
  releaseReadPort(input: number): void {
    if (this.readBusy[input]!-- === this.readPorts) setBit(this.readFree, 0, input);
  }

  /** Packets waiting at any input for `out` on `vl`. */
  waitingAt(out: number, vl: number): number {
    return this.waitingFor[out * this.vlCount + vl]!;
  }

  // --- arbitration ----------------------------------------------------------------------------

  /**
   * Lane arbitration of `out`, for the crossbar stage (`linkStage` false: grant an input) or
   * the link of an output buffer (true: send the buffer's head): control lanes first, in order,
   * then data lanes by weighted round-robin, then low-priority lanes; each stage with its own
   * round-robin pointer. Returns whether a packet went.
   */
  serveLanes(out: number, linkStage: boolean): boolean {
    const target = this.target;
    const controlVls = this.controlVls;
    for (let k = 0; k < controlVls.length; k++) {
      const vl = controlVls[k]!;
      if (linkStage ? target.sendBuffered(out, vl) : this.grant(out, vl)) return true;
    }
    // Weighted round-robin: the VL under the pointer keeps it for `weight` packets in a row.
    const rr = linkStage ? this.linkVlRr : this.xbarVlRr;
    const served = linkStage ? this.linkVlServed : this.xbarVlServed;
    const dataVls = this.dataVls;
    const weights = this.dataWeights;
    const n = dataVls.length;
    const first = rr[out]!;
    for (let k = 0; k < n; k++) {
      const j = first + k < n ? first + k : first + k - n;
      const vl = dataVls[j]!;
      if (linkStage ? target.sendBuffered(out, vl) : this.grant(out, vl)) {
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
    const lowVls = this.lowVls;
    for (let k = 0; k < lowVls.length; k++) {
      const vl = lowVls[k]!;
      if (linkStage ? target.sendBuffered(out, vl) : this.grant(out, vl)) return true;
    }
    return false;
  }

  // `out` grants, round-robin over inputs, the first input with a packet for it on `vl` at a
  // queue head, a free read port and room downstream; with `oldest-first`, among those the one
  // whose head arrived first (a tie goes to the first in round-robin order).
  protected grant(out: number, vl: number): boolean {
    const v = this.vlCount;
    const ov = out * v + vl;
    if (this.waitingFor[ov] === 0) return false;
    const n = this.portCount;
    const words = this.maskWords;
    const pairMask = this.pairMask;
    const readFree = this.readFree;
    const target = this.target;
    const arrivedPs = this.arrivedPs;
    const base = ov * words;
    const first = this.outRr[out]!;
    let blocked = false;
    // The smallest packet refused room so far: room only grows with less to send, and nothing
    // in the scan changes this output's credits or pause state, so a packet at least as large
    // is refused without asking again. On the 648-node forest most candidates are refused
    // (5 ms: 2.37 M of 2.84 M), each through a call the inliner had no budget for.
    let refusedBytes = Number.POSITIVE_INFINITY;
    // Oldest-first: the candidate granted so far, and when its head arrived.
    let best = -1;
    let bestPacket: PacketId = NO_PACKET;
    let bestPs = Number.POSITIVE_INFINITY;
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
          const packet = target.headFor(input, vl, out);
          if (packet === NO_PACKET) continue;
          const size = this.packets.sizeBytes[packet]!;
          if (size >= refusedBytes || !target.hasRoom(out, vl, size)) {
            if (size < refusedBytes) refusedBytes = size;
            blocked = true;
            continue;
          }
          if (arrivedPs === undefined) {
            this.take(out, vl, input, packet);
            return true;
          }
          const at = arrivedPs.values[packet]!;
          if (at < bestPs) {
            bestPs = at;
            best = input;
            bestPacket = packet;
          }
        }
      }
      from = 0;
      to = first;
    }
    if (best >= 0) {
      this.take(out, vl, best, bestPacket);
      return true;
    }
    if (blocked) target.blocked(out, vl);
    return false;
  }

  // `out` takes the head `packet` of `input` on `vl`: the granted input comes last in its order.
  private take(out: number, vl: number, input: number, packet: PacketId): void {
    this.target.dequeue(input, vl, out);
    this.dequeued(input, out, vl);
    this.outRr[out] = input + 1 < this.portCount ? input + 1 : 0;
    this.target.forward(out, input, packet);
  }

  /**
   * A read port of `input` has freed: it offers its queue heads to free outputs, round-robin
   * over outputs.
   */
  serveInput(input: number): void {
    const n = this.portCount;
    const v = this.vlCount;
    const readPorts = this.readPorts;
    if (this.readBusy[input]! >= readPorts) return;
    const words = this.maskWords;
    const inputMask = this.inputMask;
    const crossbarFree = this.crossbarFree;
    const target = this.target;
    const base = input * words;
    const first = this.inRr[input]!;
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
          if ((crossbarFree[w]! & low) === 0) continue;
          for (let vl = 0; vl < v; vl++) {
            if (this.pairWaiting[(out * v + vl) * n + input] === 0) continue;
            const packet = target.headFor(input, vl, out);
            if (packet === NO_PACKET) continue;
            if (!target.hasRoom(out, vl, this.packets.sizeBytes[packet]!)) {
              target.blocked(out, vl);
              continue;
            }
            target.dequeue(input, vl, out);
            this.dequeued(input, out, vl);
            this.inRr[input] = out + 1 < n ? out + 1 : 0;
            target.forward(out, input, packet);
            break;
          }
          if (this.readBusy[input]! >= readPorts) return;
        }
      }
      from = 0;
      to = first;
    }
  }
}
