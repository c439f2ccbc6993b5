import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFigures } from "@cclab/plot";
import { formatIssues, resolveScenario, ScenarioError, writeResultFiles } from "@cclab/sim";
import { defaultThreads, runOnThreads } from "./local-pool.js";
import { checkOutcome } from "./point-data.js";
import { expandPoints, type SweepPoint } from "./points.js";
import { runOnRedis } from "./redis.js";
import type { PointOutcome, PointTask } from "./run-point.js";
import { sweepFigures } from "./sweep-figures.js";
import { type LoadedSweep, readSweepFile, SweepError } from "./sweep-file.js";
import { metricColumns, type PointRecord, sweepCsv } from "./table.js";

export interface SweepProgress {
  readonly total: number;
  /** Points with a result: finished earlier (resumed), now, or failed. */
  readonly done: number;
  readonly failed: number;
  readonly resumed: number;
  /** The point that just finished (undefined for the first report). */
  readonly last?: { readonly id: string; readonly status: "complete" | "failed" };
}

export interface SweepOptions {
  /** Output directory (default: results/<sweep name>). */
  readonly out?: string;
  /** Worker threads on this machine (default: every core). Ignored with `redis`. */
  readonly threads?: number;
  /** Queue the points in Redis for `cclab worker` processes instead of running them here. */
  readonly redis?: { readonly url: string; readonly queue?: string };
  /** The worker-thread entry (default: the package's built `worker.js`). */
  readonly workerFile?: URL | string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: SweepProgress) => void;
}

export interface SweepReport {
  readonly out: string;
  readonly points: number;
  readonly resumed: number;
  readonly ran: number;
  readonly failed: readonly { readonly id: string; readonly error: string }[];
  readonly files: readonly string[];
  /** Why no plots were drawn, when none were. */
  readonly plotNote?: string;
}

