import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type Summary, unfinishedRunMessage } from "@cclab/sim";
import { column, readTable } from "./csv.js";
import { type Figure, type LinePoint, lineFigure, timeAxisFor } from "./figure.js";
import { cdfPoints } from "./run-figures.js";
import { type ScenarioDifference, scenarioDifferences } from "./scenario-diff.js";
import { treatmentVariation } from "./treatment-variation.js";

/** One run in a comparison: its label and what it saved. */
interface Run {
  readonly label: string;
  readonly dir: string;
  readonly summary: Summary;
}

/** A traffic group's figures in one run. */
export interface GroupFigures {
  readonly meanGbps: number;
  /** Null when no flow of the group delivered anything (the summary's convention). */
  readonly jainIndex: number | null;
  /** Paper III's Var over the group's flows (Gb/s²); undefined without flow-throughput.csv. */
  readonly treatmentVariation: number | undefined;
}

/** One row of a comparison. */
export interface ComparedRun {
  readonly label: string;
  readonly dir: string;
  readonly scenario: string;
  readonly seed: number;
  readonly windowGbps: number;
  readonly groups: Readonly<Record<string, GroupFigures>>;
  readonly latencyP50Ns: number | undefined;
  readonly latencyP99Ns: number | undefined;
  readonly fctP50Us: number | undefined;
  readonly fctP99Us: number | undefined;
  readonly slowdownP99: number | undefined;
  readonly marks: { readonly fecn: number; readonly becn: number; readonly ecnCe: number };
  readonly pauseFrames: number;
  readonly dataDrops: number;
}

export interface Comparison {
  readonly runs: readonly ComparedRun[];
  /**
   * Fields in which the runs' resolved scenarios differ beyond their CC (duration, warm-up,
   * traffic, topology, ...): empty for a like-for-like comparison.
   */
  readonly differences: readonly ScenarioDifference[];
  /** Group names in first-appearance order over the runs. */
  readonly groups: readonly string[];
  readonly figures: readonly Figure[];
}

function loadRun(dir: string, label: string): Run {
  const unfinished = unfinishedRunMessage(dir);
  if (unfinished !== undefined) throw new Error(unfinished);
  const file = join(dir, "summary.json");
  if (!existsSync(file)) {
    throw new Error(`${dir}: no summary.json (not a finished cclab run)`);
  }
  return { label, dir, summary: JSON.parse(readFileSync(file, "utf8")) as Summary };
}

// A run's resolved scenario (an empty object for a result folder without one).
function resolvedScenario(dir: string): unknown {
  const file = join(dir, "scenario.resolved.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
}

/** Labels: each directory's name, or its path where names repeat. */
function labels(dirs: readonly string[]): string[] {
  const names = dirs.map((d) => basename(resolve(d)));
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 ? dirs[i]! : n));
}

/** Per group, each flow's Gb/s per bin from flow-throughput.csv (bins in file order). */
function groupSeries(dir: string): Map<string, { binUs: number[]; flows: Map<string, number[]> }> {
  const out = new Map<string, { binUs: number[]; flows: Map<string, number[]> }>();
  const file = join(dir, "flow-throughput.csv");
  const t = readTable(file);
  if (t === undefined) return out;
  const [ti, fi, gi, vi] = ["bin_start_us", "flow", "group", "gbps"].map((c) => column(t, c, file));
  for (const row of t.rows) {
    const group = row[gi!]!;
    let g = out.get(group);
    if (g === undefined) {
      g = { binUs: [], flows: new Map() };
      out.set(group, g);
    }
    const time = Number(row[ti!]);
    if (g.binUs[g.binUs.length - 1] !== time) g.binUs.push(time);
    const flow = row[fi!]!;
    const list = g.flows.get(flow) ?? [];
    g.flows.set(flow, list);
    list.push(Number(row[vi!]));
  }
  return out;
}

/**
 * Compares finished runs (`cclab compare`): throughput, fairness (Jain's index and treatment
 * variation per traffic group), latency and completion-time percentiles, marks, pauses and
 * drops per run; figures overlay the runs (each group's mean flow throughput over time, and
 * the message completion time CDFs).
 */
export function compareRuns(dirs: readonly string[]): Comparison {
  if (dirs.length === 0) throw new Error("give at least one result directory");
  const names = labels(dirs);
  const runs = dirs.map((d, i) => loadRun(d, names[i]!));
  const groups: string[] = [];
  for (const r of runs)
    for (const g of r.summary.groups) if (!groups.includes(g.name)) groups.push(g.name);
  const series = runs.map((r) => groupSeries(r.dir));
  const rows: ComparedRun[] = runs.map((r, i) => {
    const s = r.summary;
    const t = s.totals;
    return {
      label: r.label,
      dir: r.dir,
      scenario: s.scenario,
      seed: s.seed,
      windowGbps: t.windowGbps,
      groups: Object.fromEntries(
        s.groups.map((g) => {
          const flows = series[i]!.get(g.name)?.flows;
          return [
            g.name,
            {
              meanGbps: g.meanGbps,
              jainIndex: g.jainIndex,
              treatmentVariation:
                flows === undefined ? undefined : treatmentVariation([...flows.values()]),
            },
          ];
        }),
      ),
      latencyP50Ns: s.latencyNs.total?.p50,
      latencyP99Ns: s.latencyNs.total?.p99,
      fctP50Us: s.fct?.completionUs.p50,
      fctP99Us: s.fct?.completionUs.p99,
      slowdownP99: s.fct?.slowdown.p99,
      marks: t.marks,
      pauseFrames: t.pauseFrames,
      dataDrops: t.dataDrops,
    };
  });
  return {
    runs: rows,
    differences: scenarioDifferences(dirs.map((d) => resolvedScenario(d))),
    groups,
    figures: [...throughputFigures(runs, groups, series), ...fctFigures(runs)],
  };
}

