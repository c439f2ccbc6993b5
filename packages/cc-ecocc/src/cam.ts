/**
 * CAM lines (Paper VI, seed 001 L2269–2273). A line names a congestion tree by the output port
 * it leaves through here (`op`), its distance to the root (`hops`, 1 at the root's switch) and
 * the destinations whose packets are hot in it (`dList`). Input lines belong to a queue: a
 * root line to the CPQ that detected the root, an HPQ line to its hot queue. Output lines hold
 * what the downstream neighbour allocated; an input line made from one is linked to it, and
 * takes its stop bit from it.
 */

/** A line of an output port's CAM: one the device downstream of that port allocated. */
export class OutputLine {
  /** Set by the downstream neighbour's stop, cleared by its go (L2269, L2285). */
  stop = false;
  /** The input lines of this switch made from this one (internal propagation, L2273). */
  readonly linked = new Set<InputLine>();

  constructor(
    readonly port: number,
    /** The downstream sender's number for the line (the paper's NextLine, L2273). */
    readonly remote: number,
    public hops: number,
    public dList: ReadonlySet<number>,
  ) {}
}

/** A line of an input port's CAM. */
export class InputLine {
  /** The output line this one was made from (its stop bit holds the HPQ), if any. */
  outLine: OutputLine | undefined = undefined;
  /** A stop was sent upstream and no go since (L2285). */
  sentStop = false;
  /** The line was sent upstream (an allocate) and not yet deallocated (L2285). */
  propagated = false;
  /** The line lost its output line to a deallocate and may be linked to a new one. */
  orphan = false;

  constructor(
    /** Its number on the link (what the upstream neighbour's output line calls `remote`). */
    readonly id: number,
    /** The HPQ it owns, or −1 for a root line (its queue is the CPQ of `op`). */
    readonly hpq: number,
    readonly op: number,
    public hops: number,
    private ownDList: ReadonlySet<number>,
  ) {}

  /** The destinations it isolates: its output line's while linked, else its own. */
  get dList(): ReadonlySet<number> {
    return this.outLine === undefined ? this.ownDList : this.outLine.dList;
  }

  /** True while the downstream neighbour holds this line's queue (stop without go). */
  get stopped(): boolean {
    return this.outLine?.stop === true;
  }

  link(line: OutputLine): void {
    this.outLine = line;
    this.hops = line.hops + 1;
    this.orphan = false;
    line.linked.add(this);
  }

  /** Drops the link (its output line was deallocated), keeping the destinations it had. */
  unlink(): void {
    const line = this.outLine;
    if (line === undefined) return;
    this.ownDList = line.dList;
    line.linked.delete(this);
    this.outLine = undefined;
    this.orphan = true;
  }
}

/** The output CAMs of one switch: per port, its lines in allocation order. */
export class OutputCams {
  private readonly lines: OutputLine[][];

  constructor(
    portCount: number,
    private readonly linesPerPort: number,
  ) {
    this.lines = Array.from({ length: portCount }, () => []);
  }

  /**
   * Stores a line the downstream neighbour of `port` allocated, replacing one it sent before
   * under the same number; undefined when the CAM is full (the allocate is then ignored).
   */
  allocate(
    port: number,
    remote: number,
    hops: number,
    dList: ReadonlySet<number>,
  ): OutputLine | undefined {
    const existing = this.find(port, remote);
    if (existing !== undefined) {
      existing.hops = hops;
      existing.dList = dList;
      return existing;
    }
    const lines = this.lines[port]!;
    if (lines.length >= this.linesPerPort) return undefined;
    const line = new OutputLine(port, remote, hops, dList);
    lines.push(line);
    return line;
  }

  find(port: number, remote: number): OutputLine | undefined {
    for (const line of this.lines[port]!) if (line.remote === remote) return line;
    return undefined;
  }

  /** Removes and returns the line, if the CAM holds it. */
  free(port: number, remote: number): OutputLine | undefined {
    const lines = this.lines[port]!;
    const i = lines.findIndex((l) => l.remote === remote);
    return i < 0 ? undefined : lines.splice(i, 1)[0];
  }

  /** The first-allocated line of `port` that holds `dst`. */
  matching(port: number, dst: number): OutputLine | undefined {
    const lines = this.lines[port]!;
    for (let i = 0; i < lines.length; i++) if (lines[i]!.dList.has(dst)) return lines[i];
    return undefined;
  }

  inUse(port: number): number {
    return this.lines[port]!.length;
  }
}
