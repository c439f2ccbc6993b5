import { join } from "node:path";
import { column, readTable, type Table } from "./csv.js";
import {
  type Figure,
  type LinePoint,
  lineFigure,
  linesOrAggregate,
  MAX_LINES,
  type TimeAxis,
  timeAxisFor,
} from "./figure.js";
import { ccQueueFigures } from "./queue-figures.js";
import {
  binStarts,
  flowSelected,
  portSelected,
  type RunContext,
  type RunSelection,
  runContext,
} from "./run-context.js";
import { variableTitle } from "./variable-title.js";

export { variableTitle };

/** The figures a run can have, by name (the file names under `plots/`). */
export const RUN_FIGURES = [
  "flow-throughput",
  "host-throughput",
  "port-occupancy",
  "egress-occupancy",
  "flow-control",
  "cc",
  "cc-queues",
  "fct",
] as const;
export type RunFigureName = (typeof RUN_FIGURES)[number];

/** Vega-Lite specs of a finished run's figures (only those whose data the run recorded). */
export function runFigures(
  dir: string,
  only?: readonly RunFigureName[],
  selection: RunSelection = {},
): Figure[] {
  const ctx = runContext(dir, selection);
  const figures: Figure[] = [];
  for (const name of RUN_FIGURES) {
    if (only !== undefined && !only.includes(name)) continue;
    const { file, draw } = SOURCES[name];
    const path = join(dir, file);
    const t = readTable(path);
    if (t !== undefined && t.rows.length > 0) figures.push(...draw(ctx, t, path));
  }
  return figures;
}

/** Each figure's CSV file and how it is drawn (some series give several figures). */
const SOURCES: Record<
  RunFigureName,
  { file: string; draw: (ctx: RunContext, t: Table, path: string) => Figure[] }
> = {
  "flow-throughput": { file: "flow-throughput.csv", draw: (c, t, p) => [flowThroughput(c, t, p)] },
  "host-throughput": { file: "host-throughput.csv", draw: (c, t, p) => [hostThroughput(c, t, p)] },
  "port-occupancy": { file: "port-occupancy.csv", draw: (c, t, p) => [portOccupancy(c, t, p)] },
  "egress-occupancy": {
    file: "egress-occupancy.csv",
    draw: (c, t, p) => [egressOccupancy(c, t, p)],
  },
  "flow-control": { file: "flow-control.csv", draw: (c, t, p) => [flowControl(c, t, p)] },
  cc: { file: "cc-flows.csv", draw: ccFigures },
  "cc-queues": { file: "cc-queues.csv", draw: ccQueueFigures },
  fct: { file: "messages.csv", draw: (c, t, p) => [fctFigure(c, t, p)] },
};

/** Reads columns by name as numbers or strings, naming the file when one is missing. */
function reader(t: Table, file: string) {
  return {
    num: (name: string) => {
      const i = column(t, name, file);
      return (row: readonly string[]) => Number(row[i]);
    },
    str: (name: string) => {
      const i = column(t, name, file);
      return (row: readonly string[]) => row[i]!;
    },
  };
}

/**
 * The run's time axis, 0 to its end, in a unit that suits its length; without the end in the
 * summary, up to the last time in the file (`seenUs`).
 */
function runTimeAxis(
  ctx: RunContext,
  seenUs: () => Iterable<number>,
): { axis: TimeAxis; xDomain?: [number, number] } {
  if (ctx.endUs === undefined) return { axis: timeAxisFor(maxOf(seenUs())) };
  const axis = timeAxisFor(ctx.endUs);
  return { axis, xDomain: [0, axis.fromUs(ctx.endUs)] };
}

function maxOf(values: Iterable<number>): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Throughput per member (flow or host) over time, grouped by traffic group beyond 12. */
function throughputFigure(
  ctx: RunContext,
  t: Table,
  file: string,
  o: {
    name: RunFigureName;
    member: (r: ReturnType<typeof reader>) => (row: readonly string[]) => string;
    /** Which rows to draw (the selected flows); default every row. */
    keep?: (r: ReturnType<typeof reader>) => (row: readonly string[]) => boolean;
    noun: string;
    title: string;
    yTitle: string;
    legendTitle: string;
  },
): Figure {
  const r = reader(t, file);
  const [time, group, gbps, member] = [
    r.num("bin_start_us"),
    r.str("group"),
    r.num("gbps"),
    o.member(r),
  ];
  const keep = o.keep?.(r) ?? (() => true);
  const { axis, xDomain } = runTimeAxis(ctx, () => t.rows.map(time));
  const { points, bands, aggregated } = linesOrAggregate(
    t.rows.filter(keep).map((row) => ({
      x: axis.fromUs(time(row)),
      y: gbps(row),
      member: `${member(row)} (${group(row)})`,
      aggregate: group(row),
    })),
    (g, n) => `${g}: mean of ${n} ${o.noun}`,
  );
  return lineFigure({
    name: o.name,
    title: `${ctx.name}: ${o.title}`,
    ...(aggregated ? { subtitle: `shaded: min–max over the group's ${o.noun}` } : {}),
    xTitle: `time (${axis.unit})`,
    yTitle: o.yTitle,
    legendTitle: aggregated ? "traffic group" : o.legendTitle,
    points,
    bands,
    step: true,
    ...(xDomain === undefined ? {} : { xDomain }),
    yDomainMin: 0,
  });
}

