/**
 * `npm run reproduce [-- --quick] [-- --only <id>[,<id>...]] [-- --report]`: runs the
 * experiments of the seed papers from the shipped scenarios and writes `reproductions.md` at
 * the repository root. Each outcome is saved (`.bench/outcomes/<id>.json`), so the long Paper
 * IV runs can be redone alone and the report still lists every experiment, each with the day
 * it ran. `--report` runs nothing and rewrites the report from the saved outcomes.
 * `cclab reproduce` runs the same experiments into a result directory, with plots.
 */
import { fileURLToPath } from "node:url";
import { experimentIds, reproduce } from "./reproduce.js";

const OUT = fileURLToPath(new URL("../../../reproductions.md", import.meta.url));
const SAVED = fileURLToPath(new URL("../.bench/outcomes/", import.meta.url));

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
  if (only?.length === 0) {
    process.stderr.write(
      `--only needs experiment ids (comma-separated); known: ${experimentIds().join(", ")}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const reportOnly = argv.includes("--report");
  const command = reportOnly
    ? "npm run reproduce -- --report"
    : `npm run reproduce${quick ? " -- --quick" : ""}${only === undefined ? "" : ` -- --only ${only.join(",")}`}`;
  try {
    await reproduce({
      ...(only === undefined ? {} : { only }),
      quick,
      reportOnly,
      reportFile: OUT,
      savedDir: SAVED,
      command,
      log: (text) => process.stderr.write(text),
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`wrote ${OUT}\n`);
}

await main(process.argv.slice(2));
