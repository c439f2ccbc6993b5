import { type CsvTable, columnIndex, parseCsv } from "./csv.js";
import type { LineInfo, SeriesData, SeriesInfo } from "./types.js";

/** A series set with its data at full resolution. */
export interface SeriesSet {
  readonly info: SeriesInfo;
  readonly data: SeriesData;
}

/** Reads a result file by name (relative to the run's folder); undefined when absent. */
export type ReadFile = (name: string) => string | undefined;

/** `run.json`'s `queueSeries.valueLabels`: names of values by variable. */
export type ValueLabels = Readonly<Record<string, Readonly<Record<string, string>>>>;

interface SetSpec {
  readonly name: string;
  readonly title: string;
  readonly unit: string;
  readonly x: string;
  readonly keys: readonly string[];
  readonly value: string;
  readonly scale?: number;
  /** Missing samples are 0 (binned figures: nothing in the bin) or a gap (sampled state). */
  readonly fill: 0 | null;
  readonly label: (cell: (column: string) => string) => string;
  readonly group?: (cell: (column: string) => string) => string;
  readonly filter?: (cell: (column: string) => string) => boolean;
  readonly valueLabels?: Readonly<Record<string, string>>;
}

const portLabel = (c: (k: string) => string, arrow: string) =>
  `${c("port_name")} VL${c("vl")} ${arrow} ${c("peer")}`;

/**
 * Every series set a result directory's CSV files give: throughput per flow, per traffic
 * group (the mean over its flows) and per host; input, output and egress queue occupancy per
 * port and VL; the share of each bin a port was paused or out of credits; the Gb/s each port
 * sent (`link-throughput.csv`, on-the-wire bytes); and one set per CC
 * variable per flow (`cc-flows.csv`: rate, CCTI, α…) and per egress queue (`cc-queues.csv`:
 * TCD's state…). Files the run did not write give no set.
 */
export function readSeriesSets(read: ReadFile, valueLabels: ValueLabels = {}): SeriesSet[] {
  const sets: SeriesSet[] = [];
  const add = (file: string, specs: (t: CsvTable) => SetSpec[]) => {
    const text = read(file);
    if (text === undefined) return;
    const table = parseCsv(text);
    for (const spec of specs(table)) {
      const set = buildSet(table, spec);
      if (set !== undefined) sets.push(set);
    }
  };
  add("flow-throughput.csv", () => [
    {
      name: "flow-throughput",
      title: "Throughput per flow",
      unit: "Gb/s",
      x: "bin_start_us",
      keys: ["flow"],
      value: "gbps",
      fill: 0,
      label: (c) => `${c("src")}→${c("dst")} #${c("flow")}`,
      group: (c) => c("group"),
    },
  ]);
  const flows = sets.find((s) => s.info.name === "flow-throughput");
  if (flows !== undefined) sets.push(groupMeans(flows));
  add("host-throughput.csv", () => [
    {
      name: "host-throughput",
      title: "Received throughput per host and traffic group",
      unit: "Gb/s",
      x: "bin_start_us",
      keys: ["host", "group"],
      value: "gbps",
      fill: 0,
      label: (c) => `${c("host")} ← ${c("group")}`,
      group: (c) => c("group"),
    },
  ]);
  const occupancy = (name: string, title: string, column: string): SetSpec => ({
    name,
    title,
    unit: "KiB",
    x: "bin_start_us",
    keys: ["port_name", "vl"],
    value: column,
    scale: 1 / 1024,
    fill: 0,
    label: (c) => portLabel(c, name === "port-occupancy" ? "from" : "→"),
  });
  add("port-occupancy.csv", () => [
    occupancy("port-occupancy", "Input buffer occupancy per port and VL", "mean_input_bytes"),
  ]);
  add("output-occupancy.csv", () => [
    occupancy("output-occupancy", "Output buffer occupancy per port and VL", "mean_output_bytes"),
  ]);
  add("egress-occupancy.csv", () => [
    occupancy("egress-occupancy", "Egress queue occupancy per output and VL", "mean_egress_bytes"),
  ]);
  add("flow-control.csv", () => [
    {
      name: "flow-control",
      title: "Paused or credit-starved time per port and VL",
      unit: "% of bin",
      x: "bin_start_us",
      keys: ["port_name", "vl"],
      value: "blocked_fraction",
      scale: 100,
      fill: 0,
      label: (c) => portLabel(c, "→"),
    },
  ]);
  add("link-throughput.csv", () => [
    {
      name: "link-throughput",
      title: "Throughput per sending port (on-the-wire bytes)",
      unit: "Gb/s",
      x: "bin_start_us",
      keys: ["port_name"],
      value: "gbps",
      fill: 0,
      label: (c) => `${c("port_name")} → ${c("peer")}`,
    },
  ]);
  add("cc-flows.csv", (t) =>
    variables(t).map((v) => ({
      name: `cc-${v}`,
      title: `CC ${v} per flow`,
      unit: v,
      x: "time_us",
      keys: ["flow"],
      value: "value",
      fill: null,
      label: (c) => `${c("src")}→${c("dst")} #${c("flow")}`,
      filter: (c) => c("variable") === v,
    })),
  );
  add("cc-queues.csv", (t) =>
    variables(t).map((v) => ({
      name: `cc-queues-${v}`,
      title: `CC ${v} per egress queue`,
      unit: v,
      x: "time_us",
      keys: ["port_name", "vl"],
      value: "value",
      fill: null,
      label: (c) => `${c("port_name")} VL${c("vl")}`,
      filter: (c) => c("variable") === v,
      ...(valueLabels[v] === undefined ? {} : { valueLabels: valueLabels[v] }),
    })),
  );
  return sets;
}

