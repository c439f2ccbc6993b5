import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compareRuns,
  comparisonCsv,
  comparisonRows,
  differencesWarning,
  writeFigures,
} from "@cclab/plot";
import {
  recordFiles,
  removeIfEmpty,
  removeListedFiles,
  table,
  unfinishedRunMessage,
} from "@cclab/sim";
import { EXIT, type Io, UsageError } from "./errors.js";
import { checkOutDir } from "./out-dir.js";

/** Files a comparison writes (packages/plot/src/compare.ts names its figures). */
const COMPARE_FILE = /^(compare\.(csv|txt)|plots\/(throughput-.+|fct)\.(svg|png|vl\.json))$/;

/** `cclab compare <dir> <dir> ... [--out DIR]`. */
export async function compare(
  positionals: readonly string[],
  values: { out?: string },
  io: Io,
): Promise<number> {
  if (positionals.length < 2) {
    throw new UsageError(
      "cclab compare: give two or more result directories (see cclab compare --help)",
    );
  }
  for (const dir of positionals) {
    const unfinished = unfinishedRunMessage(dir);
    if (unfinished !== undefined) throw new UsageError(`cclab compare: ${unfinished}`);
  }
  const missing = positionals.find((d) => !existsSync(join(d, "summary.json")));
  if (missing !== undefined) {
    throw new UsageError(
      `cclab compare: ${missing} has no summary.json; give directories of finished cclab runs`,
    );
  }
  const comparison = compareRuns(positionals);
  const { header, rows } = comparisonRows(comparison);
  // One table per line is too wide beyond a few groups: runs as columns, figures as rows.
  const transposed = header.slice(1).map((h, i) => [h, ...rows.map((r) => r[i + 1]!)]);
  const text = `${table(["", ...rows.map((r) => r[0]!)], transposed).join("\n")}\n`;
  const out = values.out ?? join("results", "compare");
  checkOutDir(out, "compare");
  mkdirSync(out, { recursive: true });
  // Only what an earlier comparison listed in the folder's manifest is replaced; a user's own
  // files (in plots/ too) stay, and so do a run's, should --out name a run's folder.
  removeListedFiles(out, (f) => !COMPARE_FILE.test(f));
  recordFiles(out, [
    "compare.csv",
    "compare.txt",
    ...comparison.figures.flatMap((f) =>
      [".svg", ".png", ".vl.json"].map((ext) => `plots/${f.name}${ext}`),
    ),
  ]);
  writeFileSync(join(out, "compare.csv"), comparisonCsv(comparison));
  const warning = differencesWarning(comparison);
  if (warning !== "") io.stderr.write(`${warning}\n`);
  writeFileSync(
    join(out, "compare.txt"),
    `${warning === "" ? "" : `${warning}\n\n`}${text}\nruns:\n${comparison.runs.map((r) => `  ${r.label}: ${r.dir} (${r.scenario}, seed ${r.seed})`).join("\n")}\n`,
  );
  const plots = await writeFigures(join(out, "plots"), comparison.figures);
  removeIfEmpty(join(out, "plots"));
  io.stdout.write(text);
  io.stdout.write(
    `\nVar: Paper III's treatment variation, the variance over bins of the spread between a group's fastest and slowest flow while all are active (needs flow-throughput.csv).\n`,
  );
  io.stdout.write(`table: ${join(out, "compare.csv")}, ${join(out, "compare.txt")}\n`);
  const pngs = plots.filter((p) => p.endsWith(".png")).map((p) => p.slice(0, -4));
  if (pngs.length > 0) io.stdout.write(`plots: ${join(out, "plots")}/ (${pngs.join(", ")})\n`);
  return EXIT.ok;
}
