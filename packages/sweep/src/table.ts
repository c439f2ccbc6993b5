import type { SweepPoint } from "./points.js";

/**
 * summary.json paths every sweep table has. Units are in the names, as in the summary:
 * Gb/s, µs, ns; counts otherwise.
 */
export const BASE_COLUMNS = [
  "totals.windowGbps",
  "totals.messages",
  "totals.completedMessages",
  "totals.dataDrops",
  "totals.pauseFrames",
  "totals.marks.fecn",
  "totals.marks.becn",
  "totals.marks.ecnCe",
  "fct.completionUs.p50",
  "fct.completionUs.p99",
  "fct.slowdown.p50",
  "fct.slowdown.p99",
  "latencyNs.total.p50",
  "latencyNs.total.p99",
  "eventsProcessed",
] as const;

/** Per traffic group: `groups.<name>.<field>`. */
export const GROUP_FIELDS = ["meanGbps", "minGbps", "maxGbps", "jainIndex"] as const;

/**
 * A value in a summary by dotted path. In a list, a key that is not an index picks the element
 * with that `name` (`groups.victim.meanGbps`). Undefined when the path leads nowhere.
 */
export function summaryValue(summary: unknown, path: string): unknown {
  let at: unknown = summary;
  for (const key of path.split(".")) {
    if (Array.isArray(at)) {
      at = /^\d+$/.test(key)
        ? at[Number(key)]
        : at.find((e) => (e as { name?: unknown } | null)?.name === key);
    } else if (typeof at === "object" && at !== null && Object.hasOwn(at, key)) {
      at = (at as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return at;
}

/** A point's row: its coordinates, status and summary figures. */
export interface PointRecord {
  readonly point: SweepPoint;
  readonly status: "complete" | "failed";
  readonly summary?: unknown;
  readonly error?: string;
}

/** The metric columns of a sweep: the base ones, each group's, then the sweep's own. */
export function metricColumns(records: readonly PointRecord[], extra: readonly string[]): string[] {
  const groups: string[] = [];
  for (const r of records) {
    const list = (r.summary as { groups?: { name: string }[] } | undefined)?.groups ?? [];
    for (const g of list) if (!groups.includes(g.name)) groups.push(g.name);
  }
  const columns = [
    ...BASE_COLUMNS,
    ...groups.flatMap((g) => GROUP_FIELDS.map((f) => `groups.${g}.${f}`)),
  ];
  for (const c of extra) if (!columns.includes(c)) columns.push(c);
  return columns;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The sweep table (`sweep.csv`): one row per point in sweep order, whatever order the points
 * finished in, so a sweep gives the same bytes on one worker, on all cores and through Redis.
 * Wall-clock figures are left out for the same reason (they are in each point's run.json).
 */
export function sweepCsv(
  axes: readonly string[],
  records: readonly PointRecord[],
  columns: readonly string[],
): string {
  const lines = [["point", ...axes, "seed", "status", ...columns, "error"].map(cell).join(",")];
  const sorted = [...records].sort((a, b) => a.point.index - b.point.index);
  for (const r of sorted) {
    lines.push(
      [
        r.point.id,
        ...axes.map((a) => r.point.values[a]),
        r.point.seed,
        r.status,
        ...columns.map((c) => (r.summary === undefined ? undefined : summaryValue(r.summary, c))),
        r.error,
      ]
        .map(cell)
        .join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}
