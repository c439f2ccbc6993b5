import { existsSync } from "node:fs";
import { join } from "node:path";
import { experimentIds, reproduce as runReproductions, SCENARIOS_DIR } from "@cclab/reproduce";
import { EXIT, type Io, UsageError } from "./errors.js";
import { checkOutDir } from "./out-dir.js";

/** `cclab reproduce <id ...> | --all [--quick] [--out DIR]`. */
export async function reproduce(
  positionals: readonly string[],
  values: { all?: boolean; quick?: boolean; out?: string },
  io: Io,
): Promise<number> {
  const ids = experimentIds();
  if (positionals.length === 0 && values.all !== true) {
    throw new UsageError(
      `cclab reproduce: name experiments or give --all; experiments: ${ids.join(", ")}`,
    );
  }
  if (positionals.length > 0 && values.all === true) {
    throw new UsageError("cclab reproduce: give experiment names or --all, not both");
  }
  const unknown = positionals.filter((p) => !ids.includes(p));
  if (unknown.length > 0) {
    throw new UsageError(
      `cclab reproduce: no experiment "${unknown.join(", ")}"; experiments: ${ids.join(", ")}`,
    );
  }
  if (!existsSync(SCENARIOS_DIR)) {
    throw new UsageError(
      `cclab reproduce: the shipped scenarios are not at ${SCENARIOS_DIR}; run it from a cclab checkout (git clone, npm ci, npm run build)`,
    );
  }
  const out = values.out ?? join("results", "reproduce");
  checkOutDir(out, "reproduce");
  const reportFile = join(out, "reproductions.md");
  const entries = await runReproductions({
    ...(values.all === true ? {} : { only: positionals }),
    quick: values.quick === true,
    reportFile,
    savedDir: join(out, "outcomes"),
    resultsDir: join(out, "runs"),
    command: `cclab reproduce ${values.all === true ? "--all" : positionals.join(" ")}${values.quick === true ? " --quick" : ""}`,
    log: (text) => io.stderr.write(text),
  });
  const findings = entries.flatMap((e) => e.outcome.findings);
  io.stdout.write(
    `${reportFile}: ${findings.filter((f) => f.holds).length} of ${findings.length} findings hold (${entries.length} experiments; runs and plots in ${join(out, "runs")}/)\n`,
  );
  return EXIT.ok;
}
