/**
 * Throughput series of a run (`flow-throughput.csv`) and the statistics the papers report on
 * them: means over a window, standard deviation over bins, convergence after a flow joins, and
 * Paper III's treatment variation.
 */

import { spreadVariance } from "@cclab/plot";

/** One flow's throughput per bin, Gb/s. */
export interface FlowSeries {
  readonly name: string;
  readonly group: string;
  /** Bin start times, µs, ascending. */
  readonly binStartUs: readonly number[];
  readonly gbps: readonly number[];
}

/** The flows of a `flow-throughput.csv`, keyed by `src→dst` host names. */
export function parseFlowThroughput(csv: string): Map<string, FlowSeries> {
  const lines = csv.trim().split("\n");
  const header = lines[0]!.split(",");
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`flow-throughput.csv has no column ${name}`);
    return i;
  };
  const [t, src, dst, group, gbps] = ["bin_start_us", "src", "dst", "group", "gbps"].map(col) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const flows = new Map<
    string,
    { name: string; group: string; binStartUs: number[]; gbps: number[] }
  >();
  for (const line of lines.slice(1)) {
    const cells = line.split(",");
    const name = `${cells[src]}→${cells[dst]}`;
    let flow = flows.get(name);
    if (flow === undefined) {
      flow = { name, group: cells[group]!, binStartUs: [], gbps: [] };
      flows.set(name, flow);
    }
    flow.binStartUs.push(Number(cells[t]));
    flow.gbps.push(Number(cells[gbps]));
  }
  return flows;
}

/** The values of bins that start in [fromUs, toUs). */
export function window(series: FlowSeries, fromUs: number, toUs: number): number[] {
  const out: number[] = [];
  series.binStartUs.forEach((start, i) => {
    if (start >= fromUs && start < toUs) out.push(series.gbps[i]!);
  });
  return out;
}

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Sample variance (n − 1). */
function variance(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
}

/** Sample standard deviation (n − 1). */
export function sd(xs: readonly number[]): number {
  return Math.sqrt(variance(xs));
}

/**
 * Jain's fairness index: (Σx)² / (n Σx²); 1 when all are equal. (The same as @cclab/core-des's
 * jainIndex, which this app does not depend on.)
 */
export function jain(xs: readonly number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  const squares = xs.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (xs.length * squares);
}

/**
 * Paper III's treatment variation (L1497) over [fromUs, toUs), where all `flows` are active:
 * the variance of the bins' highest throughput minus the lowest.
 */
export function treatmentVariation(
  flows: readonly FlowSeries[],
  fromUs: number,
  toUs: number,
): number {
  return spreadVariance(flows.map((f) => window(f, fromUs, toUs)));
}

/**
 * Time after `joinUs` until the spread (max − min) of `flows` stays within `band` × their mean
 * for `holdBins` consecutive bins: how long the scheme takes to give a new flow its share.
 * Returns the start of that run of bins minus `joinUs`, or null if it never settles before
 * `untilUs`.
 */
export function convergenceUs(
  flows: readonly FlowSeries[],
  joinUs: number,
  untilUs: number,
  band: number,
  holdBins: number,
): number | null {
  const windows = flows.map((f) => window(f, joinUs, untilUs));
  const starts = window({ ...flows[0]!, gbps: flows[0]!.binStartUs }, joinUs, untilUs);
  let run = 0;
  for (let i = 0; i < starts.length; i++) {
    const values = windows.map((w) => w[i]!);
    const m = mean(values);
    const fair = m > 0 && Math.max(...values) - Math.min(...values) <= band * m;
    run = fair ? run + 1 : 0;
    if (run === holdBins) return starts[i - holdBins + 1]! - joinUs;
  }
  return null;
}
