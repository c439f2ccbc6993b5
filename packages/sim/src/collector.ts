import { Histogram, type HistogramSummary, IdIndex, jainIndex, type TimePs } from "@cclab/core-des";
import { DATA_KIND, Ecn, type PacketId, type Packets } from "@cclab/fabric";
import { flowIdOf, type MessageCompletion } from "@cclab/fabric-hca";
import type { IdealFct, Network } from "@cclab/network";
import { FlowLatencySamples, sortedSummary } from "./latency-samples.js";
import type { Percentiles } from "./summary.js";

/** Packet latencies kept as samples (12 bytes each: 100 MB at most) before histograms take over. */
const LATENCY_SAMPLE_LIMIT = 1 << 23;
/**
 * Completion times and slowdowns kept exactly (8 bytes each, 32 MB per statistic) before the
 * histograms' bounded-error quantiles take over: a 0.5 s run of a 648-node fabric completes
 * tens of millions of messages.
 */
const COMPLETION_EXACT_LIMIT = 1 << 22;

/** What a {@link Collector} records, and how much of it. */
export interface CollectorOptions {
  /** Results ignore what happens before this. */
  readonly warmupPs: TimePs;
  /** Width of the throughput series' bins. */
  readonly binPs: TimePs;
  /** Flows (the first by first message) whose throughput series is kept. */
  readonly maxFlowSeries: number;
  /** Keep each host's received bytes per bin and traffic group (`host-throughput`). */
  readonly hostSeries: boolean;
  readonly ideal: IdealFct;
  /** Completed messages kept as records (`messages.csv`). */
  readonly maxMessageRecords: number;
  /**
   * Keep per-flow completion-time and latency percentiles (`metrics.flowTable`). Off, a flow
   * costs a few counters however long the run: a 648-node fabric has up to 419,256 flows.
   */
  readonly perFlowStats: boolean;
  /** Packet latencies kept as exact samples before per-flow histograms take over. */
  readonly latencySampleLimit?: number;
}

// The fields of a flow's record in `FlowCounters.values`, at `flow.index * Counter.Stride`. An
// enum, which bundling writes as literals (see core-des scheduler.ts).
enum Counter {
  DeliveredBytes = 0,
  WindowBytes = 1,
  FirstInjectionPs = 2,
  LastDeliveryPs = 3,
  /** Position among the flows whose throughput series is kept, or −1. */
  SeriesIndex = 4,
  /** Where its destination's receive series for its group is kept (`hostSeries`), or −1. */
  HostSeriesIndex = 5,
  /**
   * The payload size of the last message completed on the flow (0 before one), and that size's
   * ideal completion time, which the next message of the same size reuses. Looking it up goes
   * through a table of all host pairs and a map per route, two or three cache misses on a large
   * fabric, where this record was read a packet before (648-node silent forest, CPU profile of
   * the first 60 ms: completions 2.60 → 2.33 s of 150 s; a flow there carries ~300 messages).
   * −1 when the time depends on the message's arrival (a destination whose receive rate
   * changes), so that nothing reuses it.
   */
  IdealBytes = 6,
  IdealPs = 7,
  Stride = 8,
}

/**
 * The per-flow figures every delivered packet updates, one 64-byte record per flow (by its
 * `index`). Fields of a record object cost a cache miss each on a fabric with thousands of
 * flows: V8 keeps an object's floating-point fields in boxes of their own, and a packet's flow
 * is rarely the previous packet's.
 */
class FlowCounters {
  values = new Float64Array(64 * Counter.Stride);

  /** Makes room for flow `index` and sets its record to the start values. */
  open(index: number): void {
    let values = this.values;
    const r = index * Counter.Stride;
    if (r >= values.length) {
      values = new Float64Array(Math.max(r + Counter.Stride, values.length * 2));
      values.set(this.values);
      this.values = values;
    }
    values[r + Counter.FirstInjectionPs] = Number.POSITIVE_INFINITY;
    values[r + Counter.LastDeliveryPs] = -1;
    values[r + Counter.SeriesIndex] = -1;
    values[r + Counter.HostSeriesIndex] = -1;
    values[r + Counter.IdealBytes] = 0;
  }
}

