import { InputLine, type OutputLine } from "./cam.js";
import type { HotQueuesHost } from "./hot-queues.js";

/**
 * The hot queues of one input and their CAM lines (EcoCC's HPQs, CCFIT's CFQs): which queue is
 * free, which line holds a packet, the allocation and release of a queue with its line, and
 * what a line of this input tells the upstream neighbour (allocate, stop, go, deallocate; EcoCC's
 * root lines too, which own no hot queue).
 */
export class HotLines {
  private readonly lines: (InputLine | undefined)[];

  constructor(
    queues: number,
    /** Line number on the link of hot queue 0 (the others follow). */
    private readonly firstId: number,
    private readonly host: Pick<HotQueuesHost, "send" | "count">,
    /** The input these lines belong to: messages leave through it, upstream. */
    private readonly inPort: number,
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
      this.host.count("hotQueueMisses");
      return undefined;
    }
    const line = new InputLine(this.firstId + h, h, out, hops, dList);
    this.lines[h] = line;
    this.host.count("hotQueueAllocated");
    return line;
  }

  /**
   * After hot queue `h` lost a packet and holds `packets`: the go its line owes at `goPackets`,
   * then, once empty with no stop pending, the queue and its line are freed and the upstream
   * neighbour told (L2003, L2287). True when it was freed.
   */
  drained(h: number, packets: number, goPackets: number): boolean {
    const line = this.lines[h]!;
    this.goAt(line, packets, goPackets);
    if (packets !== 0 || line.sentStop) return false;
    this.lines[h] = undefined;
    line.unlink();
    this.host.count("hotQueueReleased");
    if (line.propagated) this.send("deallocate", line);
    return true;
  }

  /** Sends `line` upstream (allocate), once. */
  propagate(line: InputLine): void {
    if (line.propagated) return;
    line.propagated = true;
    this.send("allocate", line);
  }

  /** Stops the upstream queue of `line`, unless a stop is already pending. */
  stop(line: InputLine): void {
    if (line.sentStop) return;
    line.sentStop = true;
    this.send("stop", line);
  }

  /** Lets the upstream queue of `line` go, if it was stopped, once its queue holds ≤ `at`. */
  goAt(line: InputLine, packets: number, at: number): void {
    if (!line.sentStop || packets > at) return;
    line.sentStop = false;
    this.send("go", line);
  }

  /** Tells the upstream neighbour that `line`, sent to it, is gone. */
  deallocate(line: InputLine): void {
    if (line.propagated) this.send("deallocate", line);
  }

  private send(type: "allocate" | "stop" | "go" | "deallocate", line: InputLine): void {
    this.host.send(this.inPort, type, line);
  }

  /**
   * Lines of `out` that lost their output line to a deallocate join `line`, a new output line of
   * the same output, if it holds one of their destinations; with `joinLocal`, so do lines made
   * here for a local root (never linked), so that the downstream's stop and go hold their queue.
   */
  relinkOrphans(out: number, line: OutputLine, joinLocal = false): void {
    for (const own of this.lines) {
      if (own === undefined || own.op !== out) continue;
      if (!own.orphan && !(joinLocal && own.outLine === undefined)) continue;
      for (const dst of own.dList) {
        if (line.dList.has(dst)) {
          own.link(line);
          break;
        }
      }
    }
  }
}
