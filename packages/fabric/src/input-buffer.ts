import { nsToPs, type TimePs, TimeWeightedAverage } from "@cclab/core-des";
import { creditBlocks, type FlowControlDiscipline } from "./flow-control.js";
import type { LinkSet } from "./link.js";

/**
 * The fields of one input queue's record in {@link InputBuffers} (an enum: bundling writes
 * its members as literals, where module `const`s become `var`s loaded at every use).
 */
enum Rec {
  /** Bytes held now. */
  Bytes = 0,
  /** Area under the occupancy curve up to `LastPs`, byte·ps. */
  Area = 1,
  /** Time of the last change, ps. */
  LastPs = 2,
  /** Most bytes ever held. */
  Max = 3,
  /** Credit blocks held (credit flow control only). */
  Blocks = 4,
  /** 1 while this buffer has paused its upstream (PFC only). */
  Paused = 5,
  Stride = 8,
}

/**
 * When an input buffer pauses its upstream under PFC (docs/model.md, "Flow control"):
 * - `static`: above `xoffBytes`, resume at or below `xonBytes` (a partitioned buffer, a host);
 * - `dynamic`: one shared memory; above `alpha × max(0, sharedBytes − bytes held in all the
 *   device's buffers)`, resume at or below that threshold less `xonOffsetBytes`.
 */
export type PauseRule =
  | { readonly kind: "static"; readonly xoffBytes: number; readonly xonBytes: number }
  | {
      readonly kind: "dynamic";
      readonly alpha: number;
      readonly sharedBytes: number;
      readonly xonOffsetBytes: number;
    };

/** What a device's input buffers are built for. */
export interface InputBufferSetup {
  readonly portCount: number;
  readonly vlCount: number;
  readonly discipline: FlowControlDiscipline;
  /** The fabric's links: credits and pause frames go back over the link into each port. */
  readonly links: LinkSet;
  /** Required under PFC. */
  readonly pauseRule?: PauseRule;
  /** Start of the occupancy averages, ps. */
  readonly startPs: TimePs;
  /** When set, occupancy per port and VL is also kept in bins this wide, ns. */
  readonly occupancyBinNs?: number | null;
}

/**
 * The input buffers of one device, per port and VL: the bytes and credit blocks each holds, its
 * occupancy over time, and the rule that gives buffer space back to the upstream port: credits
 * returned when a packet's last byte leaves the buffer, or PFC XOFF/XON (docs/model.md, "Flow
 * control"). A switch has one per input port and VL, a host one per VL of its receive port: the
 * rule is written here once.
 *
 * Each (port, VL) queue `q = port * vlCount + vl` is one 64-byte record: every packet that
 * arrives or leaves updates bytes, occupancy and credits together, so they share a cache line.
 */
export class InputBuffers {
  readonly portCount: number;
  readonly vlCount: number;
  /**
   * Per queue, the most bytes it ever held: written when that grows (an invariant check reads
   * it any time). The running figure is in the queue's record.
   */
  readonly peakBytes: Float64Array;
  /** Bytes held in all the device's input buffers now (the shared memory in use). */
  totalBytes = 0;
  /** The most bytes ever held in all of them at once. */
  maxTotalBytes = 0;

  private readonly credit: boolean;
  private readonly links: LinkSet;
  private readonly rec: Float64Array;
  /** The link arriving at each port (−1: not cabled). */
  private readonly inLink: Int32Array;
  private readonly startPs: TimePs;
  private readonly series: TimeWeightedAverage[] | undefined;
  // The pause rule as numbers (a function or an object read per packet was not inlined by V8,
  // and returned a heap number per packet-hop): `xoffAlpha` 0 means a static XOFF.
  private readonly xoffAlpha: number;
  private readonly xoffSharedBytes: number;
  private readonly xoffBytes: number;
  private readonly xonBytes: number;
  private readonly xonOffsetBytes: number;
  /** Queues that have paused their upstream now: lets XON checks skip the scan when none has. */
  private pausedCount = 0;

  constructor(setup: InputBufferSetup) {
    const { portCount, vlCount } = setup;
    const queues = portCount * vlCount;
    this.portCount = portCount;
    this.vlCount = vlCount;
    this.credit = setup.discipline === "credit";
    this.links = setup.links;
    this.peakBytes = new Float64Array(queues);
    this.rec = new Float64Array(queues * Rec.Stride);
    this.inLink = new Int32Array(portCount).fill(-1);
    this.startPs = setup.startPs;
    for (let q = 0; q < queues; q++) this.rec[q * Rec.Stride + Rec.LastPs] = setup.startPs;
    const binNs = setup.occupancyBinNs ?? null;
    this.series =
      binNs === null
        ? undefined
        : Array.from(
            { length: queues },
            () => new TimeWeightedAverage({ startPs: setup.startPs, binWidthPs: nsToPs(binNs) }),
          );
    const rule = setup.pauseRule;
    if (setup.discipline === "pfc" && rule === undefined) {
      throw new TypeError("input buffers under PFC need a pause rule (XOFF/XON thresholds)");
    }
    const dynamic = rule?.kind === "dynamic";
    this.xoffAlpha = dynamic ? rule.alpha : 0;
    this.xoffSharedBytes = dynamic ? rule.sharedBytes : 0;
    this.xonOffsetBytes = dynamic ? rule.xonOffsetBytes : 0;
    this.xoffBytes = rule?.kind === "static" ? rule.xoffBytes : Number.POSITIVE_INFINITY;
    this.xonBytes = rule?.kind === "static" ? rule.xonBytes : Number.POSITIVE_INFINITY;
  }