/** What is known of one flow (one source, destination and SL) during and after the run. */
export class FlowRecord {
  messages = 0;
  offeredBytes = 0;
  completedMessages = 0;
  latencyPs: Histogram | undefined = undefined;
  // Completion times of its messages after warm-up: the first as a number, a histogram from
  // the second on. Most flows of a trace carry one message (uniform256: 12,549 of 14,187), and
  // a histogram each (two typed arrays) was 64 ms of that run's 5.3 s CPU profile.
  private soleMctPs = -1;
  private mctPs: Histogram | undefined = undefined;

  constructor(
    private readonly counters: FlowCounters,
    /** Position in order of first message (dense, from 0). */
    readonly index: number,
    readonly id: number,
    readonly src: number,
    readonly dst: number,
    readonly sl: number,
    readonly group: string,
  ) {
    counters.open(index);
  }

  addMct(fctPs: number): void {
    if (this.mctPs !== undefined) this.mctPs.add(fctPs);
    else if (this.soleMctPs < 0) this.soleMctPs = fctPs;
    else {
      this.mctPs = new Histogram();
      this.mctPs.add(this.soleMctPs);
      this.mctPs.add(fctPs);
    }
  }

  /** Its message completion times in `scale` units (what a histogram of one sample gives). */
  mctPercentiles(scale: number): Percentiles | null {
    if (this.mctPs !== undefined || this.soleMctPs < 0) return percentilesOf(this.mctPs, scale);
    const v = round(this.soleMctPs * scale);
    return { count: 1, mean: v, p50: v, p99: v, p999: v, max: v };
  }

  private counter(field: Counter): number {
    return this.counters.values[this.index * Counter.Stride + field]!;
  }

  get deliveredBytes(): number {
    return this.counter(Counter.DeliveredBytes);
  }
  /** Payload delivered at or after the warm-up. */
  get windowBytes(): number {
    return this.counter(Counter.WindowBytes);
  }
  get firstInjectionPs(): TimePs {
    return this.counter(Counter.FirstInjectionPs);
  }
  get lastDeliveryPs(): TimePs {
    return this.counter(Counter.LastDeliveryPs);
  }

  /** Data packets delivered (whole run; kept with the flow table only). */
  deliveredPackets = 0;
  /**
   * Data packets delivered with each mark (whole run; with the flow table only): made at the
   * flow's first marked packet, so unmarked traffic costs nothing here.
   */
  marks: FlowMarks | undefined = undefined;
}

/** A flow's data packets delivered with FECN set, with ECN CE, and with ECN UE (TCD's 10). */
export interface FlowMarks {
  fecn: number;
  ecnCe: number;
  ecnUe: number;
}

/** One completed message, for `messages.csv` and the completion statistics. */
export interface MessageRecord {
  readonly id: number;
  readonly flowId: number;
  readonly src: number;
  readonly dst: number;
  readonly bytes: number;
  readonly createdPs: TimePs;
  readonly completedPs: TimePs;
  readonly idealPs: TimePs;
}

/**
 * Watches every packet a host consumes and keeps per-flow figures (docs/model.md, "What is
 * measured"). One listener on the network: the cost per delivered packet is a map lookup and
 * a few additions.
 */
