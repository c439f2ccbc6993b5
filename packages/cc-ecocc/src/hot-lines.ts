import { InputLine, type OutputLine } from "./cam.js";

/**
 * The hot queues of one input and their CAM lines (EcoCC's HPQs, CCFIT's CFQs): which queue is
 * free, which line holds a packet, and the allocation and release of a queue with its line.
 */
export class HotLines {
  private readonly lines: (InputLine | undefined)[];

  constructor(
    queues: number,
    /** Line number on the link of hot queue 0 (the others follow). */
    private readonly firstId: number,
    /** Counts a hot queue allocated, or a packet that found none free. */
    private readonly count: (event: "hotQueueAllocated" | "hotQueueMisses") => void,
  ) {
    this.lines = new Array<InputLine | undefined>(queues).fill(undefined);
  }

  get free(): number {
    let free = 0;
    for (const line of this.lines) if (line === undefined) free++;
    return free;
  }

  get inUse(): number {
    return this.lines.length - this.free;
  }

  /** The line of hot queue `h`, if allocated. */
  at(h: number): InputLine | undefined {
    return this.lines[h];
  }

  /** The line that takes a packet for `out` and `dst`: the oldest whose destinations hold it. */
  lineFor(out: number, dst: number): InputLine | undefined {
    let first: InputLine | undefined;
    for (const line of this.lines) {
      if (line === undefined || line.op !== out || !line.dList.has(dst)) continue;
      if (first === undefined || line.id < first.id) first = line;
    }
    return first;
  }

  /** A free hot queue with a new line, or undefined (counted as a miss). */
  allocate(out: number, hops: number, dList: ReadonlySet<number>): InputLine | undefined {
    const h = this.lines.indexOf(undefined);
    if (h < 0) {
      this.count("hotQueueMisses");
      return undefined;
    }
    const line = new InputLine(this.firstId + h, h, out, hops, dList);
    this.lines[h] = line;
    this.count("hotQueueAllocated");
    return line;
  }

  /** Frees hot queue `h` and unlinks its line. */
  release(h: number): InputLine {
    const line = this.lines[h]!;
    this.lines[h] = undefined;
    line.unlink();
    return line;
  }

  /**
   * Lines of `out` that lost their output line to a deallocate join `line`, a new output line of
   * the same output, if it holds one of their destinations.
   */
  relinkOrphans(out: number, line: OutputLine): void {
    for (const own of this.lines) {
      if (own === undefined || !own.orphan || own.op !== out) continue;
      for (const dst of own.dList) {
        if (line.dList.has(dst)) {
          own.link(line);
          break;
        }
      }
    }
  }
}
