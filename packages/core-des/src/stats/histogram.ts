import { ensureLength } from "../typed-array.js";
import { nearestRank, nearestRankOf } from "./quantile.js";

export interface HistogramOptions {
  /**
   * Relative accuracy α of quantiles once the sample outgrows `exactLimit`: the reported
   * value v̂ of a true value v satisfies |v̂ − v| ≤ α·v. Default 0.005 (0.5 %).
   */
  relativeAccuracy?: number;
  /** Samples kept verbatim; up to this count quantiles are exact. Default 1024. */
  exactLimit?: number;
  /**
   * Most buckets kept. With α = 0.005 the default 4096 spans a ratio of 10^17 between the
   * smallest and largest value; beyond it the lowest buckets merge, so only low quantiles
   * lose accuracy. Default 4096.
   */
  maxBuckets?: number;
}

/** Count, mean, extremes and the usual latency percentiles of a {@link Histogram}. */
export interface HistogramSummary {
  count: number;
  mean: number;
  min: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/**
 * Distribution of non-negative values (latencies, completion times, slowdowns) with
 * quantiles at bounded memory.
 *
 * Quantiles follow the nearest-rank rule (docs/model.md, "What is measured"): the value of
 * rank ⌈q·n⌉ in sorted order.
 * The first `exactLimit` samples are also kept verbatim, so small samples get exact answers.
 * Every sample goes into logarithmic buckets as in DDSketch (Masson, Rim & Lee, VLDB 2019):
 * bucket i holds values in (γ^(i−1), γ^i] with γ = (1+α)/(1−α), and reports 2γ^i/(γ+1), which
 * is within α of every value in the bucket. Zeros are counted apart. Min, max, count and sum
 * are exact.
 */
export class Histogram {
  readonly relativeAccuracy: number;
  readonly exactLimit: number;
  readonly maxBuckets: number;
  readonly #logGamma: number;
  readonly #gamma: number;

  #count = 0;
  #sum = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;
  #zeros = 0;
  // The first `exactLimit` samples, in a typed array that doubles as it fills: sorting it is
  // the engine's numeric sort, where a JS array sorted with a comparator function called back
  // for every comparison (4 M completion times: seconds at the end of a run).
  #exact = new Float64Array(0);
  #exactCount = 0;
  #sorted = true;
  // Dense bucket counts for indices [#offset, #offset + #span).
  #buckets = new Float64Array(0);
  #offset = 0;
  #span = 0;

  constructor(options: HistogramOptions = {}) {
    const alpha = options.relativeAccuracy ?? 0.005;
    if (!(alpha > 0 && alpha < 1)) {
      throw new RangeError(`relativeAccuracy must be in (0, 1), got ${alpha}`);
    }
    const exactLimit = options.exactLimit ?? 1024;
    if (!Number.isInteger(exactLimit) || exactLimit < 0) {
      throw new RangeError(`exactLimit must be a non-negative integer, got ${exactLimit}`);
    }
    const maxBuckets = options.maxBuckets ?? 4096;
    if (!Number.isInteger(maxBuckets) || maxBuckets < 2) {
      throw new RangeError(`maxBuckets must be an integer ≥ 2, got ${maxBuckets}`);
    }
    this.relativeAccuracy = alpha;
    this.exactLimit = exactLimit;
    this.maxBuckets = maxBuckets;
    this.#gamma = (1 + alpha) / (1 - alpha);
    this.#logGamma = Math.log(this.#gamma);
  }

  get count(): number {
    return this.#count;
  }

  get sum(): number {
    return this.#sum;
  }

  /** Arithmetic mean; NaN when empty. */
  get mean(): number {
    return this.#count === 0 ? Number.NaN : this.#sum / this.#count;
  }

  /** Smallest sample; NaN when empty. */
  get min(): number {
    return this.#count === 0 ? Number.NaN : this.#min;
  }

  /** Largest sample; NaN when empty. */
  get max(): number {
    return this.#count === 0 ? Number.NaN : this.#max;
  }

