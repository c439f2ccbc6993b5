import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { TRACE_FILE } from "./packet-trace.js";
import type { ResolvedScenario } from "./scenario/resolve.js";
import { SERIES_FILES } from "./series.js";
import type { RunInfo, SimulationResult } from "./simulate.js";
import { textSummary } from "./text-summary.js";

/**
 * The file in a result directory that lists, relative to it, every file cclab wrote there
 * (`plots/…` included). A rerun removes exactly these and nothing else, so a user's own files
 * in the folder survive (packages/sim/README.md, "Results"). cclab writes in place rather
 * than into a temporary folder moved over `--out` at the end: a move would replace the whole
 * folder, user files included.
 */
export const MANIFEST = "cclab-manifest.json";

/**
 * The names of every file a run's result ({@link resultFiles}) may hold: what a sweep's
 * coordinator accepts from a worker, so a result cannot name a path elsewhere.
 */
export const RESULT_FILES: readonly string[] = [
  "scenario.resolved.json",
  ...SERIES_FILES,
  TRACE_FILE,
  "summary.txt",
  "run.json",
  "summary.json",
];

/**
 * Whether a manifest may list `name`: a file name, or one in `plots/`; never a path that
 * leads elsewhere (an edited or foreign manifest cannot make a rerun delete outside the folder).
 */
function listable(name: unknown): name is string {
  if (typeof name !== "string") return false;
  const base = name.startsWith("plots/") ? name.slice("plots/".length) : name;
  return base !== "" && base !== "." && base !== ".." && !/[/\\:\0]/.test(base);
}

/** The files `dir`'s manifest lists (none without one, or for a manifest that is not cclab's). */
export function listedFiles(dir: string): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8"));
  } catch {
    return [];
  }
  const files = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return [];
  return files.filter(listable);
}

/**
 * Lists `names` in `dir`'s manifest, beside those it lists already (or instead of them, with
 * `replace`). Called before the files are written, so a run killed while writing still lists
 * every file it may have left.
 */
export function recordFiles(
  dir: string,
  names: readonly string[],
  options: { replace?: boolean } = {},
): void {
  // A name that is not listable (a figure named by a group with a ":") is not cleaned up later.
  const listed = names.filter(listable);
  const files = [...new Set([...(options.replace === true ? [] : listedFiles(dir)), ...listed])];
  const tmp = join(dir, `.${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(tmp, json({ cclab: "result files", files }));
  renameSync(tmp, join(dir, MANIFEST));
}

/**
 * Removes the files `dir`'s manifest lists, but those `keep` accepts, and `plots/` if that
 * leaves it empty; touches nothing else. The manifest then lists the files kept.
 */
export function removeListedFiles(
  dir: string,
  keep: (name: string) => boolean = () => false,
): void {
  const listed = listedFiles(dir);
  const kept = listed.filter(keep);
  if (kept.length === listed.length) return;
  for (const name of listed) if (!keep(name)) rmSync(join(dir, name), { force: true });
  recordFiles(dir, kept, { replace: true });
  removeIfEmpty(join(dir, "plots"));
}

/** Removes a directory only if it is empty (and exists). */
export function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Missing, or not a directory: nothing of ours to remove.
  }
}

/**
 * Readies a result directory before a run: creates it, removes a `summary.json` left by an
 * earlier run first (so a run that is interrupted never leaves a summary that looks complete),
 * then every other file the earlier run listed in its manifest ({@link MANIFEST}), so no
 * series, summary or plot of it is mistaken for this run's. Files it did not list stay.
 * `run.json` says `running`, with this process's id and host, until the run ends.
 */
export function prepareResultDir(dir: string, scenario: ResolvedScenario): void {
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, "summary.json"), { force: true });
  removeListedFiles(dir);
  recordFiles(dir, ["scenario.resolved.json", "run.json"], { replace: true });
  writeJson(join(dir, "scenario.resolved.json"), scenario);
  writeJson(join(dir, "run.json"), {
    status: "running",
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
  });
}

/** Records in `run.json` why a run ended without results. */
export function markRunFailed(dir: string, status: "failed" | "interrupted", reason: string): void {
  writeJson(join(dir, "run.json"), { status, reason });
}

/**
 * What `run.json` says of a result directory's run. `killed`: it says `running`, but its
 * process (on this host) is gone: SIGKILL, a crash of the machine or of Node, out of memory.
 * `none`: no readable `run.json` (not a cclab run, or one older than it).
 */
export const RUN_STATES = [
  "running",
  "killed",
  "complete",
  "failed",
  "interrupted",
  "none",
] as const;

export interface RunState {
  readonly status: (typeof RUN_STATES)[number];
  readonly pid?: number;
  readonly host?: string;
  readonly reason?: string;
}

export function readRunState(dir: string): RunState {
  let run: { status?: unknown; pid?: unknown; host?: unknown; reason?: unknown };
  try {
    run = JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as typeof run;
  } catch {
    return { status: "none" };
  }
  const pid = typeof run.pid === "number" ? run.pid : undefined;
  const host = typeof run.host === "string" ? run.host : undefined;
  const reason = typeof run.reason === "string" ? run.reason : undefined;
  const extra = {
    ...(pid === undefined ? {} : { pid }),
    ...(host === undefined ? {} : { host }),
    ...(reason === undefined ? {} : { reason }),
  };
  switch (run.status) {
    case "running":
      // Another host's process cannot be looked up from here: take it at its word.
      if (pid !== undefined && (host === undefined || host === hostname()) && !processAlive(pid)) {
        return { status: "killed", ...extra };
      }
      return { status: "running", ...extra };
    case "complete":
    case "failed":
    case "interrupted":
      return { status: run.status, ...extra };
    default:
      return { status: "none" };
  }
}

/**
 * Why a result directory holds no finished run, from its `run.json` (undefined when it does
 * not say so: complete, or no `run.json`). For commands that read results (`cclab plot`,
 * `cclab compare`), which otherwise take a killed run for one still running.
 */
export function unfinishedRunMessage(dir: string): string | undefined {
  const state = readRunState(dir);
  switch (state.status) {
    case "killed":
      return `${dir}: the run was killed: run.json says running, but its process ${state.pid} is gone (SIGKILL, out of memory or a crash); it has no results, rerun it`;
    case "running":
      return `${dir}: the run is still running (process ${state.pid ?? "?"}${state.host === undefined ? "" : ` on ${state.host}`}); wait for it to finish`;
    case "failed":
    case "interrupted":
      if (existsSync(join(dir, "summary.json"))) return undefined;
      return `${dir}: the run ${state.status === "failed" ? "failed" : "was interrupted"}${state.reason === undefined ? "" : ` (${state.reason})`}; it has no results, rerun it`;
    default:
      return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
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
 * so a directory with a summary is always complete. Files an earlier run listed in the
 * manifest ({@link MANIFEST}) that this one does not write are removed first, the summary
 * before anything else; files the manifest does not list are left alone. Returns the names
 * written.
 */
export function writeResultFiles(
  dir: string,
  files: readonly (readonly [string, string])[],
): string[] {
  mkdirSync(dir, { recursive: true });
  const names = files.map(([name]) => name);
  rmSync(join(dir, "summary.json"), { force: true });
  removeListedFiles(dir, (name) => names.includes(name));
  recordFiles(dir, names, { replace: true });
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
