/**
 * `npm run reproduce [-- --quick] [-- --only <id>[,<id>...]] [-- --report]`: runs the
 * experiments of the seed papers from the shipped scenarios and writes `reproductions.md` at
 * the repository root. Each outcome is saved (`.bench/outcomes/<id>.json`), so the long Paper
 * IV runs can be redone alone and the report still lists every experiment, each with the day
 * it ran. `--report` runs nothing and rewrites the report from the saved outcomes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Experiment } from "./experiment.js";
import { GRAN_THESIS } from "./gran-thesis.js";
import { type ReportEntry, reportMarkdown } from "./report.js";

const EXPERIMENTS: readonly Experiment[] = [...GRAN_THESIS];
const OUT = fileURLToPath(new URL("../../../reproductions.md", import.meta.url));
const SAVED = fileURLToPath(new URL("../.bench/outcomes/", import.meta.url));

type Saved = Omit<ReportEntry, "experiment">;

function saved(id: string): Saved | undefined {
  const file = `${SAVED}${id}.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Saved) : undefined;
}

async function main(argv: string[]): Promise<void> {
  const quick = argv.includes("--quick");
  const onlyAt = argv.indexOf("--only");
  const only =
    onlyAt >= 0
      ? (argv[onlyAt + 1]?.startsWith("--") ? "" : (argv[onlyAt + 1] ?? ""))
          .split(",")
          .map((id) => id.trim())
          .filter((id) => id !== "")
      : undefined;
  const known = EXPERIMENTS.map((e) => e.id).join(", ");
  if (only?.length === 0) {
    process.stderr.write(`--only needs experiment ids (comma-separated); known: ${known}\n`);
    process.exitCode = 2;
    return;
  }
  const unknown = (only ?? []).filter((id) => !EXPERIMENTS.some((e) => e.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`no experiment "${unknown.join(", ")}"; known: ${known}\n`);
    process.exitCode = 2;
    return;
  }
  const reportOnly = argv.includes("--report");
  const chosen = reportOnly
    ? []
    : EXPERIMENTS.filter((e) => only === undefined || only.includes(e.id));
  const fresh = new Map<string, Saved>();
  mkdirSync(SAVED, { recursive: true });
  for (const experiment of chosen) {
    process.stderr.write(`${experiment.id} …`);
    const start = performance.now();
    const outcome = await experiment.run({ scale: 1, quick });
    const wallSeconds = (performance.now() - start) / 1000;
    const held = outcome.findings.filter((f) => f.holds).length;
    process.stderr.write(
      ` ${held}/${outcome.findings.length} hold (${wallSeconds.toFixed(1)} s)\n`,
    );
    const entry: Saved = {
      outcome,
      wallSeconds,
      date: new Date().toISOString().slice(0, 10),
      quick,
    };
    writeFileSync(`${SAVED}${experiment.id}.json`, `${JSON.stringify(entry, null, 1)}\n`);
    fresh.set(experiment.id, entry);
  }
  const entries: ReportEntry[] = [];
  for (const experiment of EXPERIMENTS) {
    const entry = fresh.get(experiment.id) ?? saved(experiment.id);
    if (entry !== undefined) entries.push({ experiment, ...entry });
  }
  const command = reportOnly
    ? "npm run reproduce -- --report"
    : `npm run reproduce${quick ? " -- --quick" : ""}${only === undefined ? "" : ` -- --only ${only.join(",")}`}`;
  const markdown = reportMarkdown(entries, { command, node: process.versions.node });
  writeFileSync(OUT, markdown);
  process.stderr.write(`wrote ${OUT}\n`);
}

await main(process.argv.slice(2));
