import { EXPORT_GLOBAL } from "../data/export-global.js";
import { querySeries, type SeriesQuery } from "../data/series-query.js";
import type { ExportData, Manifest, RunDetail, SeriesData } from "../data/types.js";

/** Where the app gets its data: the `cclab view` server, or a static export's `data.js`. */
export interface DataSource {
  readonly kind: "server" | "export";
  manifest(): Promise<Manifest>;
  run(id: string): Promise<RunDetail>;
  series(runId: string, set: string, query: SeriesQuery): Promise<SeriesData>;
}

export function dataSource(): DataSource {
  const exported = (globalThis as Record<string, unknown>)[EXPORT_GLOBAL] as ExportData | undefined;
  return exported === undefined ? serverSource() : exportSource(exported);
}

function serverSource(): DataSource {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${res.statusText}`);
    return (await res.json()) as T;
  };
  const runs = new Map<string, Promise<RunDetail>>();
  return {
    kind: "server",
    manifest: () => get<Manifest>("api/manifest"),
    run: (id) => {
      if (!runs.has(id)) runs.set(id, get<RunDetail>(`api/run/${encodeURIComponent(id)}`));
      return runs.get(id)!;
    },
    series: (runId, set, q) => {
      const params = new URLSearchParams();
      if (q.fromUs !== undefined) params.set("from", String(q.fromUs));
      if (q.toUs !== undefined) params.set("to", String(q.toUs));
      if (q.points !== undefined) params.set("points", String(q.points));
      if (q.lines !== undefined) params.set("lines", q.lines.join(","));
      return get<SeriesData>(
        `api/series/${encodeURIComponent(runId)}/${encodeURIComponent(set)}?${params}`,
      );
    },
  };
}

/** The export's data, downsampled here as the server would. */
function exportSource(data: ExportData): DataSource {
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the export holds no ${what}`);
    return v;
  };
  return {
    kind: "export",
    manifest: async () => data.manifest,
    run: async (id) => need(data.runs[id], `run ${id}`),
    series: async (runId, set, q) =>
      querySeries(need(data.series[runId]?.[set], `series ${set} of ${runId}`), q),
  };
}
