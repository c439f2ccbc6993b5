import { readFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { plotRun } from "@cclab/plot";
import {
  estimateMemory,
  formatBytes,
  kindProfileTable,
  markRunFailed,
  PROFILE_SAMPLE_EVERY,
  prepare,
  prepareResultDir,
  RunInterrupted,
  readScenarioFile,
  resolveScenario,
  ScenarioError,
  simulate,
  TraceOptionsError,
  writeResults,
} from "@cclab/sim";
import { EXIT, type Io, UsageError } from "./errors.js";
import { checkOutDir } from "./out-dir.js";
import { progressLine } from "./progress.js";
import { queueSeriesNote } from "./queue-series-note.js";
import { type TraceValues, traceNote, traceOptionsOf, traceUsageError } from "./trace-options.js";

export interface RunValues extends TraceValues {
  out?: string;
  seed?: string;
  set?: string[];
  quiet?: boolean;
  "no-plots"?: boolean;
  profile?: boolean;
  "progress-seconds"?: string;
  force?: boolean;
}

/** Signals that interrupt `cclab run`, leaving `run.json` saying "interrupted" (exit 130). */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Seconds between plain progress lines when stderr is not a terminal (batch logs). */
export const DEFAULT_PROGRESS_SECONDS = 5;

function parseProgressSeconds(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PROGRESS_SECONDS;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `cclab run: --progress-seconds must be a number of seconds above 0, got "${text}"`,
    );
  }
  return seconds;
}

export function parseSeed(text: string | undefined, command: string): number | undefined {
  if (text === undefined) return undefined;
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
    throw new UsageError(
      `cclab ${command}: --seed must be a whole number in 0..4294967295, got "${text}"`,
    );
  }
  return seed;
}

/**
 * Refuses a run whose estimated memory (estimateMemory, packages/sim/README.md) exceeds the
 * machine's, before anything is written; `--force` runs it anyway.
 */
function refuseTooLarge(resolved: Parameters<typeof estimateMemory>[0]): void {
  const estimate = estimateMemory(resolved);
  const total = totalmem();
  if (estimate.bytes <= total) return;
  const parts = estimate.parts
    .filter((p) => p.bytes > 0)
    .map((p) => `${p.name} ${formatBytes(p.bytes)}`)
    .join(", ");
  throw new ScenarioError([
    {
      path: "",
      message: `the run would need about ${formatBytes(estimate.bytes)} of memory (${parts}${estimate.bins === null ? "" : `; ${estimate.bins} bins`}), more than this machine's ${formatBytes(total)} (os.totalmem()); shrink the largest part (metrics.binUs, metrics.maxFlowSeries, metrics.series, metrics.maxMessageRecords, metrics.flowTable, buffers) or run with --force`,
    },
  ]);
}

/** `cclab run` and `cclab validate`. */
export async function runOrValidate(
  command: "run" | "validate",
  positionals: readonly string[],
  values: RunValues,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(
      `cclab ${command}: give exactly one scenario file (see cclab ${command} --help)`,
    );
  }
  const file = positionals[0]!;
  const seed = parseSeed(values.seed, command);
  const { document, baseDir } = readScenarioFile(file, {
    ...(seed === undefined ? {} : { seed }),
    set: values.set ?? [],
  });
  const resolved = await resolveScenario(document, { baseDir });
  if (command === "validate") {
    prepare(resolved); // builds the network: buffer, headroom and routing checks
    io.stdout.write(`ok: ${file} (${resolved.scenario.name})\n`);
    return EXIT.ok;
  }
  if (values.force !== true) refuseTooLarge(resolved);
  const trace = traceOptionsOf(values, resolved.topology.fabric);
  const out = values.out ?? join("results", resolved.scenario.name);
  checkOutDir(out, command);
  let started = false;
  const progressSeconds = parseProgressSeconds(values["progress-seconds"]);
  // A terminal gets one line redrawn in place; a log (stderr not a terminal) a plain line
  // every few seconds, which `tail -f` and batch systems show as they come.
  const showProgress = values.quiet !== true && io.stderr.isTTY === true;
  const logProgress = values.quiet !== true && io.stderr.isTTY !== true;
  // Ctrl-C, `kill` (SIGTERM, as batch systems and containers stop a job) and a closed
  // terminal (SIGHUP) all stop the run between two slices, so run.json says "interrupted";
  // only SIGKILL cannot be caught (commands reading the folder then report the run killed).
  const controller = new AbortController();
  let caught: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    caught ??= signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    const result = await simulate(resolved, {
      baseDir,
      signal: controller.signal,
      profileKinds: values.profile === true,
      ...(trace === undefined ? {} : { trace }),
      onStart: (scenario) => {
        prepareResultDir(out, scenario);
        started = true;
      },
      ...(showProgress
        ? { onProgress: (p) => io.stderr.write(`\r\x1b[2K${progressLine(p)}`) }
        : {}),
      ...(logProgress
        ? {
            onProgress: (p) => io.stderr.write(`cclab run: ${progressLine(p)}\n`),
            progressIntervalMs: progressSeconds * 1000,
          }
        : {}),
    });
    if (showProgress) io.stderr.write("\n");
    const written = writeResults(out, result);
    // Plots are drawn from the saved files, exactly as `cclab plot` redraws them.
    const plots = values["no-plots"] === true ? [] : await plotRun(out);
    io.stdout.write(readFileSync(join(out, "summary.txt"), "utf8"));
    const profile = result.run.kindProfile;
    if (profile !== undefined) {
      const lines = kindProfileTable(profile);
      io.stdout.write(
        `\ntime in event handlers by kind (one event in ${PROFILE_SAMPLE_EVERY} of each kind timed):\n${lines.join("\n")}\n`,
      );
    }
    io.stdout.write(`\nresults: ${out}/ (${written.join(", ")})\n`);
    if (plots.length > 0) {
      const figures = plots.filter((p) => p.endsWith(".png")).map((p) => p.slice(6, -4));
      io.stdout.write(`plots: ${out}/plots/ (${figures.join(", ")}; SVG, PNG, Vega-Lite JSON)\n`);
    }
    const capped = queueSeriesNote(result.run.queueSeries);
    if (capped !== undefined) io.stderr.write(capped);
    // Last, so a trace the bound cut is the final word of the run.
    const note = traceNote(result.run.trace);
    if (note !== undefined) io.stderr.write(note);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof TraceOptionsError) throw traceUsageError(error);
    if (showProgress) io.stderr.write("\n");
    if (started) {
      if (error instanceof RunInterrupted) {
        markRunFailed(out, "interrupted", `${error.message}${caught ? ` (${caught})` : ""}`);
      } else markRunFailed(out, "failed", (error as Error).message);
    }
    throw error;
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
}
