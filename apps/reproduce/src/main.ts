/**
 * `npm run reproduce [-- --quick] [-- --only <id>]`: runs the experiments of the seed papers
 * from the shipped scenarios and writes `reproductions.md` at the repository root.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Experiment } from "./experiment.js";
import { GRAN_THESIS } from "./gran-thesis.js";
import { type ReportEntry, reportMarkdown } from "./report.js";

const EXPERIMENTS: readonly Experiment[] = [...GRAN_THESIS];
const OUT = fileURLToPath(new URL("../../../reproductions.md", import.meta.url));

async function main(argv: string[]): Promise<void> {
  const quick = argv.includes("--quick");
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
  const chosen = EXPERIMENTS.filter((e) => only === undefined || e.id === only);
  if (chosen.length === 0) {
    process.stderr.write(
      `no experiment "${only}"; known: ${EXPERIMENTS.map((e) => e.id).join(", ")}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const entries: ReportEntry[] = [];
  for (const experiment of chosen) {
    process.stderr.write(`${experiment.id} …`);
    const start = performance.now();
    const outcome = await experiment.run({ scale: 1, quick });
    const wallSeconds = (performance.now() - start) / 1000;
    const held = outcome.findings.filter((f) => f.holds).length;
    process.stderr.write(
      ` ${held}/${outcome.findings.length} hold (${wallSeconds.toFixed(1)} s)\n`,
    );
    entries.push({ experiment, outcome, wallSeconds });
  }
  const command = `npm run reproduce${quick ? " -- --quick" : ""}${only === undefined ? "" : ` -- --only ${only}`}`;
  const markdown = reportMarkdown(entries, {
    command,
    date: new Date().toISOString().slice(0, 10),
    node: process.versions.node,
  });
  writeFileSync(OUT, markdown);
  process.stderr.write(`wrote ${OUT}\n`);
}

await main(process.argv.slice(2));
