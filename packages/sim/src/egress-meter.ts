import type { Scheduler, TimePs } from "@cclab/core-des";
import {
  type CcScheme,
  FROM_OUTPUT_BUFFER,
  type PacketId,
  type Packets,
  type SwitchPart,
  type SwitchPartContext,
} from "@cclab/fabric";

/** One output port and VL's egress queue over a run: mean and maximum bytes per bin. */
export interface EgressSeries {
  readonly port: number;
  readonly vl: number;
  readonly meanBytes: Float64Array;
  readonly maxBytes: Float64Array;
}

/** Fields of a queue's record in `EgressQueues.rec`. */
enum Rec {
  Bytes = 0,
  /** The last change. */
  LastPs = 1,
  /** The bin of the last change, and where it ends. */
  Bin = 2,
  BinEndPs = 3,
  Stride = 4,
}

/**
 * The egress queues of one switch (docs/model.md, "What is measured"): per output port and VL
 * the bytes of every packet routed there, from its enqueue at an input until it starts on the
 * output link (the queue DCQCN, TCD and BCN decide on; packages/cc-dcqcn/src/switch-part.ts).
 * Keeps, per bin of `binPs` from time 0, the area under the queue (byte·ps) and its highest
 * value; arrays are made the first time a queue holds bytes, so idle ports cost nothing.
 */
export class EgressQueues {
  private readonly rec: Float64Array;
  private readonly area: (Float64Array | undefined)[];
  private readonly max: (Float64Array | undefined)[];

  constructor(
    readonly portCount: number,
    readonly vlCount: number,
    private readonly binPs: TimePs,
  ) {
    if (!Number.isSafeInteger(binPs) || binPs <= 0) {
      throw new RangeError(`binPs must be a positive integer, got ${binPs}`);
    }
    const queues = portCount * vlCount;
    // BinEndPs 0: a queue's first change takes the slow path, which makes its arrays.
    this.rec = new Float64Array(queues * Rec.Stride);
    this.area = new Array(queues).fill(undefined);
    this.max = new Array(queues).fill(undefined);
  }

  /** Bytes in the egress queue of (`port`, `vl`) now. */
  bytesOf(port: number, vl: number): number {
    return this.rec[(port * this.vlCount + vl) * Rec.Stride + Rec.Bytes]!;
  }

  /** The queue of (`port`, `vl`) gains `deltaBytes` (negative: loses) at `nowPs`. */
  change(port: number, vl: number, deltaBytes: number, nowPs: TimePs): void {
    const q = port * this.vlCount + vl;
    const r = q * Rec.Stride;
    const rec = this.rec;
    const before = rec[r + Rec.Bytes]!;
    // Most changes fall in the bin of the one before (a bin is µs, packets ns apart): the
    // value held since then adds to that bin's area, and its maximum already counts it.
    if (nowPs < rec[r + Rec.BinEndPs]!) {
      if (before !== 0)
        this.area[q]![rec[r + Rec.Bin]!]! += before * (nowPs - rec[r + Rec.LastPs]!);
    } else {
      const bin = Math.floor(nowPs / this.binPs);
      this.grow(q, bin);
      addHeld(this.area[q]!, this.max[q]!, this.binPs, before, rec[r + Rec.LastPs]!, nowPs);
      rec[r + Rec.Bin] = bin;
      rec[r + Rec.BinEndPs] = (bin + 1) * this.binPs;
    }
    rec[r + Rec.LastPs] = nowPs;
    const after = before + deltaBytes;
    rec[r + Rec.Bytes] = after;
    const max = this.max[q]!;
    const bin = rec[r + Rec.Bin]!;
    if (after > max[bin]!) max[bin] = after;
  }

  /**
   * Mean and maximum per bin up to `untilPs` (the last bin, if partial, over its elapsed
   * part) of every queue that ever held bytes, by port then VL. A query: it changes nothing.
   */
  series(untilPs: TimePs): EgressSeries[] {
    const bins = Math.ceil(untilPs / this.binPs);
    const out: EgressSeries[] = [];
    for (let q = 0; q < this.area.length; q++) {
      const area = this.area[q];
      if (area === undefined) continue;
      const meanBytes = new Float64Array(bins);
      const maxBytes = new Float64Array(bins);
      meanBytes.set(area.subarray(0, bins));
      maxBytes.set(this.max[q]!.subarray(0, bins));
      // What the queue holds now counts up to the end of the run.
      const r = q * Rec.Stride;
      const held = this.rec[r + Rec.Bytes]!;
      addHeld(meanBytes, maxBytes, this.binPs, held, this.rec[r + Rec.LastPs]!, untilPs);
      for (let i = 0; i < bins; i++) {
        const start = i * this.binPs;
        meanBytes[i]! /= Math.min(start + this.binPs, untilPs) - start;
      }
      out.push({ port: Math.floor(q / this.vlCount), vl: q % this.vlCount, meanBytes, maxBytes });
    }
    return out;
  }

