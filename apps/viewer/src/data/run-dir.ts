import { parseCsv } from "./csv.js";
import type { SafeDir } from "./safe-path.js";
import { readSeriesSets, type SeriesSet, type ValueLabels } from "./series.js";
import { type SummaryJson, summaryFacts, summaryTables } from "./summary-tables.js";
import type { PortRow, RunDetail, RunEntry } from "./types.js";

/** Link rates by port name (`S1.p3` → 32), when the caller can build the run's port map. */
export type PortRates = (dir: string) => Promise<ReadonlyMap<string, number> | undefined>;

/** A finished run's folder: its entry now, its detail and series when first asked for. */
export class RunDir {
  readonly entry: RunEntry;
  private loaded: Promise<{ detail: RunDetail; sets: Map<string, SeriesSet> }> | undefined;

  constructor(
    readonly dir: SafeDir,
    entry: Omit<RunEntry, "scenario" | "seed" | "status" | "simulatedUs">,
    private readonly portRates?: PortRates,
  ) {
    const summary = readJson<SummaryJson>(dir, "summary.json") ?? {};
    this.entry = {
      ...entry,
      scenario: summary.scenario ?? "?",
      seed: summary.seed ?? 0,
      status: summary.status ?? "?",
      simulatedUs: summary.simulatedUs ?? 0,
    };
  }

  async detail(): Promise<RunDetail> {
    return (await this.load()).detail;
  }

  async set(name: string): Promise<SeriesSet | undefined> {
    return (await this.load()).sets.get(name);
  }

  async sets(): Promise<SeriesSet[]> {
    return [...(await this.load()).sets.values()];
  }

  private load() {
    this.loaded ??= this.read();
    return this.loaded;
  }

  private async read() {
    const summary = readJson<SummaryJson>(this.dir, "summary.json") ?? {};
    const run = readJson<{ queueSeries?: { valueLabels?: ValueLabels } }>(this.dir, "run.json");
    const sets = readSeriesSets((f) => this.dir.readText(f), run?.queueSeries?.valueLabels ?? {});
    const rates = await this.portRates?.(this.dir.root).catch(() => undefined);
    const detail: RunDetail = {
      entry: this.entry,
      facts: summaryFacts(summary),
      tables: summaryTables(summary),
      summaryText: this.dir.readText("summary.txt") ?? "",
      series: sets.map((s) => s.info),
      ports: readPorts(this.dir.readText("ports.csv"), rates),
    };
    return { detail, sets: new Map(sets.map((s) => [s.info.name, s])) };
  }
}

export function readJson<T>(dir: SafeDir, name: string): T | undefined {
  const text = dir.readText(name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** `ports.csv` as rows (an older run without port names gives none). */
export function readPorts(
  text: string | undefined,
  rates?: ReadonlyMap<string, number>,
): PortRow[] {
  if (text === undefined) return [];
  const t = parseCsv(text);
  const col = (name: string) => t.columns.indexOf(name);
  const c = {
    device: col("device"),
    port: col("port"),
    name: col("port_name"),
    peer: col("peer"),
    vl: col("vl"),
    bytes: col("bytes_forwarded"),
    mean: col("mean_input_bytes"),
    max: col("max_input_bytes"),
    blocked: col("blocked_us"),
  };
  if (c.name < 0 || c.peer < 0) return [];
  const num = (row: readonly string[], i: number) => (i < 0 ? 0 : Number(row[i]) || 0);
  return [...t.rows()].map((row) => {
    const name = row[c.name]!;
    const rate = rates?.get(name);
    return {
      device: row[c.device] ?? name.split(".")[0]!,
      port: num(row, c.port),
      name,
      peer: row[c.peer]!,
      vl: num(row, c.vl),
      bytesForwarded: num(row, c.bytes),
      meanInputBytes: num(row, c.mean),
      maxInputBytes: num(row, c.max),
      blockedUs: num(row, c.blocked),
      ...(rate === undefined ? {} : { rateGbps: rate }),
    };
  });
}
