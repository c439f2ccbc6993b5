import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedScenario } from "./scenario/resolve.js";
import type { RunInfo, SimulationResult } from "./simulate.js";
import { textSummary } from "./text-summary.js";

/**
 * Readies a result directory before a run: creates it and removes a `summary.json` left by an
 * earlier run, so a run that is interrupted never leaves a summary that looks complete.
 * `run.json` says `running` until the run ends.
 */
export function prepareResultDir(dir: string, scenario: ResolvedScenario): void {
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, "summary.json"), { force: true });
  writeJson(join(dir, "scenario.resolved.json"), scenario);
  writeJson(join(dir, "run.json"), { status: "running", pid: process.pid });
}

/** Records in `run.json` why a run ended without results. */
export function markRunFailed(dir: string, status: "failed" | "interrupted", reason: string): void {
  writeJson(join(dir, "run.json"), { status, reason });
}

/**
 * The files of a finished run, in the order they are written, `summary.json` last
 * (packages/sim/README.md, "Results"): `scenario.resolved.json`, the CSV series,
 * `summary.txt`, `run.json` (wall-clock facts) and `summary.json`. Sweep workers send these to the coordinator.
 */
export function resultFiles(result: SimulationResult): [name: string, text: string][] {
  return [
    ["scenario.resolved.json", json(result.scenario)],
    ...result.files,
    ["summary.txt", textSummary(result.summary, result.run)],
    [
      "run.json",
      json({ status: "complete", ...result.run } satisfies RunInfo & { status: string }),
    ],
    ["summary.json", json(result.summary)],
  ];
}

/**
 * Writes a run's files ({@link resultFiles}) into `dir`; `summary.json` last and atomically,
 * so a directory with a summary is always complete. Returns the names written.
 */
export function writeResultFiles(
  dir: string,
  files: readonly (readonly [string, string])[],
): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of files) {
    if (name === "summary.json") continue;
    writeFileSync(join(dir, name), text);
    written.push(name);
  }
  const summary = files.find(([name]) => name === "summary.json");
  if (summary !== undefined) {
    const tmp = join(dir, `.summary.json.${process.pid}.tmp`);
    writeFileSync(tmp, summary[1]);
    renameSync(tmp, join(dir, "summary.json"));
    written.push("summary.json");
  }
  return written;
}

/** Writes a finished run into `dir` (see {@link resultFiles}); returns the names written. */
export function writeResults(dir: string, result: SimulationResult): string[] {
  return writeResultFiles(dir, resultFiles(result));
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, json(value));
}
