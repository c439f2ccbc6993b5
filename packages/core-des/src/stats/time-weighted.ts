import type { TimePs } from "../time.js";
import { ensureLength } from "../typed-array.js";

export interface TimeWeightedOptions {
  /** Start of the observation window. Default 0. */
  startPs?: TimePs;
  /** Value held from `startPs` until the first update. Default 0. */
  initialValue?: number;
  /** When given, also keep the time-weighted mean of each bin of this width. */
  binWidthPs?: TimePs;
}

/**
 * Time-weighted average of a piecewise-constant signal, such as a queue's occupancy in bytes:
 * each value counts for as long as it was held. Optionally binned, to give the occupancy
 * series of a port over time.
 */
export class TimeWeightedAverage {
  readonly startPs: TimePs;
  readonly binWidthPs: TimePs | undefined;
  #lastPs: TimePs;
  #value: number;
  #area = 0;
  #min: number;
  #max: number;
  #binArea: Float64Array<ArrayBuffer>;

  constructor(options: TimeWeightedOptions = {}) {
    const startPs = options.startPs ?? 0;
    if (!Number.isSafeInteger(startPs) || startPs < 0) {
      throw new RangeError(`startPs must be a non-negative integer, got ${startPs}`);
    }
    const binWidthPs = options.binWidthPs;
    if (binWidthPs !== undefined && (!Number.isSafeInteger(binWidthPs) || binWidthPs <= 0)) {
      throw new RangeError(`binWidthPs must be a positive integer, got ${binWidthPs}`);
    }
    const initial = options.initialValue ?? 0;
    this.startPs = startPs;
    this.binWidthPs = binWidthPs;
    this.#lastPs = startPs;
    this.#value = initial;
    this.#min = initial;
    this.#max = initial;
    this.#binArea = new Float64Array(binWidthPs === undefined ? 0 : 64);
  }

  /** The value held now. */
  get value(): number {
    return this.#value;
  }

  /** Largest value held at any instant. */
  get max(): number {
    return this.#max;
  }

  /** Smallest value held at any instant. */
  get min(): number {
    return this.#min;
  }

  /** The signal takes `value` from `timePs` on (times must not decrease). */
  set(timePs: TimePs, value: number): void {
    this.#advance(timePs);
    this.#value = value;
    if (value > this.#max) this.#max = value;
    if (value < this.#min) this.#min = value;
  }

  /** Adds `delta` to the value from `timePs` on. */
  add(timePs: TimePs, delta: number): void {
    this.set(timePs, this.#value + delta);
  }

  /** Mean over [startPs, untilPs] (the current value extends to `untilPs`). */
  mean(untilPs: TimePs): number {
    this.#checkNotBefore(untilPs);
    const span = untilPs - this.startPs;
    if (span === 0) return this.#value;
    return (this.#area + this.#value * (untilPs - this.#lastPs)) / span;
  }

  /**
   * Time-weighted mean of each bin up to `untilPs` (≥ the last update); the last bin, if
   * partial, is averaged over the part of it that has elapsed. A query: it changes nothing.
   */
  binMeans(untilPs: TimePs): Float64Array {
    const width = this.binWidthPs;
    if (width === undefined) throw new Error("binMeans needs the binWidthPs option");
    this.#checkNotBefore(untilPs);
    const bins = Math.ceil((untilPs - this.startPs) / width);
    const area = new Float64Array(Math.max(bins, this.#binArea.length));
    area.set(this.#binArea);
    this.#spread(area, this.#lastPs, untilPs);
    const out = new Float64Array(bins);
    for (let i = 0; i < bins; i++) {
      const binStart = this.startPs + i * width;
      out[i] = area[i]! / (Math.min(binStart + width, untilPs) - binStart);
    }
    return out;
  }

  #advance(timePs: TimePs): void {
    this.#checkNotBefore(timePs);
    this.#area += this.#value * (timePs - this.#lastPs);
    if (this.binWidthPs !== undefined && timePs > this.#lastPs) {
      const lastBin = Math.ceil((timePs - this.startPs) / this.binWidthPs) - 1;
      this.#binArea = ensureLength(this.#binArea, lastBin + 1);
      this.#spread(this.#binArea, this.#lastPs, timePs);
    }
    this.#lastPs = timePs;
  }

  // Adds the current value's area over [fromPs, toPs) to the bins it covers.
  #spread(area: Float64Array, fromPs: TimePs, toPs: TimePs): void {
    const width = this.binWidthPs!;
    const value = this.#value;
    if (value === 0) return;
    let t = fromPs;
    while (t < toPs) {
      const bin = Math.floor((t - this.startPs) / width);
      const end = Math.min(toPs, this.startPs + (bin + 1) * width);
      area[bin]! += value * (end - t);
      t = end;
    }
  }

  #checkNotBefore(timePs: TimePs): void {
    if (!(timePs >= this.#lastPs)) {
      throw new RangeError(
        `time went backwards: ${timePs} ps after an update at ${this.#lastPs} ps`,
      );
    }
  }
}
