import { fileURLToPath } from "node:url";
import { readScenarioFile, type SimulationResult, simulate } from "../src/index.js";

/** The repository's `scenarios/` directory. */
export const SCENARIOS = fileURLToPath(new URL("../../../scenarios/", import.meta.url));

/** Runs a shipped scenario with `--set`-style overrides (e.g. a shorter duration). */
export async function runShipped(
  file: string,
  set: readonly string[] = [],
): Promise<SimulationResult> {
  const { document, baseDir } = readScenarioFile(`${SCENARIOS}${file}`, { set });
  return simulate(document, { baseDir });
}

/** Rows of a CSV file of a result, as objects keyed by the header. */
export function csvRows(result: SimulationResult, name: string): Record<string, string>[] {
  const text = result.files.get(name);
  if (text === undefined) throw new Error(`no ${name} in the result`);
  const [header, ...lines] = text.trimEnd().split("\n");
  const keys = header!.split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(keys.map((k, i) => [k, cells[i]!]));
  });
}

/** Mean Gb/s of one flow (by `src→dst` host names) over the bins starting in [fromUs, toUs). */
export function meanGbps(
  result: SimulationResult,
  src: string,
  dst: string,
  fromUs: number,
  toUs: number,
): number {
  const rows = csvRows(result, "flow-throughput.csv").filter(
    (r) => r.src === src && r.dst === dst && +r.bin_start_us! >= fromUs && +r.bin_start_us! < toUs,
  );
  if (rows.length === 0) return 0;
  return rows.reduce((s, r) => s + +r.gbps!, 0) / rows.length;
}

/**
 * A small random-traffic scenario (a 2-level fat tree, uniform messages of 1–20 kB for 20 µs)
 * for tests that compare runs of one seed and load.
 */
export const smallUniformScenario = (
  seed: number,
  loadFraction: number,
  name = "small-uniform",
) => ({
  name,
  seed,
  topology: { kind: "two-level-fat-tree", leaves: 3, spines: 2, hostsPerLeaf: 3, routing: "ecmp" },
  switch: { queueing: "1q" },
  traffic: [
    {
      pattern: "uniform",
      loadFraction,
      size: { kind: "uniform", minBytes: 1000, maxBytes: 20_000 },
      stopNs: 20_000,
    },
  ],
  run: { durationUs: 40, warmupUs: 5 },
  metrics: { binUs: 2 },
});
