import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  formatIssues,
  markRunFailed,
  prepare,
  prepareResultDir,
  RunFailure,
  RunInterrupted,
  readScenarioFile,
  resolveScenario,
  ScenarioError,
  simulate,
  writeResults,
} from "@cclab/sim";
import { LIST_SECTIONS, type ListSection, listText } from "./list.js";
import { progressLine } from "./progress.js";

/** Exit codes: documented in `cclab --help` and the README. */
export const EXIT = { ok: 0, runFailed: 1, badInput: 2, interrupted: 130 } as const;

export interface Io {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
}

const HELP = `cclab: simulate lossless fabrics (InfiniBand credits, Ethernet PFC) and their congestion control

Usage:
  cclab run <scenario.yaml> [--out DIR] [--seed N] [--set path=value ...] [--quiet]
  cclab validate <scenario.yaml> [--seed N] [--set path=value ...]
  cclab list [topologies|traffic|plugins]
  cclab --help | <command> --help
  cclab --version

Exit codes: 0 ok, 1 the run failed (an invariant broke; the message says which),
2 bad input (the scenario's errors are listed, one per line), 130 interrupted.
`;

const COMMAND_HELP: Record<string, string> = {
  run: `cclab run <scenario> [options]

Validates the scenario, runs it and writes the result directory: scenario.resolved.json,
summary.json (schema: @cclab/sim schema/summary.schema.json), summary.txt, run.json
(wall-clock facts) and CSV series. summary.json is written last; an interrupted or failed
run leaves none.

Options:
  --out DIR          result directory (default: results/<scenario name>)
  --seed N           override the scenario's seed
  --set path=value   override a field, e.g. --set run.durationUs=500 --set traffic[0].loadFraction=0.8
                     (repeatable; the value is read as YAML)
  --quiet            no progress line (also off when stderr is not a terminal)
`,
  validate: `cclab validate <scenario> [--seed N] [--set path=value ...]

Checks the scenario (schema, topology, traffic, plugins, buffers, PFC headroom, routing)
without running it. Prints every problem with the path of its field and exits 2, or prints
"ok" and exits 0.
`,
  list: `cclab list [topologies|traffic|plugins]

Lists what a scenario can name, with every parameter's type, default and meaning (units are
in the parameter names: rateGbps, latencyNs, bytes, …).
`,
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** Runs the `cclab` command line; returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(HELP);
    return command === undefined ? EXIT.badInput : EXIT.ok;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMAND_HELP, command)) {
    io.stderr.write(
      `cclab: unknown command "${command}"; commands: run, validate, list (see cclab --help)\n`,
    );
    return EXIT.badInput;
  }
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: [...rest], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr.write(`cclab ${command}: ${(error as Error).message}\n`);
    return EXIT.badInput;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(COMMAND_HELP[command]!);
    return EXIT.ok;
  }
  try {
    if (command === "list") return list(positionals, io);
    return await runOrValidate(command as "run" | "validate", positionals, values, io);
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.stderr.write(
        `cclab ${command}: the scenario is not valid:\n${indent(formatIssues(error.issues))}\n`,
      );
      return EXIT.badInput;
    }
    if (error instanceof RunFailure) {
      io.stderr.write(`cclab ${command}: run failed: ${error.message}\n`);
      return EXIT.runFailed;
    }
    if (error instanceof RunInterrupted) {
      io.stderr.write(`cclab ${command}: ${error.message}; no summary written\n`);
      return EXIT.interrupted;
    }
    // Anything else is a bug in cclab, not in the scenario: show the stack for the report.
    io.stderr.write(
      `cclab ${command}: internal error (please report): ${(error as Error).stack ?? String(error)}\n`,
    );
    return EXIT.runFailed;
  }
}

const OPTIONS = {
  out: { type: "string" },
  seed: { type: "string" },
  set: { type: "string", multiple: true },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

function list(positionals: readonly string[], io: Io): number {
  const unknown = positionals.filter((p) => !(LIST_SECTIONS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    io.stderr.write(
      `cclab list: unknown section "${unknown[0]}"; sections: ${LIST_SECTIONS.join(", ")}\n`,
    );
    return EXIT.badInput;
  }
  io.stdout.write(
    listText(positionals.length === 0 ? LIST_SECTIONS : (positionals as ListSection[])),
  );
  return EXIT.ok;
}

async function runOrValidate(
  command: "run" | "validate",
  positionals: readonly string[],
  values: { out?: string; seed?: string; set?: string[]; quiet?: boolean },
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    io.stderr.write(
      `cclab ${command}: give exactly one scenario file (see cclab ${command} --help)\n`,
    );
    return EXIT.badInput;
  }
  const file = positionals[0]!;
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
      io.stderr.write(
        `cclab ${command}: --seed must be a whole number in 0..4294967295, got "${values.seed}"\n`,
      );
      return EXIT.badInput;
    }
  }
  const { document, baseDir } = readScenarioFile(file, {
    ...(seed === undefined ? {} : { seed }),
    set: values.set ?? [],
  });
  const resolved = await resolveScenario(document);
  if (command === "validate") {
    prepare(resolved); // builds the network: buffer, headroom and routing checks
    io.stdout.write(`ok: ${file} (${resolved.scenario.name})\n`);
    return EXIT.ok;
  }
  const out = values.out ?? join("results", resolved.scenario.name);
  let started = false;
  const showProgress = values.quiet !== true && io.stderr.isTTY === true;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    const result = await simulate(resolved, {
      baseDir,
      signal: controller.signal,
      onStart: (scenario) => {
        prepareResultDir(out, scenario);
        started = true;
      },
      ...(showProgress
        ? { onProgress: (p) => io.stderr.write(`\r\x1b[2K${progressLine(p)}`) }
        : {}),
    });
    if (showProgress) io.stderr.write("\n");
    const written = writeResults(out, result);
    io.stdout.write(readFileSync(join(out, "summary.txt"), "utf8"));
    io.stdout.write(`\nresults: ${out}/ (${written.join(", ")})\n`);
    return EXIT.ok;
  } catch (error) {
    if (showProgress) io.stderr.write("\n");
    if (started) {
      if (error instanceof RunInterrupted) markRunFailed(out, "interrupted", error.message);
      else markRunFailed(out, "failed", (error as Error).message);
    }
    throw error;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
