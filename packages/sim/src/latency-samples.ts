import { nearestRank } from "@cclab/core-des";

/**
 * Every packet latency of every flow, appended as (flow index, value) pairs to typed arrays.
 * Appending is a sequential write, where a histogram per flow meant a random access into one
 * of thousands of growing arrays per delivered packet (uniform256: 14 % of the run's wall
 * time and 57 MB). Percentiles come out exact: the samples are grouped by flow and sorted
 * once, at the end. Holds at most `limit` samples (12 bytes each); the collector falls back to
 * per-flow histograms beyond that.
 *
 * The pairs fill fixed-size chunks, never copied. A store that doubled and copied its arrays
 * wrote 49 MB of fresh memory for uniform256's 1.6 M samples (19 MB of them used), and fresh
 * memory is slow to touch the first time: about 14 µs per 4 KiB page on the 2-core benchmark
 * machine. The chunks cut the run's page faults from 19.5 k to 14.1 k (uniform256) and from
 * 25.1 k to 20.9 k (uniform256 with DCQCN).
 */
export class FlowLatencySamples {
  private readonly flowChunks: Int32Array[] = [];
  private readonly valueChunks: Float64Array[] = [];
  // The chunk being filled and how many of its entries are used.
  private flows: Int32Array;
  private values: Float64Array;
  private fill = 0;
  length = 0;

  constructor(
    readonly limit: number,
    /** Entries per chunk (tests make it small to cross chunk boundaries). */
    private readonly chunkLength = 1 << 16,
  ) {
    this.flows = new Int32Array(0);
    this.values = new Float64Array(0);
  }

  get full(): boolean {
    return this.length >= this.limit;
  }

  add(flowIndex: number, value: number): void {
    if (this.fill === this.flows.length) this.nextChunk();
    this.flows[this.fill] = flowIndex;
    this.values[this.fill] = value;
    this.fill++;
    this.length++;
  }

  private nextChunk(): void {
    this.flows = new Int32Array(this.chunkLength);
    this.values = new Float64Array(this.chunkLength);
    this.flowChunks.push(this.flows);
    this.valueChunks.push(this.values);
    this.fill = 0;
  }

  /** Calls `visit(flowIndex, value)` for every sample, in the order they were added. */
  forEach(visit: (flowIndex: number, value: number) => void): void {
    for (let c = 0; c < this.flowChunks.length; c++) {
      const flows = this.flowChunks[c]!;
      const values = this.valueChunks[c]!;
      const used = c === this.flowChunks.length - 1 ? this.fill : flows.length;
      for (let i = 0; i < used; i++) visit(flows[i]!, values[i]!);
    }
  }

  /** Each flow's samples sorted ascending (empty for a flow without samples). */
  sortedByFlow(flowCount: number): Float64Array[] {
    const counts = new Int32Array(flowCount + 1);
    this.forEach((flow) => {
      counts[flow + 1]!++;
    });
    for (let f = 0; f < flowCount; f++) counts[f + 1]! += counts[f]!;
    const grouped = new Float64Array(this.length);
    const at = counts.slice(0, flowCount);
    this.forEach((flow, value) => {
      grouped[at[flow]!++] = value;
    });
    const out: Float64Array[] = [];
    for (let f = 0; f < flowCount; f++) {
      out.push(grouped.subarray(counts[f]!, counts[f + 1]!).sort());
    }
    return out;
  }
}

/** Count, mean and nearest-rank percentiles of sorted values, each times `scale`. */
export function sortedSummary(sorted: Float64Array, scale: number) {
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) sum += sorted[i]!;
  return {
    count: sorted.length,
    mean: (sum / sorted.length) * scale,
    p50: nearestRank(sorted, 0.5) * scale,
    p99: nearestRank(sorted, 0.99) * scale,
    p999: nearestRank(sorted, 0.999) * scale,
    max: sorted[sorted.length - 1]! * scale,
  };
}
