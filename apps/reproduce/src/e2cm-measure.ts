/**
 * What the E2CM slides measure (seed 003_b214e58ba856b6a6.txt L357–360, L392–395): per-flow
 * throughput over a window, and convergence times over 1-ms averages: the time after which
 * the values stay within [v(1 − a), v(1 + a)] of their steady value v (relative accuracy a).
 */
import { column, parseTable, type Table } from "@cclab/plot";
import type { SimulationResult } from "@cclab/sim";
import { type FlowSeries, mean, parseFlowThroughput, window } from "./throughput.js";

/** Mean Gb/s of each flow (`src→dst`) of `flows` over bins that start in [fromUs, toUs). */
export function flowMeans(
  flows: ReadonlyMap<string, FlowSeries>,
  fromUs: number,
  toUs: number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, series] of flows) out.set(name, mean(window(series, fromUs, toUs)));
  return out;
}

/** The flows' throughput series, by `src→dst`. */
export function flowSeries(result: SimulationResult): Map<string, FlowSeries> {
  return parseFlowThroughput(result.files.get("flow-throughput.csv") ?? "");
}

/**
 * Mean egress queue of the switch output cabled to host `host` (e.g. `H0`) per bin, bytes, by
 * bin start (µs), summed over its VLs (the data VL and the control lane of the BCN frames).
 */
export function egressQueueTo(result: SimulationResult, host: string): Map<number, number> {
  const table = resultTable(result, "egress-occupancy.csv");
  const [t, bytes, peer] = ["bin_start_us", "mean_egress_bytes", "peer"].map((c) =>
    column(table, c, "egress-occupancy.csv"),
  ) as [number, number, number];
  const out = new Map<number, number>();
  for (const cells of table.rows) {
    if (cells[peer] !== host) continue;
    const at = Number(cells[t]);
    out.set(at, (out.get(at) ?? 0) + Number(cells[bytes]));
  }
  return out;
}

/** A CSV file the run wrote, parsed. */
function resultTable(result: SimulationResult, file: string): Table {
  const csv = result.files.get(file);
  if (csv === undefined) throw new Error(`the run has no ${file}`);
  return parseTable(csv, file);
}

/**
 * Convergence time, µs after `fromUs`: the first bin start from which every value of `values`
 * (bin start → value, bins not listed are 0) up to `toUs` stays within ±`accuracy` of
 * `steady`; `Infinity` if none does, or if the values stay inside for less than `minStayUs`
 * before `toUs` (a run that ends while they happen to be inside has not shown convergence).
 */
export function settledAtUs(
  values: ReadonlyMap<number, number>,
  steady: number,
  accuracy: number,
  fromUs: number,
  toUs: number,
  binUs: number,
  minStayUs = 0,
): number {
  let since = Number.POSITIVE_INFINITY;
  for (let t = fromUs; t < toUs; t += binUs) {
    const v = values.get(t) ?? 0;
    const inside = Math.abs(v - steady) <= accuracy * Math.abs(steady);
    if (!inside) since = Number.POSITIVE_INFINITY;
    else if (since === Number.POSITIVE_INFINITY) since = t;
  }
  return toUs - since < minStayUs ? Number.POSITIVE_INFINITY : since - fromUs;
}

/** The first bin start in [fromUs, toUs) whose value is within ±`accuracy` of `steady`, µs. */
export function firstInsideUs(
  values: ReadonlyMap<number, number>,
  steady: number,
  accuracy: number,
  fromUs: number,
  toUs: number,
  binUs: number,
): number {
  for (let t = fromUs; t < toUs; t += binUs) {
    if (Math.abs((values.get(t) ?? 0) - steady) <= accuracy * Math.abs(steady)) return t;
  }
  return Number.POSITIVE_INFINITY;
}

/** Each flow's last sampled rate (`cc-flows.csv`, variable `rateGbps`), by `src→dst`. */
export function finalRates(result: SimulationResult): Map<string, number> {
  const table = resultTable(result, "cc-flows.csv");
  const [src, dst, variable, value] = ["src", "dst", "variable", "value"].map((c) =>
    column(table, c, "cc-flows.csv"),
  ) as [number, number, number, number];
  const out = new Map<string, number>();
  for (const cells of table.rows) {
    if (cells[variable] === "rateGbps") {
      out.set(`${cells[src]}→${cells[dst]}`, Number(cells[value]));
    }
  }
  return out;
}

/** Bin start → value of one flow's series. */
export function seriesMap(series: FlowSeries | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (series === undefined) return out;
  series.binStartUs.forEach((t, i) => {
    out.set(t, series.gbps[i]!);
  });
  return out;
}

/** The values of the bins starting in [fromUs, toUs). */
function valuesOver(values: ReadonlyMap<number, number>, fromUs: number, toUs: number): number[] {
  const picked: number[] = [];
  for (const [t, v] of values) if (t >= fromUs && t < toUs) picked.push(v);
  return picked;
}

/** Coefficient of variation (standard deviation / mean) of the bins starting in [fromUs, toUs). */
export function spreadOver(
  values: ReadonlyMap<number, number>,
  fromUs: number,
  toUs: number,
): number {
  const picked = valuesOver(values, fromUs, toUs);
  const m = mean(picked);
  // Population standard deviation: the spread of the bins themselves, not an estimate.
  return Math.sqrt(mean(picked.map((v) => (v - m) ** 2))) / m;
}

/** Mean of the values of bins starting in [fromUs, toUs); 0 when none does (past a run's end). */
export function meanOver(
  values: ReadonlyMap<number, number>,
  fromUs: number,
  toUs: number,
): number {
  const picked = valuesOver(values, fromUs, toUs);
  return picked.length === 0 ? 0 : mean(picked);
}
