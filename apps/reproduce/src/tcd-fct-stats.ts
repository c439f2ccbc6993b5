/**
 * The figures of one TCD FCT run (experiment tcd-fct): FCT slowdowns of the messages that
 * arrived in the measurement window, overall and by message size, from `messages.csv`.
 */
import { type Figure, FONT_FAMILY } from "@cclab/plot";
import type { SimulationResult } from "@cclab/sim";
import { fmt } from "./experiment.js";
import { resultTable } from "./result-table.js";

/** Message-size buckets of the usual FCT plots (decimal kB and MB); `[fromBytes, toBytes)`. */
export const BUCKETS: readonly {
  readonly label: string;
  readonly from: number;
  readonly to: number;
}[] = [
  { label: "< 10 kB", from: 0, to: 10_000 },
  { label: "10–100 kB", from: 10_000, to: 100_000 },
  { label: "100 kB–1 MB", from: 100_000, to: 1_000_000 },
  { label: "≥ 1 MB", from: 1_000_000, to: Number.POSITIVE_INFINITY },
];

/** Median and 99th percentile (nearest rank, as the simulator's summary) of `count` values. */
export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
}

/** Nearest-rank percentile of ascending `sorted` values; NaN when empty. */
function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: nearestRank(sorted, 0.5), p99: nearestRank(sorted, 0.99) };
}

/** What one run gives the findings and tables. */
export interface RunFigures {
  /** Completed messages that arrived in the window [warm-up, end of generation). */
  readonly overall: Percentiles;
  readonly buckets: readonly Percentiles[];
  /** Median slowdown of the window's first and second half by arrival (steady state?). */
  readonly firstHalfP50: number;
  readonly secondHalfP50: number;
  /** Messages generated (whole run, warm-up included) and those not delivered at the cap. */
  readonly generated: number;
  readonly incomplete: number;
  /** Whether every message was delivered before the cap (`untilComplete`). */
  readonly complete: boolean;
  readonly pauseFrames: number;
  /**
   * Over every port's transmitter (ports.csv): the times flow control stopped it with a packet
   * ready (a pause that took effect, or a head packet short of credits), and its time so held.
   */
  readonly offPeriods: number;
  readonly offMs: number;
  /** Data packets marked CE (FECN on IB) and UE by the switches. */
  readonly ceMarked: number;
  readonly ueMarked: number;
  /** Packets delivered (payload / 1000-byte packets: the scenarios' MTU). */
  readonly packets: number;
  readonly wallSeconds: number;
}

interface MessageRow {
  readonly bytes: number;
  readonly startUs: number;
  readonly slowdown: number;
}

function messageRows(result: SimulationResult): MessageRow[] {
  const { rows, col } = resultTable(result, "messages.csv");
  const [bytes, start, slowdown] = [col("bytes"), col("start_us"), col("slowdown")];
  return rows.map((c) => ({
    bytes: Number(c[bytes]),
    startUs: Number(c[start]),
    slowdown: Number(c[slowdown]),
  }));
}

function offTotals(result: SimulationResult): { offPeriods: number; offMs: number } {
  const { rows, col } = resultTable(result, "ports.csv");
  const [periods, blocked] = [col("off_transitions"), col("blocked_us")];
  let offPeriods = 0;
  let offUs = 0;
  for (const c of rows) {
    offPeriods += Number(c[periods]);
    offUs += Number(c[blocked]);
  }
  return { offPeriods, offMs: offUs / 1000 };
}

/** The figures of a run whose messages arrived until `stopUs`, counted from `warmupUs`. */
export function runFigures(result: SimulationResult, warmupUs: number, stopUs: number): RunFigures {
  const rows = messageRows(result).filter((m) => m.startUs >= warmupUs && m.startUs < stopUs);
  const midUs = (warmupUs + stopUs) / 2;
  const { totals } = result.summary;
  const counters = totals.ccCounters;
  return {
    overall: percentiles(rows.map((m) => m.slowdown)),
    buckets: BUCKETS.map((b) =>
      percentiles(rows.filter((m) => m.bytes >= b.from && m.bytes < b.to).map((m) => m.slowdown)),
    ),
    firstHalfP50: percentiles(rows.filter((m) => m.startUs < midUs).map((m) => m.slowdown)).p50,
    secondHalfP50: percentiles(rows.filter((m) => m.startUs >= midUs).map((m) => m.slowdown)).p50,
    generated: totals.messages,
    incomplete: totals.messages - totals.completedMessages,
    complete: result.summary.status === "complete",
    pauseFrames: totals.pauseFrames,
    ...offTotals(result),
    ceMarked: counters.ceMarked ?? counters.fecnMarked ?? 0,
    ueMarked: counters.ueMarked ?? 0,
    packets: totals.deliveredBytes / 1000,
    wallSeconds: (result.run.buildMs + result.run.wallMs + result.run.summaryMs) / 1000,
  };
}

