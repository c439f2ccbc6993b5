/**
 * `npm run reproduce [-- --quick] [-- --only <id>[,<id>...]] [-- --report]`: runs the
 * experiments of the seed papers from the shipped scenarios and writes `reproductions.md` at
 * the repository root. Each outcome is saved, with the command, commit and day that produced it,
 * in `apps/reproduce/outcomes/<id>.json`, which is committed: the long Paper IV runs can be
 * redone alone, the report still lists every experiment, and it is a function of those files
 * alone (test/report-committed.test.ts checks the committed report against them). `--report`
 * runs nothing and rewrites the report from the saved outcomes.
 * `cclab reproduce` runs the same experiments into a result directory, with plots.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { OUTCOMES_DIR, REPORT_FILE } from "./report-files.js";
import { experimentIds, reproduce } from "./reproduce.js";

const OUT = REPORT_FILE;
const SAVED = OUTCOMES_DIR;
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** The checkout's commit, `+changes` when its working tree differs from it; null without git. */
function currentCommit(): string | null {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: REPO,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
    const head = git("rev-parse", "--short", "HEAD").trim();
    return git("status", "--porcelain").trim() === "" ? head : `${head}+changes`;
  } catch {
    return null;
  }
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
      commit: reportOnly ? null : currentCommit(),
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