export class Collector {
  /** Every flow, in order of its first message (a flow's `index`). */
  readonly flows: FlowRecord[] = [];
  /**
   * Each flow's index by flow id, for the lookup per delivered packet: flow ids range over
   * hosts² × VLs, a flat array up to 2²² of them (1,024 hosts), a hash table beyond.
   */
  private readonly indexById: IdIndex;
  private readonly counters = new FlowCounters();
  readonly totalLatencyPs = new Histogram();
  readonly networkLatencyPs = new Histogram();
  readonly marks = { fecn: 0, becn: 0, ecnCe: 0 };
  /**
   * Control packets delivered, by kind code (a count per packet, not a map update: a scheme that
   * ACKs every packet delivers as many control packets as data packets); names on first sight.
   */
  private readonly controlByCode = new Float64Array(256);
  private readonly controlKindNames: string[] = [];
  /** Per-flow packet latencies, until there are too many to keep (then per-flow histograms). */
  private latencySamples: FlowLatencySamples | undefined;
  /** Flows with a throughput series, in order of their first message. */
  readonly seriesFlows: FlowRecord[] = [];
  /** Per series flow: payload bytes delivered per bin. */
  readonly seriesBytes: Float64Array[] = [];
  /** Receiving host and traffic group of each host series, in order of first message. */
  readonly hostSeriesKeys: { readonly host: number; readonly group: string }[] = [];
  /** Per host series: payload bytes delivered per bin (`host-throughput`). */
  readonly hostSeries: Float64Array[] = [];
  private readonly hostSeriesOf = new Map<string, number>();
  /** Messages delivered completely so far (all hosts). */
  completedMessages = 0;
  lastCompletionPs = -1;
  /** Completion time and slowdown of every message that arrived after warm-up. */
  readonly mctPs = new Histogram({ exactLimit: COMPLETION_EXACT_LIMIT });
  readonly slowdown = new Histogram({ exactLimit: COMPLETION_EXACT_LIMIT });
  /** The first `maxMessageRecords` completed messages, in completion order (`messages.csv`). */
  readonly messages: MessageRecord[] = [];
  /** Called after every message completion (the runner stops there when all are done). */
  onCompletion: (() => void) | undefined = undefined;

  readonly warmupPs: TimePs;
  private readonly binPs: TimePs;
  private readonly maxFlowSeries: number;
  private readonly keepHostSeries: boolean;
  private readonly ideal: IdealFct;
  private readonly maxMessageRecords: number;
  private readonly perFlowStats: boolean;

  private readonly packets: Packets;

  constructor(
    private readonly network: Network,
    options: CollectorOptions,
  ) {
    this.packets = network.packets;
    this.warmupPs = options.warmupPs;
    this.binPs = options.binPs;
    this.maxFlowSeries = options.maxFlowSeries;
    this.keepHostSeries = options.hostSeries;
    this.ideal = options.ideal;
    this.maxMessageRecords = options.maxMessageRecords;
    this.perFlowStats = options.perFlowStats;
    this.latencySamples = this.perFlowStats
      ? new FlowLatencySamples(options.latencySampleLimit ?? LATENCY_SAMPLE_LIMIT)
      : undefined;
    const hosts = network.hosts.length;
    this.indexById = new IdIndex(hosts * hosts * network.switchConfig.vlCount);
    network.onDelivery((packet, now) => this.delivered(packet, now));
    for (const host of network.hosts) host.onMessageComplete((c) => this.completed(c));
  }

  // A message was received completely: its completion time, slowdown and record.
  private completed(c: MessageCompletion): void {
    this.completedMessages++;
    const index = this.indexById.get(c.flowId);
    const flow = this.flows[index]!;
    flow.completedMessages++;
    if (c.completedPs > this.lastCompletionPs) this.lastCompletionPs = c.completedPs;
    const counters = this.counters.values;
    const r = index * Counter.Stride;
    let idealPs = counters[r + Counter.IdealPs]!;
    if (counters[r + Counter.IdealBytes] !== c.bytes) {
      idealPs = this.ideal.messagePs(c.srcHost, c.dstHost, c.bytes, c.createdPs);
      // To a host whose receive rate changes, the ideal depends on the arrival: never reused.
      counters[r + Counter.IdealBytes] = this.ideal.dependsOnStart(c.dstHost) ? -1 : c.bytes;
      counters[r + Counter.IdealPs] = idealPs;
    }
    if (c.createdPs >= this.warmupPs) {
      const fct = c.completedPs - c.createdPs;
      this.mctPs.add(fct);
      this.slowdown.add(fct / idealPs);
      if (this.perFlowStats) flow.addMct(fct);
    }
    if (this.messages.length < this.maxMessageRecords) {
      this.messages.push({
        id: c.messageId,
        flowId: c.flowId,
        src: c.srcHost,
        dst: c.dstHost,
        bytes: c.bytes,
        createdPs: c.createdPs,
        completedPs: c.completedPs,
        idealPs,
      });
    }
    this.onCompletion?.();
  }