  /** Attaches the link arriving at `port`: credits and pause frames go back over it. */
  attach(port: number, linkIndex: number): void {
    this.inLink[port] = linkIndex;
  }

  /** Bytes held at (`port`, `vl`) now. */
  bytes(port: number, vl: number): number {
    return this.rec[(port * this.vlCount + vl) * Rec.Stride + Rec.Bytes]!;
  }

  /** Credit blocks held at (`port`, `vl`) now (kept under credit flow control only). */
  blocks(port: number, vl: number): number {
    return this.rec[(port * this.vlCount + vl) * Rec.Stride + Rec.Blocks]!;
  }

  /** True while (`port`, `vl`) has paused its upstream (PFC). */
  pausedUpstream(port: number, vl: number): boolean {
    return this.rec[(port * this.vlCount + vl) * Rec.Stride + Rec.Paused] === 1;
  }

  /**
   * A packet of `sizeBytes` is buffered at (`port`, `vl`): it takes its credit blocks, or, under
   * PFC, the queue pauses its upstream if it is now above its XOFF threshold.
   */
  arrive(port: number, vl: number, sizeBytes: number, nowPs: TimePs): void {
    const q = port * this.vlCount + vl;
    const r = q * Rec.Stride;
    const bytes = this.change(q, r, sizeBytes, nowPs);
    const rec = this.rec;
    if (this.credit) rec[r + Rec.Blocks]! += creditBlocks(sizeBytes);
    else if (rec[r + Rec.Paused] === 0 && bytes > this.xoffThreshold()) {
      rec[r + Rec.Paused] = 1;
      this.pausedCount++;
      this.links.sendPause(this.inLink[port]!, vl, true);
    }
  }

  /**
   * A packet of `sizeBytes` has left (`port`, `vl`) (its last byte has left, or it was
   * dropped): its credit blocks go back to the upstream port, or, under PFC, paused queues at
   * or below their XON threshold resume their upstream.
   */
  leave(port: number, vl: number, sizeBytes: number, nowPs: TimePs): void {
    const q = port * this.vlCount + vl;
    const r = q * Rec.Stride;
    const bytes = this.change(q, r, -sizeBytes, nowPs);
    if (this.credit) {
      const blocks = creditBlocks(sizeBytes);
      this.rec[r + Rec.Blocks]! -= blocks;
      this.links.returnCredits(this.inLink[port]!, vl, blocks);
    } else if (this.xoffAlpha === 0) {
      if (this.rec[r + Rec.Paused] === 1 && bytes <= this.xonBytes) this.resume(q);
    } else if (this.pausedCount !== 0) {
      // Shared memory: freeing bytes anywhere raises every queue's threshold, so every paused
      // queue is checked (few are paused at once, and mostly none).
      const xon = this.xoffThreshold() - this.xonOffsetBytes;
      const rec = this.rec;
      for (let k = 0; k < this.peakBytes.length; k++) {
        const rk = k * Rec.Stride;
        if (rec[rk + Rec.Paused] === 1 && rec[rk + Rec.Bytes]! <= xon) this.resume(k);
      }
    }
  }

  /** Time-weighted mean bytes held at (`port`, `vl`) from the start up to `untilPs`. */
  meanBytes(port: number, vl: number, untilPs: TimePs): number {
    const r = (port * this.vlCount + vl) * Rec.Stride;
    const span = untilPs - this.startPs;
    const bytes = this.rec[r + Rec.Bytes]!;
    if (span === 0) return bytes;
    return (this.rec[r + Rec.Area]! + bytes * (untilPs - this.rec[r + Rec.LastPs]!)) / span;
  }

  /** Most bytes (`port`, `vl`) ever held. */
  maxBytes(port: number, vl: number): number {
    return this.rec[(port * this.vlCount + vl) * Rec.Stride + Rec.Max]!;
  }

  /** Mean bytes held at (`port`, `vl`) in each bin up to `untilPs` (only with `occupancyBinNs`). */
  binnedBytes(port: number, vl: number, untilPs: TimePs): Float64Array | undefined {
    return this.series?.[port * this.vlCount + vl]?.binMeans(untilPs);
  }

  // Queue q (record at r) gains `delta` bytes now; returns the bytes it holds.
  private change(q: number, r: number, delta: number, nowPs: TimePs): number {
    const rec = this.rec;
    const before = rec[r + Rec.Bytes]!;
    const bytes = before + delta;
    rec[r + Rec.Bytes] = bytes;
    rec[r + Rec.Area]! += before * (nowPs - rec[r + Rec.LastPs]!);
    rec[r + Rec.LastPs] = nowPs;
    if (bytes > rec[r + Rec.Max]!) {
      rec[r + Rec.Max] = bytes;
      this.peakBytes[q] = bytes;
    }
    this.totalBytes += delta;
    if (this.totalBytes > this.maxTotalBytes) this.maxTotalBytes = this.totalBytes;
    const series = this.series;
    if (series !== undefined) series[q]!.set(nowPs, bytes);
    return bytes;
  }

  private xoffThreshold(): number {
    const alpha = this.xoffAlpha;
    if (alpha === 0) return this.xoffBytes;
    // Dynamic threshold: alpha × free shared memory.
    return alpha * Math.max(0, this.xoffSharedBytes - this.totalBytes);
  }

  private resume(q: number): void {
    this.rec[q * Rec.Stride + Rec.Paused] = 0;
    this.pausedCount--;
    this.links.sendPause(this.inLink[Math.floor(q / this.vlCount)]!, q % this.vlCount, false);
  }
}
