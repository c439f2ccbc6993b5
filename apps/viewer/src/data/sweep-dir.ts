import { parseCsv } from "./csv.js";
import { type PortRates, RunDir, readJson } from "./run-dir.js";
import type { SafeDir } from "./safe-path.js";
import type { AxisValue, SweepEntry, SweepPoint } from "./types.js";

interface ResolvedSweep {
  readonly name?: string;
  readonly axes?: Readonly<Record<string, readonly AxisValue[]>>;
  readonly plot?: { readonly metrics?: readonly string[] };
  readonly points?: readonly {
    readonly id: string;
    readonly values: Readonly<Record<string, AxisValue>>;
    readonly seed: number;
  }[];
}

/**
 * A sweep's folder (`cclab sweep`): the axes and points of `sweep.resolved.json`, each point's
 * figures from `sweep.csv`, and a run for each point whose folder holds a `summary.json`
 * (series too when the sweep kept them, `keepSeries: true`).
 */
export function readSweep(
  dir: SafeDir,
  id: string,
  label: string,
  path: string,
  portRates?: PortRates,
): { entry: SweepEntry; runs: RunDir[] } {
  const resolved = readJson<ResolvedSweep>(dir, "sweep.resolved.json") ?? {};
  const axes = Object.entries(resolved.axes ?? {}).map(([p, values]) => ({ path: p, values }));
  const table = parseCsv(dir.readText("sweep.csv") ?? "");
  const statusAt = table.columns.indexOf("status");
  const errorAt = table.columns.indexOf("error");
  const metricColumns = table.columns
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => statusAt >= 0 && i > statusAt && i !== errorAt);
  const rowsByPoint = new Map([...table.rows()].map((r) => [r[0]!, r]));
  const runs: RunDir[] = [];
  const points: SweepPoint[] = (resolved.points ?? []).map((p, index) => {
    const row = rowsByPoint.get(p.id);
    const pointDir = dir.sub(`points/${p.id}`);
    const pointJson =
      pointDir === undefined ? undefined : readJson<{ status?: string }>(pointDir, "point.json");
    let runId: string | undefined;
    if (pointDir?.resolveFile("summary.json") !== undefined) {
      runId = `${id}.${index}`;
      runs.push(
        new RunDir(
          pointDir,
          { id: runId, label: `${label}/${p.id}`, path: `${path}/points/${p.id}`, sweep: id },
          portRates,
        ),
      );
    }
    const metrics: Record<string, number | null> = {};
    for (const { c, i } of metricColumns) {
      const cell = row?.[i];
      metrics[c] =
        cell === undefined || cell === "" || !Number.isFinite(Number(cell)) ? null : Number(cell);
    }
    const error = errorAt >= 0 ? row?.[errorAt] : undefined;
    return {
      id: p.id,
      ...(runId === undefined ? {} : { runId }),
      values: p.values,
      seed: p.seed,
      status: (statusAt >= 0 ? row?.[statusAt] : undefined) ?? pointJson?.status ?? "unknown",
      metrics,
      ...(error === undefined || error === "" ? {} : { error }),
    };
  });
  const metrics = metricColumns
    .map(({ c }) => c)
    .filter((c) => points.some((p) => p.metrics[c] !== null));
  const defaultPlot = [
    ...metrics.filter((m) => /^groups\..+\.meanGbps$/.test(m)),
    ...metrics.filter((m) => m === "totals.windowGbps"),
  ];
  return {
    entry: {
      id,
      label,
      path,
      name: resolved.name ?? label,
      axes,
      metrics,
      plot: (resolved.plot?.metrics ?? defaultPlot).filter((m) => metrics.includes(m)),
      points,
    },
    runs,
  };
}