  /** Notes a message offered by the traffic (before it is handed to its host). */
  offered(src: number, dst: number, sl: number, bytes: number, group: string): void {
    const id = flowIdOf(src, dst, sl, this.network.hosts.length, this.network.switchConfig.vlCount);
    let index = this.indexById.get(id);
    if (index < 0) {
      index = this.flows.length;
      const flow = new FlowRecord(this.counters, index, id, src, dst, sl, group);
      this.flows.push(flow);
      this.indexById.set(id, index);
      const r = index * Counter.Stride;
      if (this.seriesFlows.length < this.maxFlowSeries) {
        this.counters.values[r + Counter.SeriesIndex] = this.seriesFlows.length;
        this.seriesFlows.push(flow);
        this.seriesBytes.push(new Float64Array(16));
      }
      if (this.keepHostSeries) {
        this.counters.values[r + Counter.HostSeriesIndex] = this.hostSeriesFor(dst, group);
      }
    }
    const flow = this.flows[index]!;
    flow.messages++;
    flow.offeredBytes += bytes;
  }

  /** Control packets delivered, by kind name. */
  controlPackets(): Map<string, number> {
    const out = new Map<string, number>();
    for (let code = 0; code < this.controlKindNames.length; code++) {
      const name = this.controlKindNames[code];
      if (name !== undefined) out.set(name, this.controlByCode[code]!);
    }
    return out;
  }

  private delivered(packet: PacketId, now: TimePs): void {
    const packets = this.packets;
    const fecn = packets.fecn[packet]!;
    const ecn = packets.ecn[packet]!;
    if (fecn === 1) this.marks.fecn++;
    if (packets.becn[packet] === 1) this.marks.becn++;
    if (ecn === Ecn.congestion) this.marks.ecnCe++;
    const code = packets.kindCode[packet]!;
    if (code !== DATA_KIND) {
      if (this.controlByCode[code]++ === 0) this.controlKindNames[code] = packets.kind(packet);
      return;
    }
    const index = this.indexById.get(packets.flowId[packet]!);
    if (this.perFlowStats) {
      const flow = this.flows[index]!;
      flow.deliveredPackets++;
      // ECN CE (11) and UE (10) both have the high bit.
      if (fecn === 1 || ecn >= Ecn.undetermined) markFlow(flow, fecn, ecn);
    }
    const counters = this.counters.values;
    const r = index * Counter.Stride;
    const bytes = packets.payloadBytes[packet]!;
    counters[r + Counter.DeliveredBytes]! += bytes;
    counters[r + Counter.LastDeliveryPs] = now;
    const injectedPs = packets.injectedPs[packet]!;
    if (injectedPs < counters[r + Counter.FirstInjectionPs]!) {
      counters[r + Counter.FirstInjectionPs] = injectedPs;
    }
    if (now >= this.warmupPs) {
      counters[r + Counter.WindowBytes]! += bytes;
      const latency = now - packets.createdPs[packet]!;
      this.totalLatencyPs.add(latency);
      this.networkLatencyPs.add(now - injectedPs);
      if (this.latencySamples !== undefined) {
        this.latencySamples.add(index, latency);
        if (this.latencySamples.full) this.samplesToHistograms();
      } else if (this.perFlowStats) {
        const flow = this.flows[index]!;
        if (flow.latencyPs === undefined) flow.latencyPs = new Histogram();
        flow.latencyPs.add(latency);
      }
    }
    const series = counters[r + Counter.SeriesIndex]!;
    if (series >= 0) addToBin(this.seriesBytes, series, now / this.binPs, bytes);
    const hostSeries = counters[r + Counter.HostSeriesIndex]!;
    if (hostSeries >= 0) addToBin(this.hostSeries, hostSeries, now / this.binPs, bytes);
  }

