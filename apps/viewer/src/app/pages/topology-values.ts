import type { RunDetail, RunEntry, SeriesData } from "../../data/types.js";
import { fmt } from "../dom.js";
import type { PageContext } from "../main.js";

/** A value per port (its transmit direction) and how to word it. */
export interface PortValues {
  readonly values: ReadonlyMap<string, number>;
  readonly max: number;
  readonly unit: string;
  readonly note: string;
}

/** The most samples a window mean is taken from before the data layer reduces them to extremes. */
const WINDOW_POINTS = 20_000;

/**
 * Each port's mean over the bins that start in [fromUs, toUs): lines are keyed by port name
 * first (`S1.p2|0`), and a port with several lines (one per VL) takes its largest mean.
 */
function windowMeans(data: SeriesData, fromUs: number, toUs: number): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of data.lines) {
    let sum = 0;
    let n = 0;
    data.x.forEach((x, i) => {
      if (x < fromUs || x >= toUs) return;
      sum += line.y[i] ?? 0;
      n++;
    });
    const port = line.key.split("|")[0]!;
    values.set(port, Math.max(values.get(port) ?? 0, n === 0 ? 0 : sum / n));
  }
  return values;
}

/** Said when a long window came back as per-bucket extremes, whose mean is only close. */
const approximate = (data: SeriesData) =>
  data.full ? "" : " (approximate: the window holds more bins than are fetched at once)";

/** Link rate by port name, when every cabled port's is known (the CLI builds the port map). */
function linkRates(detail: RunDetail): ReadonlyMap<string, number> | undefined {
  if (!detail.ports.every((p) => p.peer === "-" || p.rateGbps !== undefined)) return undefined;
  return new Map(
    detail.ports.flatMap((p) => (p.rateGbps === undefined ? [] : [[p.name, p.rateGbps]])),
  );
}

/** Share of the window each port was paused or out of credits (`flow-control.csv`). */
export async function blockedInWindow(
  ctx: PageContext,
  entry: RunEntry,
  fromUs: number,
  toUs: number,
): Promise<PortValues> {
  const info = (await ctx.source.run(entry.id)).series.find((x) => x.name === "flow-control")!;
  const query = { fromUs, toUs, points: WINDOW_POINTS };
  const data = await ctx.source.series(entry.id, "flow-control", query);
  const values = windowMeans(data, fromUs, toUs);
  const largest = Math.max(0, ...values.values());
  return {
    values,
    max: largest <= 1 ? 1 : Math.min(100, Math.ceil(largest)),
    unit: "%",
    note: `Mean share of each bin from ${fmt(fromUs)} to ${fmt(toUs)} µs that a port had a packet ready but was paused or out of credits (the most blocked VL)${approximate(data)}; colours run from 0 to the most blocked port's share. ${info.lines.length} ports were ever blocked.`,
  };
}

/**
 * Each port's mean Gb/s over the window (`link-throughput.csv`: on-the-wire bytes sent per
 * bin) as a percentage of its link's rate; in Gb/s relative to the busiest port when the rates
 * are not known.
 */
export async function utilisationInWindow(
  ctx: PageContext,
  detail: RunDetail,
  fromUs: number,
  toUs: number,
): Promise<PortValues> {
  const query = { fromUs, toUs, points: WINDOW_POINTS };
  const data = await ctx.source.series(detail.entry.id, "link-throughput", query);
  const gbps = windowMeans(data, fromUs, toUs);
  const rates = linkRates(detail);
  const window = `the bins from ${fmt(fromUs)} to ${fmt(toUs)} µs${approximate(data)}`;
  const senders = `${data.lines.length} ports sent traffic during the run.`;
  if (rates === undefined) {
    return {
      values: gbps,
      max: Math.max(1e-9, ...gbps.values()),
      unit: "Gb/s",
      note: `Mean Gb/s each port sent over ${window} (link-throughput.csv, on-the-wire bytes; the link rates were not known, so colours are relative to the busiest port). ${senders}`,
    };
  }
  const values = new Map([...gbps].map(([port, g]) => [port, (100 * g) / (rates.get(port) ?? 1)]));
  return {
    values,
    max: 100,
    unit: "%",
    note: `Mean Gb/s each port sent over ${window}, as a percentage of the link's rate (link-throughput.csv, on-the-wire bytes, each packet in the bin it starts in). ${senders}`,
  };
}

/** Bytes each port sent over the whole run (`ports.csv`) over its link's rate. */
export function utilisationOfRun(detail: RunDetail): PortValues {
  const us = detail.entry.simulatedUs || 1;
  const rates = linkRates(detail);
  const values = new Map<string, number>();
  // ports.csv repeats a port's bytes on each of its VL rows: take them once.
  for (const p of detail.ports) {
    if (values.has(p.name)) continue;
    const gbps = (p.bytesForwarded * 8) / (us * 1000);
    values.set(p.name, rates === undefined ? gbps : (100 * gbps) / (rates.get(p.name) ?? 1));
  }
  return {
    values,
    max: rates === undefined ? Math.max(1e-9, ...values.values()) : 100,
    unit: rates === undefined ? "Gb/s" : "%",
    note:
      rates === undefined
        ? "Gb/s each port sent over the whole run (ports.csv; the link rates were not known, so colours are relative to the busiest port)."
        : "Bytes each port sent over the whole run as a share of its link's rate (ports.csv).",
  };
}
