import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  checkRedisUrl,
  DEFAULT_QUEUE,
  RedisUnavailableError,
  redactUrl,
  runRedisWorker,
  runSweep,
  type SweepProgress,
} from "@cclab/sweep";
import { EXIT, type Io, UsageError } from "./errors.js";
import { checkOutDir } from "./out-dir.js";
import { sweepProgressLine } from "./progress.js";

export interface SweepValues {
  out?: string;
  threads?: string;
  redis?: string;
  queue?: string;
  quiet?: boolean;
}

function positiveInt(
  text: string | undefined,
  option: string,
  command: string,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`cclab ${command}: --${option} must be a whole number ≥ 1, got "${text}"`);
  }
  return n;
}

function redisUrl(text: string, command: string): string {
  try {
    return checkRedisUrl(text);
  } catch (error) {
    throw new UsageError(`cclab ${command}: ${(error as Error).message}`);
  }
}

/** `cclab sweep <file>`. */
export async function sweep(
  positionals: readonly string[],
  values: SweepValues,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError("cclab sweep: give exactly one sweep file (see cclab sweep --help)");
  }
  const threads = positiveInt(values.threads, "threads", "sweep");
  if (values.redis !== undefined && threads !== undefined) {
    throw new UsageError(
      "cclab sweep: --threads sets this machine's threads; with --redis the workers' --threads do",
    );
  }
  if (values.queue !== undefined && values.redis === undefined) {
    throw new UsageError("cclab sweep: --queue names a Redis queue; give --redis too");
  }
  const redis = values.redis === undefined ? undefined : redisUrl(values.redis, "sweep");
  // The sweep's own directory under results/ is named in its file; checked here is the folder.
  checkOutDir(values.out ?? "results", "sweep");
  const showProgress = values.quiet !== true && io.stderr.isTTY === true;
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);
  const t0 = Date.now();
  let last: SweepProgress | undefined;
  try {
    const report = await runSweep(positionals[0]!, {
      ...(values.out === undefined ? {} : { out: values.out }),
      threads: threads ?? availableParallelism(),
      ...(redis === undefined
        ? {}
        : { redis: { url: redis, queue: values.queue ?? DEFAULT_QUEUE } }),
      signal: controller.signal,
      onProgress: (p) => {
        last = p;
        if (showProgress) io.stderr.write(`\r\x1b[2K${sweepProgressLine(p, Date.now() - t0)}`);
        else if (p.last !== undefined && values.quiet !== true) {
          io.stderr.write(`${p.done}/${p.total} ${p.last.id} ${p.last.status}\n`);
        }
      },
    });
    if (showProgress) io.stderr.write("\n");
    const where =
      redis === undefined
        ? ""
        : ` (through ${redactUrl(redis)}, queue ${values.queue ?? DEFAULT_QUEUE})`;
    io.stdout.write(
      `${report.points} points${where}: ${report.ran} run, ${report.resumed} finished earlier, ${report.failed.length} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
    );
    for (const f of report.failed) io.stdout.write(`  ${f.id} failed: ${f.error}\n`);
    io.stdout.write(`table: ${join(report.out, "sweep.csv")}\n`);
    const pngs = report.files.filter((f) => f.endsWith(".png")).map((f) => f.slice(6, -4));
    if (pngs.length > 0)
      io.stdout.write(`plots: ${join(report.out, "plots")}/ (${pngs.join(", ")})\n`);
    if (report.plotNote !== undefined) io.stdout.write(`${report.plotNote}\n`);
    if (report.failed.length > 0) {
      io.stderr.write(
        `cclab sweep: ${report.failed.length} of ${report.points} points failed (see the error column of sweep.csv)\n`,
      );
      return EXIT.runFailed;
    }
    return EXIT.ok;
  } catch (error) {
    if (showProgress) io.stderr.write("\n");
    if (controller.signal.aborted) {
      io.stderr.write(
        `cclab sweep: interrupted at ${last?.done ?? 0}/${last?.total ?? "?"} points; finished points are kept, run the same command again to resume\n`,
      );
      return EXIT.interrupted;
    }
    // Unreachable, a refused password, or lost mid-sweep: a message (password redacted), exit 2.
    if (error instanceof RedisUnavailableError)
      throw new UsageError(`cclab sweep: ${error.message}`);
    throw error;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

export interface WorkerValues {
  redis?: string;
  queue?: string;
  threads?: string;
  "lock-duration-ms"?: string;
  "stalled-interval-ms"?: string;
}

/** `cclab worker --redis URL`: runs queued sweep points until interrupted. */
export async function worker(
  positionals: readonly string[],
  values: WorkerValues,
  io: Io,
): Promise<number> {
  if (positionals.length > 0) {
    throw new UsageError(
      `cclab worker: takes no arguments, got "${positionals[0]}" (see cclab worker --help)`,
    );
  }
  if (values.redis === undefined) throw new UsageError("cclab worker: give --redis URL");
  const url = redisUrl(values.redis, "worker");
  const threads = positiveInt(values.threads, "threads", "worker") ?? availableParallelism();
  const lock = positiveInt(values["lock-duration-ms"], "lock-duration-ms", "worker");
  const stalled = positiveInt(values["stalled-interval-ms"], "stalled-interval-ms", "worker");
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await runRedisWorker({
      url,
      queue: values.queue ?? DEFAULT_QUEUE,
      threads,
      ...(lock === undefined ? {} : { lockDurationMs: lock }),
      ...(stalled === undefined ? {} : { stalledIntervalMs: stalled }),
      log: (line) => io.stdout.write(`${new Date().toISOString()} ${line}\n`),
      signal: controller.signal,
    });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RedisUnavailableError)
      throw new UsageError(`cclab worker: ${error.message}`);
    throw error;
  } finally {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  }
}