  private hostSeriesFor(host: number, group: string): number {
    const key = `${host} ${group}`;
    let index = this.hostSeriesOf.get(key);
    if (index === undefined) {
      index = this.hostSeries.length;
      this.hostSeriesOf.set(key, index);
      this.hostSeriesKeys.push({ host, group });
      this.hostSeries.push(new Float64Array(16));
    }
    return index;
  }

  // The sample store is full: its samples and every later one go to per-flow histograms.
  private samplesToHistograms(): void {
    const flows = this.flows;
    this.latencySamples!.forEach((index, value) => {
      const flow = flows[index]!;
      if (flow.latencyPs === undefined) flow.latencyPs = new Histogram();
      flow.latencyPs.add(value);
    });
    this.latencySamples = undefined;
  }

  /**
   * Per flow (in `flows` order): its packet latencies after warm-up, in `scale` units: exact
   * nearest-rank percentiles, or within 0.5 % past the sample store's limit.
   */
  flowLatencies(scale: number): (Percentiles | null)[] {
    const flows = this.flows;
    if (this.latencySamples === undefined) {
      return flows.map((f) => percentilesOf(f.latencyPs, scale));
    }
    const sorted = this.latencySamples.sortedByFlow(flows.length);
    return sorted.map((values) => {
      if (values.length === 0) return null;
      const s = sortedSummary(values, scale);
      return {
        count: s.count,
        mean: round(s.mean),
        p50: round(s.p50),
        p99: round(s.p99),
        p999: round(s.p999),
        max: round(s.max),
      };
    });
  }

  /**
   * A flow's throughput over the measurement window [warm-up, endPs]: the payload it delivered
   * in the window × 8 / the window's length, Gb/s (docs/model.md, "What is measured"). The
   * flows through a link can carry no more than the link does, and the flows' figures add up to
   * the window total. A rate over a flow's own active time could not promise either: a flow
   * whose first packet in the window arrives just after the warm-up looks faster than any link.
   */
  windowGbps(flow: FlowRecord, endPs: TimePs): number {
    const windowPs = endPs - Math.min(this.warmupPs, endPs);
    return windowPs > 0 ? (flow.windowBytes * 8000) / windowPs : 0;
  }
}

/** Adds `bytes` to bin ⌊`at`⌋ of series `i`, growing it (doubling) when needed. */
function addToBin(series: Float64Array[], i: number, at: number, bytes: number): void {
  const bin = Math.floor(at);
  let bins = series[i]!;
  if (bin >= bins.length) {
    const grown = new Float64Array(Math.max(bin + 1, bins.length * 2));
    grown.set(bins);
    bins = grown;
    series[i] = bins;
  }
  bins[bin]! += bytes;
}

/** A histogram's summary in another unit (ps → µs: 1e-6), rounded for the report. */
export function percentilesOf(h: Histogram | undefined, scale: number): Percentiles | null {
  if (h === undefined || h.count === 0) return null;
  const s: HistogramSummary = h.summary();
  return {
    count: s.count,
    mean: round(s.mean * scale),
    p50: round(s.p50 * scale),
    p99: round(s.p99 * scale),
    p999: round(s.p999 * scale),
    max: round(s.max * scale),
  };
}

/** Six significant digits after the point at most: stable, readable numbers in the report. */
export function round(x: number, digits = 6): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function jainOrNull(values: readonly number[]): number | null {
  return values.length === 0 || values.every((v) => v === 0) ? null : round(jainIndex(values));
}

// Out of line: most delivered packets carry no mark.
function markFlow(flow: FlowRecord, fecn: number, ecn: number): void {
  let marks = flow.marks;
  if (marks === undefined) {
    marks = { fecn: 0, ecnCe: 0, ecnUe: 0 };
    flow.marks = marks;
  }
  if (fecn === 1) marks.fecn++;
  if (ecn === Ecn.congestion) marks.ecnCe++;
  else if (ecn === Ecn.undetermined) marks.ecnUe++;
}