function variables(table: CsvTable): string[] {
  const [v] = columnIndex(table, ["variable"]);
  if (v! < 0) return [];
  const names = new Set<string>();
  for (const row of table.rows()) names.add(row[v!]!);
  return [...names];
}

function buildSet(table: CsvTable, spec: SetSpec): SeriesSet | undefined {
  const index = new Map(table.columns.map((c, i) => [c, i]));
  const need = [spec.x, spec.value, ...spec.keys];
  if (need.some((c) => !index.has(c))) return undefined;
  const xi = index.get(spec.x)!;
  const vi = index.get(spec.value)!;
  const ki = spec.keys.map((k) => index.get(k)!);
  const scale = spec.scale ?? 1;
  const xs = new Set<number>();
  // Each line's samples as parallel arrays (a Map per line costs several times the memory).
  const byKey = new Map<string, { label: string; group?: string; xs: number[]; vs: number[] }>();
  for (const row of table.rows()) {
    const cell = (c: string) => row[index.get(c) ?? -1] ?? "";
    if (spec.filter !== undefined && !spec.filter(cell)) continue;
    const x = Number(row[xi]);
    const v = Number(row[vi]);
    if (!Number.isFinite(x) || !Number.isFinite(v)) continue;
    const key = ki.map((i) => row[i]).join("|");
    let line = byKey.get(key);
    if (line === undefined) {
      const group = spec.group?.(cell);
      line = {
        label: spec.label(cell),
        ...(group === undefined ? {} : { group }),
        xs: [],
        vs: [],
      };
      byKey.set(key, line);
    }
    xs.add(x);
    line.xs.push(x);
    line.vs.push(v * scale);
  }
  if (byKey.size === 0) return undefined;
  const x = [...xs].sort((a, b) => a - b);
  const at = new Map(x.map((t, i) => [t, i]));
  const lines = [...byKey].map(([key, l]) => {
    const y: (number | null)[] = new Array(x.length).fill(spec.fill);
    l.xs.forEach((t, i) => {
      y[at.get(t)!] = l.vs[i]!;
    });
    return { key, label: l.label, group: l.group, y };
  });
  return finish(spec, x, lines);
}

function finish(
  spec: Pick<SetSpec, "name" | "title" | "unit" | "fill" | "valueLabels">,
  x: number[],
  lines: { key: string; label: string; group?: string | undefined; y: (number | null)[] }[],
): SeriesSet {
  const infos: LineInfo[] = lines.map((l) => {
    const values = l.y.filter((v): v is number => v !== null);
    const sum = values.reduce((a, b) => a + b, 0);
    return {
      key: l.key,
      label: l.label,
      ...(l.group === undefined ? {} : { group: l.group }),
      mean: values.length === 0 ? 0 : sum / values.length,
      max: values.length === 0 ? 0 : Math.max(...values),
    };
  });
  const order = infos.map((_, i) => i).sort((a, b) => infos[b]!.mean - infos[a]!.mean);
  return {
    info: {
      name: spec.name,
      title: spec.title,
      unit: spec.unit,
      lines: order.map((i) => infos[i]!),
      xMinUs: x[0] ?? 0,
      xMaxUs: x[x.length - 1] ?? 0,
      points: x.length,
      ...(spec.valueLabels === undefined ? {} : { valueLabels: spec.valueLabels }),
      ...(spec.fill === null ? { stepped: true } : {}),
    },
    data: {
      name: spec.name,
      x,
      lines: order.map((i) => ({ key: lines[i]!.key, y: lines[i]!.y })),
      full: true,
    },
  };
}

/** Each traffic group's mean flow throughput per bin (flows without a group: "(none)"). */
function groupMeans(flows: SeriesSet): SeriesSet {
  const members = new Map<string, number[]>();
  flows.info.lines.forEach((l, i) => {
    const g = l.group || "(none)";
    members.set(g, [...(members.get(g) ?? []), i]);
  });
  const lines = [...members].map(([group, idx]) => ({
    key: group,
    label: `${group} (mean of ${idx.length})`,
    group,
    y: flows.data.x.map(
      (_, t) => idx.reduce((s, i) => s + (flows.data.lines[i]!.y[t] ?? 0), 0) / idx.length,
    ),
  }));
  return finish(
    {
      name: "group-throughput",
      title: "Mean flow throughput per traffic group",
      unit: "Gb/s",
      fill: 0,
    },
    [...flows.data.x],
    lines,
  );
}