  // Queue q's arrays, with room up to `bin`.
  private grow(q: number, bin: number): void {
    const max = this.max[q];
    if (max !== undefined && max.length > bin) return;
    const length = Math.max(16, 2 ** Math.ceil(Math.log2(bin + 1)));
    const area = new Float64Array(length);
    const grown = new Float64Array(length);
    if (max !== undefined) {
      area.set(this.area[q]!);
      grown.set(max);
    }
    this.area[q] = area;
    this.max[q] = grown;
  }
}

// Adds `value` held over [fromPs, toPs) to the area and maximum of each bin it covers (bins
// past the arrays' end are left out: they lie past the end of the run).
function addHeld(
  area: Float64Array,
  max: Float64Array,
  binPs: TimePs,
  value: number,
  fromPs: TimePs,
  toPs: TimePs,
): void {
  if (value === 0) return;
  let t = fromPs;
  while (t < toPs) {
    const bin = Math.floor(t / binPs);
    if (bin >= area.length) return;
    const end = Math.min(toPs, (bin + 1) * binPs);
    area[bin]! += value * (end - t);
    if (value > max[bin]!) max[bin] = value;
    t = end;
  }
}

/**
 * Measures the egress queues of every switch of a run, as a switch part that only observes
 * (installed after the run's own CC parts through the network's `switchCc`, only when the
 * `egress-occupancy` series is asked for: other runs pay nothing). It draws no random number,
 * sends nothing and changes no packet, so the run is the same with it.
 */
export class EgressMeter {
  private readonly switches: (EgressQueues | undefined)[] = [];

  /** `outputBuffered`: the switches have output buffers (`switch.outputBufferBytes` > 0). */
  constructor(
    readonly binPs: TimePs,
    private readonly outputBuffered: boolean,
  ) {}

  /** The queues of switch `index` (undefined before the network installs the part). */
  of(index: number): EgressQueues | undefined {
    return this.switches[index];
  }

  /** The scheme whose switch part feeds this meter. */
  scheme(): CcScheme {
    const name = "egress-occupancy meter";
    return {
      specVersion: "^3.0.0",
      name,
      switchPart: {
        specVersion: "^3.0.0",
        name,
        create: (context) => {
          const queues = new EgressQueues(context.portCount, context.port(0).vlCount, this.binPs);
          this.switches[context.switchIndex] = queues;
          return egressPart(queues, context, this.outputBuffered);
        },
      },
    };
  }
}

/**
 * The hooks: a packet joins at its enqueue and leaves when it starts on the output link.
 * Classes, not objects of closures: one switch's closures would be other functions than the
 * next one's, and the switch's call sites would then make a full call each time (see
 * packages/fabric-switch/src/port-view.ts).
 */
class EgressPart implements SwitchPart {
  constructor(
    private readonly queues: EgressQueues,
    private readonly packets: Packets,
    private readonly scheduler: Scheduler,
  ) {}

  onEnqueue(packet: PacketId): void {
    const p = this.packets;
    const size = p.sizeBytes[packet]!;
    this.queues.change(p.outPort[packet]!, p.vl[packet]!, size, this.scheduler.nowPs);
  }

  protected leave(packet: PacketId): void {
    const p = this.packets;
    const size = p.sizeBytes[packet]!;
    this.queues.change(p.outPort[packet]!, p.vl[packet]!, -size, this.scheduler.nowPs);
  }
}

/**
 * Without output buffers a packet starts on the link at its grant (`onDequeue`, the same
 * instant), which also sees a packet a scheme drops at a queue head.
 */
class InputQueuedEgressPart extends EgressPart {
  onDequeue(packet: PacketId): void {
    this.leave(packet);
  }
}

/**
 * With output buffers it leaves when it starts from the output buffer; the switch's own
 * control packets (FROM_SWITCH_CONTROL) never joined.
 */
class OutputBufferedEgressPart extends EgressPart {
  onTransmit(packet: PacketId, inPort: number): void {
    if (inPort === FROM_OUTPUT_BUFFER) this.leave(packet);
  }
}

function egressPart(
  queues: EgressQueues,
  context: SwitchPartContext,
  outputBuffered: boolean,
): SwitchPart {
  const { packets, scheduler } = context;
  return outputBuffered
    ? new OutputBufferedEgressPart(queues, packets, scheduler)
    : new InputQueuedEgressPart(queues, packets, scheduler);
}
