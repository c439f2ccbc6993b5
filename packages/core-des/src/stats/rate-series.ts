import { rateGbps, type TimePs } from "../time.js";
import { ensureLength } from "../typed-array.js";

/**
 * Bytes counted into fixed-width time bins, read back as a rate: the throughput of a flow
 * or a port over time (docs/model.md, "What is measured": payload bytes delivered in a bin × 8 /
 * bin width). Bin `i` covers [startPs + i·binWidthPs, startPs + (i+1)·binWidthPs).
 */
export class RateSeries {
  readonly binWidthPs: TimePs;
  readonly startPs: TimePs;
  #bytes = new Float64Array(64);
  #bins = 0;
  #totalBytes = 0;

  constructor(binWidthPs: TimePs, startPs: TimePs = 0) {
    if (!Number.isSafeInteger(binWidthPs) || binWidthPs <= 0) {
      throw new RangeError(`binWidthPs must be a positive integer, got ${binWidthPs}`);
    }
    if (!Number.isSafeInteger(startPs) || startPs < 0) {
      throw new RangeError(`startPs must be a non-negative integer, got ${startPs}`);
    }
    this.binWidthPs = binWidthPs;
    this.startPs = startPs;
  }

  /** Counts `bytes` at `timePs` (≥ startPs). */
  add(timePs: TimePs, bytes: number): void {
    if (!(timePs >= this.startPs)) {
      throw new RangeError(`time ${timePs} ps is before the series start ${this.startPs} ps`);
    }
    const bin = Math.floor((timePs - this.startPs) / this.binWidthPs);
    if (bin >= this.#bins) {
      this.#bytes = ensureLength(this.#bytes, bin + 1);
      this.#bins = bin + 1;
    }
    this.#bytes[bin]! += bytes;
    this.#totalBytes += bytes;
  }

  /** Bins up to the last one that received bytes, or up to the one containing `untilPs`. */
  binCount(untilPs?: TimePs): number {
    if (untilPs === undefined) return this.#bins;
    return Math.max(this.#bins, Math.ceil((untilPs - this.startPs) / this.binWidthPs));
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Bytes per bin (a copy), `binCount(untilPs)` long. */
  bytesPerBin(untilPs?: TimePs): Float64Array {
    const out = new Float64Array(this.binCount(untilPs));
    out.set(this.#bytes.subarray(0, this.#bins));
    return out;
  }

  /** Rate per bin in Gb/s: bytes × 8 / bin width (1 Gb/s = 1 bit per 1000 ps). */
  gbps(untilPs?: TimePs): Float64Array {
    const out = this.bytesPerBin(untilPs);
    for (let i = 0; i < out.length; i++) out[i] = rateGbps(out[i]!, this.binWidthPs);
    return out;
  }

  /** Start time of bin `i`. */
  binStartPs(i: number): TimePs {
    return this.startPs + i * this.binWidthPs;
  }
}
