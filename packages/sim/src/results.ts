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
 * Writes a finished run (DESIGN.md, "Results"): `scenario.resolved.json`, the CSV series,
 * `summary.txt`, `run.json` (wall-clock facts) and, last and atomically, `summary.json`.
 */
export function writeResults(dir: string, result: SimulationResult): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(name);
  };
  put("scenario.resolved.json", json(result.scenario));
  for (const [name, text] of result.files) put(name, text);
  put("summary.txt", textSummary(result.summary, result.run));
  put(
    "run.json",
    json({ status: "complete", ...result.run } satisfies RunInfo & { status: string }),
  );
  const tmp = join(dir, `.summary.json.${process.pid}.tmp`);
  writeFileSync(tmp, json(result.summary));
  renameSync(tmp, join(dir, "summary.json"));
  written.push("summary.json");
  return written;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, json(value));
}
