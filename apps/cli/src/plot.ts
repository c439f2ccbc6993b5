import { existsSync } from "node:fs";
import { join } from "node:path";
import { plotRun, RUN_FIGURES, type RunFigureName } from "@cclab/plot";
import { EXIT, type Io, UsageError } from "./errors.js";

/** `cclab plot <result-dir> [--series name ...]`: redraws a finished run's figures. */
export async function plot(
  positionals: readonly string[],
  values: { series?: string[] },
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError("cclab plot: give exactly one result directory (see cclab plot --help)");
  }
  const dir = positionals[0]!;
  if (!existsSync(join(dir, "summary.json"))) {
    throw new UsageError(
      `cclab plot: ${dir} has no summary.json; give the directory of a finished cclab run`,
    );
  }
  const series = values.series ?? [];
  const unknown = series.find((s) => !(RUN_FIGURES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    throw new UsageError(
      `cclab plot: unknown series "${unknown}"; series: ${RUN_FIGURES.join(", ")}`,
    );
  }
  const written = await plotRun(
    dir,
    series.length === 0 ? {} : { only: series as RunFigureName[] },
  );
  if (written.length === 0) {
    io.stderr.write(
      `cclab plot: ${dir} recorded none of the series asked for (metrics.series in its scenario.resolved.json says which it has)\n`,
    );
    return EXIT.badInput;
  }
  for (const file of written) io.stdout.write(`${join(dir, file)}\n`);
  return EXIT.ok;
}
