import type { Marking, Roots } from "./params.js";

/**
 * The marking state of one switch (docs/design/santos.md, "Marking"): the slides' two counters
 * per output (seed 002_fea465e6cd934ce6.txt L127–132) and, per input, how many of its packets
 * are headed to each output. It never scans packets: a marking event sets how many of the
 * packets headed to an output are to be marked, and they are marked as they leave.
 *
 * - CNT_1 (`headedTo`): packets in the switch headed to each output.
 * - CNT_2 (`toMark`): of those, how many leave marked. An event on output o sets it to CNT_1,
 *   so every packet then in the switch for o is marked, whichever input it waits at. The next
 *   CNT_2 packets to leave for o are marked: with the inputs served in any order these are not
 *   always the very packets that were there, but as many of them.
 * - naive marking counts per input instead: a full input marks the packets it holds, which in
 *   a FIFO input are the next ones to leave it.
 * - The roots of a full input (input and input-output marking) are the outputs of all its
 *   packets (`all`), or of its oldest packet only (`oldest`: the packet a FIFO input is blocked
 *   by); the latter keeps the outputs of the packets in arrival order per input.
 */
export class MarkingCounters {
  /** Marking events (an input became full, or an output passed its threshold). */
  inputTriggers = 0;
  outputTriggers = 0;

  private readonly ports: number;
  private readonly headedTo: Int32Array;
  private readonly toMark: Int32Array;
  /** [input · ports + output]: packets at `input` headed to `output`. */
  private readonly atInput: Int32Array;
  private readonly heldAt: Int32Array;
  private readonly naiveToMark: Int32Array;

  /** [input]: the outputs of its packets in arrival order (roots `oldest`, input marking). */
  private readonly arrivalOrder: number[][];
  private readonly keepOrder: boolean;

  constructor(
    ports: number,
    private readonly marking: Marking,
    private readonly outputThresholdPackets: number,
    private readonly roots: Roots,
  ) {
    this.ports = ports;
    this.headedTo = new Int32Array(ports);
    this.toMark = new Int32Array(ports);
    this.atInput = new Int32Array(ports * ports);
    this.heldAt = new Int32Array(ports);
    this.naiveToMark = new Int32Array(ports);
    this.keepOrder = roots === "oldest" && (marking === "input" || marking === "input-output");
    this.arrivalOrder = this.keepOrder ? Array.from({ length: ports }, () => []) : [];
  }

  /**
   * A data packet entered the buffer of `input`, headed to `output`; `full` is true when that
   * buffer now has no room for another packet of its size.
   */
  arrived(input: number, output: number, full: boolean): void {
    this.headedTo[output]!++;
    this.atInput[input * this.ports + output]!++;
    this.heldAt[input]!++;
    if (this.keepOrder) this.arrivalOrder[input]!.push(output);
    switch (this.marking) {
      case "none":
        return;
      case "naive":
        if (full) {
          this.inputTriggers++;
          this.naiveToMark[input] = this.heldAt[input]!;
        }
        return;
      case "input-output":
        if (this.headedTo[output]! > this.outputThresholdPackets) {
          this.outputTriggers++;
          this.toMark[output] = this.headedTo[output]!;
        }
        if (full) this.inputFull(input);
        return;
      case "input":
        if (full) this.inputFull(input);
        return;
    }
  }

  /** A data packet leaves `input` for `output`: true when it leaves marked. */
  departs(input: number, output: number): boolean {
    this.headedTo[output]!--;
    this.atInput[input * this.ports + output]!--;
    this.heldAt[input]!--;
    if (this.keepOrder) {
      // The oldest packet for `output` leaves (packets for one output leave an input in order).
      // Removed in place: splice would allocate its result array per packet.
      const order = this.arrivalOrder[input]!;
      for (let i = order.indexOf(output); i < order.length - 1; i++) order[i] = order[i + 1]!;
      order.pop();
    }
    if (this.marking === "naive") {
      if (this.naiveToMark[input]! === 0) return false;
      this.naiveToMark[input]!--;
      return true;
    }
    if (this.toMark[output]! === 0) return false;
    this.toMark[output]!--;
    return true;
  }

  /** Packets in the switch headed to `output` (CNT_1). */
  packetsHeadedTo(output: number): number {
    return this.headedTo[output]!;
  }

  /** Of those, how many will leave marked (CNT_2; naive marking keeps its count per input). */
  packetsToMark(output: number): number {
    return this.toMark[output]!;
  }

  // Every output a packet of the full buffer is headed to is a root (or, with roots `oldest`,
  // the output of its oldest packet): all the switch holds for it is marked (L121–123).
  private inputFull(input: number): void {
    this.inputTriggers++;
    if (this.roots === "oldest") {
      const root = this.arrivalOrder[input]![0]!;
      this.toMark[root] = this.headedTo[root]!;
      return;
    }
    const base = input * this.ports;
    for (let output = 0; output < this.ports; output++) {
      if (this.atInput[base + output]! > 0) this.toMark[output] = this.headedTo[output]!;
    }
  }
}