/** What `points/<id>/point.json` holds: the point and the hash that says which scenario ran. */
interface PointFile {
  readonly id: string;
  readonly values: Record<string, unknown>;
  readonly seed: number;
  readonly scenarioSha256: string;
  readonly status: "complete" | "failed";
  readonly error?: string;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes `text` to `path` through a temporary file, so readers never see half a file. */
function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Runs a sweep file (`cclab sweep`): every point on this machine's cores or through Redis,
 * skipping points a previous run of the same sweep finished (their scenario hash matches), then
 * writes `sweep.csv` and plots over the axes. A point that fails is reported and the sweep goes
 * on; a sweep whose every point is invalid is rejected before anything runs.
 */
export async function runSweep(file: string, options: SweepOptions = {}): Promise<SweepReport> {
  const loaded = readSweepFile(file);
  const { sweep } = loaded;
  const points = expandPoints(sweep, loaded.baseDocument);
  const checked = await checkPoints(points, loaded.baseDir);
  if (checked.every((c) => c.error !== undefined)) {
    throw new SweepError([{ path: `points.${points[0]!.id}`, message: checked[0]!.error! }]);
  }
  const out = options.out ?? join("results", sweep.name);
  mkdirSync(join(out, "points"), { recursive: true });
  // A table from an earlier run must not look like this run's until this run writes it.
  rmSync(join(out, "sweep.csv"), { force: true });
  writeFileSync(join(out, "sweep.resolved.json"), json(resolvedSweep(loaded, points)));

  const records = new Map<string, PointRecord>();
  const pending: { task: PointTask; scenarioSha256: string; point: SweepPoint }[] = [];
  let resumed = 0;
  for (const [i, point] of points.entries()) {
    const { sha, error } = checked[i]!;
    const dir = join(out, "points", point.id);
    if (error !== undefined) {
      savePoint(dir, point, sha, { status: "failed", error });
      records.set(point.id, { point, status: "failed", error });
      continue;
    }
    const previous = finishedSummary(dir, sha);
    if (previous !== undefined) {
      records.set(point.id, { point, status: "complete", summary: previous });
      resumed++;
      continue;
    }
    rmSync(join(dir, "summary.json"), { force: true });
    pending.push({
      point,
      scenarioSha256: sha,
      task: {
        sweep: sweep.name,
        pointId: point.id,
        document: point.document,
        baseDir: loaded.baseDir,
        keepSeries: sweep.keepSeries,
      },
    });
  }

  const failedCount = () => [...records.values()].filter((r) => r.status === "failed").length;
  const report = (last?: SweepProgress["last"]) =>
    options.onProgress?.({
      total: points.length,
      done: records.size,
      failed: failedCount(),
      resumed,
      ...(last === undefined ? {} : { last }),
    });
  report();
  const byId = new Map(pending.map((p) => [p.point.id, p]));
  const sink = (task: PointTask, result: unknown) => {
    const { point, scenarioSha256 } = byId.get(task.pointId)!;
    const dir = join(out, "points", point.id);
    // A worker's result is data from another process or machine: checked before it is written.
    const { outcome, summary } = checkOutcome(result);
    savePoint(dir, point, scenarioSha256, outcome);
    records.set(
      point.id,
      outcome.status === "complete"
        ? { point, status: "complete", summary }
        : { point, status: "failed", error: outcome.error },
    );
    report({ id: point.id, status: outcome.status });
  };
  if (options.redis !== undefined) {
    await runOnRedis(pending, sink, {
      url: options.redis.url,
      ...(options.redis.queue === undefined ? {} : { queue: options.redis.queue }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } else {
    await runOnThreads(
      pending.map((p) => p.task),
      sink,
      {
        threads: options.threads ?? defaultThreads(),
        ...(options.workerFile === undefined ? {} : { workerFile: options.workerFile }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
  }

  const all = points.map((p) => records.get(p.id)!);
  const axes = Object.keys(sweep.axes);
  const columns = metricColumns(all, sweep.columns);
  writeAtomic(join(out, "sweep.csv"), sweepCsv(axes, all, columns));
  const { figures, note } = sweepFigures(sweep, points, all, columns);
  rmSync(join(out, "plots"), { recursive: true, force: true });
  const plots = (await writeFigures(join(out, "plots"), figures)).map((f) => join("plots", f));
  return {
    out,
    points: points.length,
    resumed,
    ran: pending.length,
    failed: all
      .filter((r) => r.status === "failed")
      .map((r) => ({ id: r.point.id, error: r.error ?? "" })),
    files: ["sweep.resolved.json", "sweep.csv", ...plots],
    ...(note === undefined ? {} : { plotNote: note }),
  };
}

/**
 * Resolves every point before anything runs (files it names read from `baseDir`, the sweep
 * file's directory): its scenario hash, or why it cannot run.
 */
async function checkPoints(
  points: readonly SweepPoint[],
  baseDir: string,
): Promise<{ sha: string; error?: string }[]> {
  const out: { sha: string; error?: string }[] = [];
  for (const point of points) {
    try {
      const resolved = await resolveScenario(point.document, { baseDir });
      out.push({ sha: sha256(JSON.stringify(resolved.scenario)) });
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      out.push({
        sha: sha256(JSON.stringify(point.document)),
        error: `invalid scenario: ${formatIssues(error.issues).replaceAll("\n", "; ")}`,
      });
    }
  }
  return out;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The summary of a point an earlier run finished with the same scenario, if any. */
function finishedSummary(dir: string, sha: string): unknown {
  const pointFile = join(dir, "point.json");
  const summaryFile = join(dir, "summary.json");
  if (!existsSync(pointFile) || !existsSync(summaryFile)) return undefined;
  try {
    const saved = JSON.parse(readFileSync(pointFile, "utf8")) as PointFile;
    if (saved.scenarioSha256 !== sha || saved.status !== "complete") return undefined;
    return JSON.parse(readFileSync(summaryFile, "utf8"));
  } catch {
    return undefined; // unreadable: run the point again
  }
}

function savePoint(dir: string, point: SweepPoint, sha: string, outcome: PointOutcome): void {
  mkdirSync(dir, { recursive: true });
  const meta: PointFile = {
    id: point.id,
    values: { ...point.values },
    seed: point.seed,
    scenarioSha256: sha,
    status: outcome.status,
    ...(outcome.status === "failed" ? { error: outcome.error } : {}),
  };
  if (outcome.status === "failed") {
    rmSync(join(dir, "summary.json"), { force: true });
    writeFileSync(join(dir, "error.txt"), `${outcome.error}\n`);
    writeFileSync(join(dir, "point.json"), json(meta));
    return;
  }
  rmSync(join(dir, "error.txt"), { force: true });
  // point.json before summary.json: a summary is only trusted beside a matching point.json.
  writeFileSync(join(dir, "point.json"), json(meta));
  writeResultFiles(dir, outcome.files);
}

/** The sweep as run: the file's fields with ranges expanded and the list of points. */
function resolvedSweep(loaded: LoadedSweep, points: readonly SweepPoint[]) {
  const { sweep } = loaded;
  return {
    name: sweep.name,
    ...(sweep.description === undefined ? {} : { description: sweep.description }),
    base: loaded.basePath,
    set: sweep.set,
    axes: Object.fromEntries(
      Object.keys(sweep.axes).map((a) => [
        a,
        [...new Set(points.map((p) => JSON.stringify(p.values[a])))].map((v) => JSON.parse(v)),
      ]),
    ),
    seeds: [...new Set(points.map((p) => p.seed))],
    columns: sweep.columns,
    plot: sweep.plot,
    keepSeries: sweep.keepSeries,
    points: points.map((p) => ({ id: p.id, values: p.values, seed: p.seed })),
  };
}