const flowThroughput = (ctx: RunContext, t: Table, file: string) =>
  throughputFigure(ctx, t, file, {
    name: "flow-throughput",
    member: (r) => {
      const [src, dst] = [r.str("src"), r.str("dst")];
      return (row) => `${src(row)}→${dst(row)}`;
    },
    keep: (r) => {
      const [id, src, dst] = [r.str("flow"), r.str("src"), r.str("dst")];
      return (row) => flowSelected(ctx.selection, id(row), src(row), dst(row));
    },
    noun: "flows",
    title: "throughput per flow",
    yTitle: "payload throughput (Gb/s)",
    legendTitle: "flow (group)",
  });

const hostThroughput = (ctx: RunContext, t: Table, file: string) =>
  throughputFigure(ctx, t, file, {
    name: "host-throughput",
    member: (r) => r.str("host"),
    noun: "hosts",
    title: "receive throughput per host",
    yTitle: "received payload (Gb/s)",
    legendTitle: "host (group)",
  });

/**
 * The ports with the highest peak of `value`, at most {@link MAX_LINES}: in a fabric of
 * hundreds of ports the congested ones are what a reader looks for.
 */
function busiestPorts(
  t: Table,
  key: (row: readonly string[]) => string,
  value: (row: readonly string[]) => number,
): { keep: Set<string>; total: number } {
  const peak = new Map<string, number>();
  for (const row of t.rows) {
    const k = key(row);
    const v = value(row);
    if (v > (peak.get(k) ?? -1)) peak.set(k, v);
  }
  const ranked = [...peak]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { keep: new Set(ranked.slice(0, MAX_LINES).map(([k]) => k)), total: ranked.length };
}

function portFigure(
  ctx: RunContext,
  t: Table,
  file: string,
  o: {
    name: string;
    deviceColumn: string;
    valueColumn: string;
    scale: number;
    title: string;
    yTitle: string;
    /** `held packets`, `were blocked`: what the ports drawn did. */
    what: string;
    /** How a port relates to its peer: `from` for an input, `→` for a transmitting port. */
    toPeer: "from" | "→";
    legendTitle: string;
  },
): Figure {
  const r = reader(t, file);
  const [time, device, port, vl, raw] = [
    r.num("bin_start_us"),
    r.str(o.deviceColumn),
    r.str("port"),
    r.str("vl"),
    r.num(o.valueColumn),
  ];
  // Results of older versions have no port names: the device and port number stand in.
  const named = t.columns.includes("port_name") && t.columns.includes("peer");
  const portName = named
    ? r.str("port_name")
    : (row: readonly string[]) => `${device(row)}.p${port(row)}`;
  const peer = named ? r.str("peer") : undefined;
  const key = (row: readonly string[]) => {
    const to =
      peer === undefined ? "" : o.toPeer === "from" ? ` (from ${peer(row)})` : ` → ${peer(row)}`;
    return `${portName(row)}${to} VL ${vl(row)}`;
  };
  const rows = t.rows.filter((row) => portSelected(ctx.selection, portName(row), device(row)));
  const selected = ctx.selection.ports !== undefined;
  const { keep, total } = selected
    ? { keep: new Set(rows.map(key)), total: new Set(rows.map(key)).size }
    : busiestPorts({ columns: t.columns, rows }, key, raw);
  const { axis, xDomain } = runTimeAxis(ctx, () => t.rows.map(time));
  // Every bin of every port drawn: a bin missing from the file had nothing (zero-filled).
  const starts = binStarts(ctx, rows.map(time));
  const values = new Map<string, Map<number, number>>([...keep].map((k) => [k, new Map()]));
  for (const row of rows) values.get(key(row))?.set(time(row), raw(row) * o.scale);
  const points: LinePoint[] = [];
  for (const [series, byStart] of values) {
    for (const start of starts) {
      points.push({ x: axis.fromUs(start), y: byStart.get(start) ?? 0, series });
    }
  }
  return lineFigure({
    name: o.name,
    title: `${ctx.name}: ${o.title}`,
    subtitle: selected
      ? `the ports selected with --port (${keep.size} port and VL line${keep.size === 1 ? "" : "s"})`
      : total > keep.size
        ? `the ${keep.size} ports and VLs with the highest peak, of ${total} that ${o.what}`
        : `all ${total} ports and VLs that ${o.what}`,
    xTitle: `time (${axis.unit})`,
    yTitle: o.yTitle,
    legendTitle: o.legendTitle,
    points,
    step: true,
    ...(xDomain === undefined ? {} : { xDomain }),
    yDomainMin: 0,
  });
}

