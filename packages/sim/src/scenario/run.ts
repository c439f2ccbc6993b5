import { z } from "zod";
import { count, oneOf, strictObject, time } from "./fields.js";
import { MAX_BINS, MIN_BIN_US } from "./limits.js";

/** When a run checks its invariants (`run.checkInvariants`; packages/sim/README.md). */
export const INVARIANT_CHECKS = ["end", "periodic", "every-event"] as const;
export type InvariantCheck = (typeof INVARIANT_CHECKS)[number];

/** The `run` section: how long to simulate, and how often to check the invariants. */
export const runSchema = strictObject({
  durationUs: time(
    "simulated time to run; with untilComplete, a cap (the run stops there and reports the unfinished messages)",
    "µs",
    0,
    true,
  ).optional(),
  untilComplete: z
    .boolean({ error: "must be true or false" })
    .default(false)
    .describe("run until every message is delivered (finite traffic only)"),
  warmupUs: time(
    "results ignore what happens before this: throughput windows start here, messages that arrive earlier are not in the completion statistics",
    "µs",
  ).default(0),
  checkInvariants: oneOf(
    INVARIANT_CHECKS,
    'when credit conservation and the buffer bounds (docs/model.md, "Invariants") are checked, besides at the end of every run: end (only then: a violation that repairs itself before the end passes), periodic (also after every slice of the run, a few times a second of wall time: cheap, under 1 % of the instructions on the uniform256 benchmarks even checked ten times as often as a normal run does), every-event (after every event, stopping at the first violation: each check walks every link and buffer, so the run is 3× slower on uniform256 and makes about 1,000 events a second on a 648-node credit fabric; for debugging)',
  ).default("periodic"),
});

export type RunSection = z.output<typeof runSchema>;

export const SERIES = [
  "flow-throughput",
  "host-throughput",
  "port-occupancy",
  "flow-control",
  "cc",
  "egress-occupancy",
  "cc-queues",
  "link-throughput",
] as const;
export type SeriesName = (typeof SERIES)[number];

/** Series written only when `metrics.series` names them (packages/sim/README.md). */
const ON_REQUEST: readonly SeriesName[] = ["egress-occupancy", "cc-queues", "link-throughput"];

/**
 * The series written when `metrics.series` is not given: all but those on request:
 * `egress-occupancy` runs a switch part on every packet, and `cc-queues` writes a row per
 * queue, variable and bin, which on a large fabric outgrows every other series; `link-throughput`
 * adds a row per transmitting port and bin (and a sample event per bin) that most runs do not need.
 */
export const DEFAULT_SERIES: readonly SeriesName[] = SERIES.filter((s) => !ON_REQUEST.includes(s));

/** The `metrics` section: what is recorded besides the summary. */
export const metricsSchema = strictObject({
  binUs: time(
    `width of the bins of every time series: at least ${MIN_BIN_US} µs (1 ns), and at most ${MAX_BINS.toLocaleString("en-US")} bins over run.durationUs (durationUs / binUs ≤ ${MAX_BINS}); without durationUs (untilComplete) the bins grow with the simulated time`,
    "µs",
    MIN_BIN_US,
  ).default(10),
  series: z
    .array(oneOf(SERIES, "a series"))
    .default([...DEFAULT_SERIES])
    .describe(
      "series written as CSV: per-flow throughput, per-host receive throughput by traffic group, per-port/VL input occupancy, per-port blocked (paused or credit-starved) time, per-flow CC state (e.g. CCTI and rate), per-output-port/VL egress queue (egress-occupancy: not by default), per-egress-queue CC state of switch parts that report it (cc-queues, e.g. TCD's state and marks: not by default), per-transmitting-port Gb/s sent in each bin, counting on-the-wire bytes (header included) of every switch output and host uplink (link-throughput: not by default)",
    ),
  maxFlowSeries: count(
    "flow-throughput is written for at most this many flows (the first by first message); the summary has every flow",
    0,
  ).default(256),
  maxQueueSeries: count(
    "cc-queues is written for at most this many switch egress queues (output port and VL), the first a switch part reports; run.json (queueSeries) says how many more there were",
    0,
  ).default(256),
  flowTable: z
    .boolean({ error: "must be true or false" })
    .default(true)
    .describe(
      "one row per flow in summary.json (flows[]) with its completion-time and latency percentiles; false for large fabrics (a 648-node fabric has up to 419,256 flows): flows[] is left empty and no per-flow percentiles are kept, while groups, hosts and totals are unchanged",
    ),
  messageTable: z
    .boolean({ error: "must be true or false" })
    .default(true)
    .describe("write messages.csv (one row per completed message; large for long runs)"),
  maxMessageRecords: count(
    "messages.csv holds at most this many messages, the first to complete (completion statistics still cover every message)",
    0,
  ).default(1_000_000),
});

export type MetricsSection = z.output<typeof metricsSchema>;