const cell = (p: Percentiles) =>
  p.count === 0 ? "–" : `${fmt(p.p50)} / ${fmt(p.p99)} (${p.count})`;

/** One workload's table (the data of a figure like the slides' Fig. 16): rows load × scheme. */
export function bucketTable(
  workload: string,
  rows: readonly { readonly load: string; readonly scheme: string; readonly f: RunFigures }[],
): string {
  return [
    `**${workload}**: FCT slowdown median / p99 (messages) by message size, messages arriving in the window`,
    "",
    `| load | scheme | all | ${BUCKETS.map((b) => b.label).join(" | ")} |`,
    `|---|---|---|${BUCKETS.map(() => "---|").join("")}`,
    ...rows.map(
      (r) =>
        `| ${r.load} | ${r.scheme} | ${cell(r.f.overall)} | ${r.f.buckets.map(cell).join(" | ")} |`,
    ),
  ].join("\n");
}

/** The runs' facts: messages, completion at the cap, steadiness, marks, pauses, wall time. */
export function runTable(
  rows: readonly {
    readonly workload: string;
    readonly load: string;
    readonly scheme: string;
    readonly f: RunFigures;
  }[],
): string {
  const share = (n: number, of: number) => (of === 0 ? "n/a" : fmt((n / of) * 100, 2));
  return [
    "Runs: messages generated, not delivered at the cap, counted (arrived in the window and completed); median slowdown of the window's first / second half by arrival; CE (FECN on IB) and UE marks per 100 delivered packets (a packet may be marked at several hops); PFC pause frames; OFF periods of all ports' transmitters (a pause that took effect, or a head packet short of credits) and their summed time; wall time",
    "",
    "| workload | load | scheme | generated | undelivered | counted | p50 1st / 2nd half | CE | UE | pauses | OFF periods | OFF ms | wall s |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      ({ workload, load, scheme, f }) =>
        `| ${workload} | ${load} | ${scheme} | ${f.generated} | ${f.incomplete} | ${f.overall.count} | ${fmt(f.firstHalfP50)} / ${fmt(f.secondHalfP50)} | ${share(f.ceMarked, f.packets)} | ${share(f.ueMarked, f.packets)} | ${f.pauseFrames} | ${f.offPeriods} | ${fmt(f.offMs, 1)} | ${fmt(f.wallSeconds, 1)} |`,
    ),
  ].join("\n");
}

/**
 * One workload's figure (the slides' Fig. 16/17 kind): median and p99 FCT slowdown by message
 * size, one line per scheme and statistic, a panel per load; log scale.
 */
export function bucketFigure(
  name: string,
  workload: string,
  rows: readonly { readonly load: string; readonly scheme: string; readonly f: RunFigures }[],
): Figure {
  const sizes = ["all", ...BUCKETS.map((b) => b.label)];
  const values = rows.flatMap((r) =>
    [r.f.overall, ...r.f.buckets].flatMap((p, i) =>
      p.count === 0
        ? []
        : [
            {
              load: r.load,
              scheme: r.scheme,
              size: sizes[i]!,
              statistic: "median",
              slowdown: p.p50,
            },
            { load: r.load, scheme: r.scheme, size: sizes[i]!, statistic: "p99", slowdown: p.p99 },
          ],
    ),
  );
  return {
    name,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      title: {
        text: `${workload}: FCT slowdown by message size`,
        subtitle:
          "median (solid) and 99th percentile (dashed) of the messages arriving in the window",
      },
      data: { values },
      facet: { column: { field: "load", type: "nominal", title: "load" } },
      spec: {
        width: 300,
        height: 260,
        mark: { type: "line", point: true },
        encoding: {
          x: {
            field: "size",
            type: "ordinal",
            sort: sizes,
            title: "message size",
            axis: { labelAngle: -30 },
          },
          y: {
            field: "slowdown",
            type: "quantitative",
            scale: { type: "log" },
            title: "FCT slowdown (FCT / ideal)",
          },
          color: {
            field: "scheme",
            type: "nominal",
            sort: [...new Set(rows.map((r) => r.scheme))],
            title: "scheme",
          },
          strokeDash: {
            field: "statistic",
            type: "nominal",
            sort: ["median", "p99"],
            title: "statistic",
            // The subtitle says which is which: a stroke legend renders blank beside points.
            legend: null,
          },
        },
      },
      config: { font: FONT_FAMILY, background: "white" },
    },
  };
}