  /** Records one sample (finite, ≥ 0). */
  add(value: number): void {
    if (!(value >= 0) || !Number.isFinite(value)) {
      throw new RangeError(`histogram samples must be finite and ≥ 0, got ${value}`);
    }
    this.#count++;
    this.#sum += value;
    if (value < this.#min) this.#min = value;
    if (value > this.#max) this.#max = value;
    if (this.#count <= this.exactLimit) {
      if (this.#exactCount === this.#exact.length) this.#growExact();
      this.#exact[this.#exactCount++] = value;
      this.#sorted = false;
    } else if (this.#exact.length !== 0) {
      this.#exact = new Float64Array(0);
      this.#exactCount = 0;
    }
    if (value === 0) {
      this.#zeros++;
      return;
    }
    this.#addToBucket(Math.ceil(Math.log(value) / this.#logGamma));
  }

  /**
   * Nearest-rank quantile for q ∈ [0, 1] (q = 0 gives the minimum). Exact while
   * `count ≤ exactLimit`, within `relativeAccuracy` after. NaN when empty.
   */
  quantile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile q must be in [0, 1], got ${q}`);
    if (this.#count === 0) return Number.NaN;
    if (this.#count <= this.exactLimit) {
      const samples = this.#exact.subarray(0, this.#exactCount);
      if (!this.#sorted) {
        samples.sort();
        this.#sorted = true;
      }
      return nearestRank(samples, q);
    }
    const rank = nearestRankOf(q, this.#count);
    if (rank <= this.#zeros) return 0;
    let seen = this.#zeros;
    for (let i = 0; i < this.#span; i++) {
      seen += this.#buckets[i]!;
      if (seen >= rank) {
        const estimate = (2 * this.#gamma ** (i + this.#offset)) / (this.#gamma + 1);
        return Math.min(this.#max, Math.max(this.#min, estimate));
      }
    }
    return this.#max;
  }

  summary(): HistogramSummary {
    return {
      count: this.#count,
      mean: this.mean,
      min: this.min,
      p50: this.quantile(0.5),
      p99: this.quantile(0.99),
      p999: this.quantile(0.999),
      max: this.max,
    };
  }

  #growExact(): void {
    const grown = new Float64Array(Math.min(this.exactLimit, Math.max(16, 2 * this.#exact.length)));
    grown.set(this.#exact);
    this.#exact = grown;
  }

  #addToBucket(index: number): void {
    if (this.#span === 0) {
      this.#buckets = new Float64Array(16);
      this.#offset = index;
      this.#span = 1;
    } else if (index < this.#offset) {
      const shift = this.#offset - index;
      if (this.#span + shift > this.maxBuckets) {
        // Below the kept range: count it in the lowest bucket (accuracy lost only there).
        this.#buckets[0]!++;
        return;
      }
      const grown = new Float64Array(Math.max(this.#buckets.length, this.#span + shift));
      grown.set(this.#buckets.subarray(0, this.#span), shift);
      this.#buckets = grown;
      this.#offset = index;
      this.#span += shift;
    } else if (index >= this.#offset + this.#span) {
      const needed = index - this.#offset + 1;
      if (needed > this.maxBuckets) this.#collapseLowest(needed - this.maxBuckets);
      const span = index - this.#offset + 1;
      this.#buckets = ensureLength(this.#buckets, span);
      this.#span = span;
    }
    this.#buckets[index - this.#offset]!++;
  }

  // Merges the lowest `k` + 1 buckets into one, to admit larger values above the kept range.
  #collapseLowest(k: number): void {
    const old = this.#buckets;
    let merged = 0;
    for (let i = 0; i <= k && i < this.#span; i++) merged += old[i]!;
    const next = new Float64Array(old.length);
    if (k + 1 < this.#span) next.set(old.subarray(k + 1, this.#span), 1);
    next[0] = merged;
    this.#buckets = next;
    this.#offset += k;
    this.#span = Math.max(this.#span - k, 1);
  }
}
