import { createHash } from "node:crypto";
import { type Job, Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { crashOutcome, defaultThreads, type OutcomeSink, pointPool } from "./local-pool.js";
import type { PointOutcome, PointTask } from "./run-point.js";

/** The queue coordinators and workers meet on unless told otherwise. */
export const DEFAULT_QUEUE = "cclab-sweeps";

/** Finished jobs stay in Redis this long, so a coordinator that died can collect them later. */
const KEEP_FINISHED_S = 7 * 24 * 3600;

/** Checks a `redis://[user:password@]host[:port][/db]` URL (`rediss://` for TLS). */
export function checkRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RangeError(`--redis must be a URL like redis://127.0.0.1:6379, got "${url}"`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new RangeError(`--redis must start with redis:// or rediss://, got "${url}"`);
  }
  if (!/^\/?\d*$/.test(u.pathname)) {
    throw new RangeError(
      `--redis: the path names a database by number (redis://host:6379/0), got "${u.pathname}"`,
    );
  }
  return url;
}

/**
 * A client for BullMQ. BullMQ's ESM build cannot load ioredis from connection options, so it
 * gets clients; it does not close clients it was given, so callers quit them.
 */
function connect(url: string): Redis {
  // BullMQ's blocking commands must wait out reconnects instead of failing.
  return new Redis(checkRedisUrl(url), { maxRetriesPerRequest: null });
}

/**
 * A job id from what the point computes: the same scenario, base directory and series choice
 * give the same id, so a rerun of a sweep finds the jobs it queued before.
 */
export function jobIdOf(task: PointTask, scenarioSha256: string): string {
  const h = createHash("sha256")
    .update(JSON.stringify([scenarioSha256, task.baseDir, task.keepSeries]))
    .digest("hex");
  return `pt-${h.slice(0, 32)}`;
}

export interface RedisCoordinatorOptions {
  readonly url: string;
  readonly queue?: string;
  readonly signal?: AbortSignal;
}

/**
 * Queues the points in Redis (BullMQ) and waits for workers (`cclab worker`) to run them;
 * outcomes go to `sink` as they finish. A job that failed in an earlier attempt is queued
 * again; one that completed is collected without running it again.
 */
export async function runOnRedis(
  tasks: readonly { task: PointTask; scenarioSha256: string }[],
  sink: OutcomeSink,
  options: RedisCoordinatorOptions,
): Promise<void> {
  if (tasks.length === 0) return;
  const name = options.queue ?? DEFAULT_QUEUE;
  const clients = [connect(options.url), connect(options.url)];
  const queue = new Queue(name, { connection: clients[0]! });
  const events = new QueueEvents(name, { connection: clients[1]! });
  const aborted = new Promise<never>((_, reject) => {
    if (options.signal?.aborted === true) reject(options.signal.reason);
    options.signal?.addEventListener("abort", () => reject(options.signal!.reason), { once: true });
  });
  aborted.catch(() => {});
  try {
    await Promise.race([Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), aborted]);
    const jobs: Job[] = [];
    for (const { task, scenarioSha256 } of tasks) {
      const jobId = jobIdOf(task, scenarioSha256);
      const existing = await queue.getJob(jobId);
      if (existing !== undefined && (await existing.isFailed())) await existing.remove();
      jobs.push(
        await queue.add(task.pointId, task, {
          jobId,
          attempts: 1,
          removeOnComplete: { age: KEEP_FINISHED_S },
          removeOnFail: { age: KEEP_FINISHED_S },
        }),
      );
    }
    await Promise.race([
      Promise.all(
        jobs.map(async (job, i) => {
          let outcome: PointOutcome;
          try {
            outcome = (await job.waitUntilFinished(events)) as PointOutcome;
          } catch (error) {
            // The job failed in the worker: a bug, or a worker that died too often on it.
            outcome = { status: "failed", error: `worker: ${(error as Error).message}` };
          }
          await sink(tasks[i]!.task, outcome);
        }),
      ),
      aborted,
    ]);
  } finally {
    await events.close();
    await queue.close();
    for (const client of clients) client.disconnect();
  }
}

export interface RedisWorkerOptions {
  readonly url: string;
  readonly queue?: string;
  /** Points run at once, each on its own thread (default: every core). */
  readonly threads?: number;
  /** How long a point's lock lasts without renewal; a dead worker's point is retried after it. */
  readonly lockDurationMs?: number;
  /** How often this worker looks for points whose worker died. */
  readonly stalledIntervalMs?: number;
  readonly workerFile?: URL | string;
  readonly log?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * Runs queued points until `signal` fires (`cclab worker`). Points run on worker threads so
 * the event loop stays free to renew their locks: a point is only taken from a worker that
 * stopped renewing, i.e. died. Such a point is queued again once (BullMQ maxStalledCount 1),
 * then failed.
 */
export async function runRedisWorker(options: RedisWorkerOptions): Promise<void> {
  const threads = Math.max(1, options.threads ?? defaultThreads());
  const pool = pointPool(threads, options.workerFile);
  const log = options.log ?? (() => {});
  const client = connect(options.url);
  const worker = new Worker(
    options.queue ?? DEFAULT_QUEUE,
    async (job: Job<PointTask>) => {
      log(`start ${job.data.sweep} ${job.data.pointId} (job ${job.id})`);
      let outcome: PointOutcome;
      try {
        outcome = (await pool.run(job.data)) as PointOutcome;
      } catch (error) {
        outcome = crashOutcome(error);
      }
      log(`${outcome.status} ${job.data.sweep} ${job.data.pointId}`);
      return outcome;
    },
    {
      connection: client,
      concurrency: threads,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: 1,
    },
  );
  worker.on("error", (error) => log(`redis: ${error.message}`));
  await worker.waitUntilReady();
  log(
    `worker ready: queue ${options.queue ?? DEFAULT_QUEUE}, ${threads} thread${threads === 1 ? "" : "s"}`,
  );
  await new Promise<void>((resolve) => {
    if (options.signal?.aborted === true) resolve();
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  // Without waiting for running points: their locks lapse and other workers take them.
  await worker.close(true);
  client.disconnect();
  await pool.destroy();
}