function throughputFigures(
  runs: readonly Run[],
  groups: readonly string[],
  series: readonly Map<string, { binUs: number[]; flows: Map<string, number[]> }>[],
): Figure[] {
  const maxUs = Math.max(...series.flatMap((m) => [...m.values()].map((g) => g.binUs.at(-1) ?? 0)));
  const axis = timeAxisFor(maxUs);
  const figures: Figure[] = [];
  for (const group of groups) {
    const points: LinePoint[] = [];
    const counts = new Set<number>();
    runs.forEach((run, i) => {
      const g = series[i]!.get(group);
      if (g === undefined) return;
      const flows = [...g.flows.values()];
      counts.add(flows.length);
      g.binUs.forEach((us, b) => {
        const mean = flows.reduce((s, f) => s + (f[b] ?? 0), 0) / flows.length;
        points.push({ x: axis.fromUs(us), y: mean, series: run.label });
      });
    });
    if (points.length === 0) continue;
    figures.push(
      lineFigure({
        name: `throughput-${group}`,
        title: `group ${group}: mean throughput per flow`,
        subtitle: `mean over the group's flows in flow-throughput.csv (${[...counts].join(" / ")} flows)`,
        xTitle: `time (${axis.unit})`,
        yTitle: "payload throughput per flow (Gb/s)",
        legendTitle: "run",
        points,
        step: true,
        yDomainMin: 0,
      }),
    );
  }
  return figures;
}

function fctFigures(runs: readonly Run[]): Figure[] {
  const points: LinePoint[] = [];
  for (const run of runs) {
    const file = join(run.dir, "messages.csv");
    const t = readTable(file);
    if (t === undefined || t.rows.length === 0) continue;
    const fi = column(t, "fct_us", file);
    points.push(
      ...cdfPoints(
        t.rows.map((r) => Number(r[fi])),
        `${run.label} (${t.rows.length} messages)`,
      ),
    );
  }
  if (points.length === 0) return [];
  const positive = points.map((p) => p.x).filter((x) => x > 0);
  const lo = positive.reduce((m, x) => Math.min(m, x), Number.POSITIVE_INFINITY);
  const hi = positive.reduce((m, x) => Math.max(m, x), 0);
  return [
    lineFigure({
      name: "fct",
      title: "message completion time distribution",
      subtitle: "every completed message of each run (messages.csv)",
      xTitle: "completion time (µs)",
      yTitle: "fraction of messages ≤ x",
      legendTitle: "run",
      points,
      xScale: hi / lo > 100 ? "log" : "linear",
      yDomainMin: 0,
    }),
  ];
}

const num = (x: number | undefined, digits: number) => (x === undefined ? "-" : x.toFixed(digits));

/** The comparison as rows of strings: the header then one row per run. */
export function comparisonRows(c: Comparison): { header: string[]; rows: string[][] } {
  const header = [
    "run",
    "window Gb/s",
    ...c.groups.flatMap((g) => [`${g} mean Gb/s`, `${g} Jain`, `${g} Var Gb/s²`]),
    "latency p50 ns",
    "latency p99 ns",
    "FCT p50 µs",
    "FCT p99 µs",
    "slowdown p99",
    "FECN",
    "BECN",
    "CE",
    "pauses",
    "drops",
  ];
  const rows = c.runs.map((r) => [
    r.label,
    num(r.windowGbps, 3),
    ...c.groups.flatMap((g) => {
      const f = r.groups[g];
      return [
        num(f?.meanGbps, 3),
        num(f?.jainIndex ?? undefined, 4),
        num(f?.treatmentVariation, 3),
      ];
    }),
    num(r.latencyP50Ns, 0),
    num(r.latencyP99Ns, 0),
    num(r.fctP50Us, 2),
    num(r.fctP99Us, 2),
    num(r.slowdownP99, 2),
    String(r.marks.fecn),
    String(r.marks.becn),
    String(r.marks.ecnCe),
    String(r.pauseFrames),
    String(r.dataDrops),
  ]);
  return { header, rows };
}

/** `compare.csv`: the rows with machine-friendly column names. */
/**
 * A warning naming the fields in which the runs' scenarios differ beyond their CC (empty
 * string when they do not): what else the table compares. At most `max` fields are listed.
 */
export function differencesWarning(c: Comparison, max = 12): string {
  const d = c.differences;
  if (d.length === 0) return "";
  const labels = c.runs.map((r) => r.label);
  const lines = d
    .slice(0, max)
    .map((x) => `  ${x.path}: ${x.values.map((v, i) => `${labels[i]} ${v}`).join(", ")}`);
  const more = d.length > max ? [`  … and ${d.length - max} more fields`] : [];
  return [
    `warning: these runs differ in more than their CC (${d.length} field${d.length === 1 ? "" : "s"} of scenario.resolved.json); the table compares those differences too:`,
    ...lines,
    ...more,
  ].join("\n");
}

export function comparisonCsv(c: Comparison): string {
  const { header, rows } = comparisonRows(c);
  const names = header.map((h) =>
    h
      .replaceAll("²", "2")
      .replaceAll("µ", "u")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")
      .toLowerCase(),
  );
  const cell = (s: string) =>
    s === "-" ? "" : /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  return `${[names.join(","), ...rows.map((r) => r.map(cell).join(","))].join("\n")}\n`;
}