function portOccupancy(ctx: RunContext, t: Table, file: string): Figure {
  return portFigure(ctx, t, file, {
    name: "port-occupancy",
    deviceColumn: "switch",
    valueColumn: "mean_input_bytes",
    scale: 1 / 1024,
    title: "input buffer occupancy",
    yTitle: "mean occupancy per bin (KiB)",
    what: "held packets",
    toPeer: "from",
    legendTitle: "switch input (from), VL",
  });
}

// The queue DCQCN, TCD and BCN decide on: what waits in a switch for each output
// (docs/model.md, "What is measured").
function egressOccupancy(ctx: RunContext, t: Table, file: string): Figure {
  return portFigure(ctx, t, file, {
    name: "egress-occupancy",
    deviceColumn: "switch",
    valueColumn: "mean_egress_bytes",
    scale: 1 / 1024,
    title: "egress queue occupancy",
    yTitle: "mean egress queue per bin (KiB)",
    what: "held packets",
    toPeer: "→",
    legendTitle: "switch output → peer, VL",
  });
}

function flowControl(ctx: RunContext, t: Table, file: string): Figure {
  return portFigure(ctx, t, file, {
    name: "flow-control",
    deviceColumn: "device",
    valueColumn: "blocked_fraction",
    scale: 100,
    title: "time blocked by flow control",
    yTitle: "paused or out of credits (% of bin)",
    what: "were blocked",
    toPeer: "→",
    legendTitle: "sending port → peer, VL",
  });
}

function ccFigures(ctx: RunContext, t: Table, file: string): Figure[] {
  const r = reader(t, file);
  const [time, flow, src, dst, variable, value] = [
    r.num("time_us"),
    r.str("flow"),
    r.str("src"),
    r.str("dst"),
    r.str("variable"),
    r.num("value"),
  ];
  const { axis, xDomain } = runTimeAxis(ctx, () => t.rows.map(time));
  const variables = [...new Set(t.rows.map(variable))];
  return variables.map((v) => {
    const rows = t.rows.filter(
      (row) => variable(row) === v && flowSelected(ctx.selection, flow(row), src(row), dst(row)),
    );
    const { points, bands, aggregated } = linesOrAggregate(
      rows.map((row) => {
        const g = ctx.groupOfFlow.get(flow(row));
        return {
          x: axis.fromUs(time(row)),
          y: value(row),
          member: `${src(row)}→${dst(row)}${g === undefined ? "" : ` (${g})`}`,
          aggregate: g ?? "all flows",
        };
      }),
      (g, n) => `${g}: mean of ${n} flows`,
    );
    return lineFigure({
      name: `cc-${v}`,
      title: `${ctx.name}: CC state per flow, ${variableTitle(v)}`,
      ...(aggregated ? { subtitle: "shaded: min–max over the flows" } : {}),
      xTitle: `time (${axis.unit})`,
      yTitle: variableTitle(v),
      legendTitle: aggregated ? "traffic group" : "flow (group)",
      points,
      bands,
      step: true,
      ...(xDomain === undefined ? {} : { xDomain }),
      yDomainMin: 0,
    });
  });
}

/** At most this many points per CDF: quantiles of the sorted sample, exact at both ends. */
const CDF_POINTS = 400;

/** Empirical CDF points (value, fraction ≤ value) of a sample, thinned to {@link CDF_POINTS}. */
export function cdfPoints(values: number[], series: string): LinePoint[] {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const points: LinePoint[] = [];
  const step = Math.max(1, Math.floor(n / CDF_POINTS));
  for (let i = 0; i < n; i += step) points.push({ x: sorted[i]!, y: (i + 1) / n, series });
  if (n > 0 && points[points.length - 1]!.y !== 1) {
    points.push({ x: sorted[n - 1]!, y: 1, series });
  }
  return points;
}

function fctFigure(ctx: RunContext, t: Table, file: string): Figure {
  const r = reader(t, file);
  const [flow, fct] = [r.str("flow"), r.num("fct_us")];
  const byGroup = new Map<string, number[]>();
  for (const row of t.rows) {
    const g = ctx.groupOfFlow.get(flow(row)) ?? "all messages";
    const list = byGroup.get(g);
    if (list === undefined) byGroup.set(g, [fct(row)]);
    else list.push(fct(row));
  }
  const points = [...byGroup].flatMap(([g, values]) =>
    cdfPoints(values, `${g} (${values.length} messages)`),
  );
  const positive = points.map((p) => p.x).filter((x) => x > 0);
  const least = positive.reduce((m, x) => (x < m ? x : m), Number.POSITIVE_INFINITY);
  // A log axis when completion times span more than two decades (incast tails, CC runs).
  const spread = positive.length === 0 ? 1 : maxOf(positive) / least;
  return lineFigure({
    name: "fct",
    title: `${ctx.name}: message completion time distribution`,
    subtitle: "completion time from message creation to its last byte delivered",
    xTitle: "completion time (µs)",
    yTitle: "fraction of messages ≤ x",
    legendTitle: "traffic group",
    points,
    xScale: spread > 100 ? "log" : "linear",
    yDomainMin: 0,
  });
}
