import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Job, type JobJson, Queue, QueueEvents, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { crashOutcome, defaultThreads, type OutcomeSink, pointPool } from "./local-pool.js";
import { checkTask } from "./point-data.js";
import type { PointOutcome, PointTask } from "./run-point.js";

/** The queue coordinators and workers meet on unless told otherwise. */
export const DEFAULT_QUEUE = "cclab-sweeps";

/** Finished jobs stay in Redis this long, so a coordinator that died can collect them later. */
const KEEP_FINISHED_S = 7 * 24 * 3600;

/** A server that does not answer (or refuses the password) within this is an error. */
const CONNECT_TIMEOUT_MS = 10_000;

/** How often the coordinator checks that its unfinished points are still queued in Redis. */
const WATCH_INTERVAL_MS = 2_000;

/** Jobs looked up at once by that check. */
const WATCH_BATCH = 200;

/** A coordinator that cannot reach Redis for this long gives up (finished points are kept). */
const LOST_REDIS_MS = 60_000;

/** Redis could not be used: unreachable, a refused password, or lost mid-sweep. */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** `url` with its password replaced by `***`: for every URL printed or logged. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === "") return url;
    u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, "//$1:***@");
  }
}

/** `text` with the password of `url` (as written, and URL-decoded) replaced by `***`. */
function redactIn(text: string, url: string): string {
  let password = "";
  try {
    password = new URL(url).password;
  } catch {
    return text.replaceAll(url, redactUrl(url));
  }
  let out = text.replaceAll(url, redactUrl(url));
  for (const secret of new Set([password, safeDecode(password)])) {
    if (secret !== "") out = out.replaceAll(secret, "***");
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Checks a `redis://[user:password@]host[:port][/db]` URL (`rediss://` for TLS). */
export function checkRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RangeError(
      `--redis must be a URL like redis://127.0.0.1:6379, got "${redactUrl(url)}"`,
    );
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new RangeError(`--redis must start with redis:// or rediss://, got "${redactUrl(url)}"`);
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
 * gets clients; it does not close clients it was given, so callers quit them. Its errors go
 * to `onError` (password redacted): an ioredis client without a listener prints every
 * reconnect failure as an unhandled stack trace.
 */
function connect(url: string, onError: (message: string) => void): Redis {
  // BullMQ's blocking commands must wait out reconnects instead of failing.
  const client = new Redis(checkRedisUrl(url), { maxRetriesPerRequest: null });
  client.on("error", (error: Error) => onError(redactIn(error.message, url)));
  return client;
}

/**
 * Connects once, without retrying, and pings: an unreachable server or a refused password is
 * a {@link RedisUnavailableError} within {@link CONNECT_TIMEOUT_MS} instead of endless retries.
 */
export async function probeRedis(url: string): Promise<void> {
  const client = new Redis(checkRedisUrl(url), {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS / 2,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: string | undefined;
  client.on("error", (error: Error) => {
    lastError = error.message;
  });
  const timeout = sleep(CONNECT_TIMEOUT_MS, "timeout" as const, { ref: false });
  try {
    const answer = await Promise.race([client.connect().then(() => client.ping()), timeout]);
    if (answer === "timeout") throw new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`);
  } catch (error) {
    const reason = lastError ?? (error as Error).message;
    throw new RedisUnavailableError(
      `cannot use Redis at ${redactUrl(url)}: ${redactIn(reason, url)}`,
    );
  } finally {
    client.disconnect();
  }
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
 * results go to `sink` as they finish (unchecked: the sink checks them). A job that failed in
 * an earlier attempt is queued again; one that completed is collected without running it
 * again. Every {@link WATCH_INTERVAL_MS} the unfinished jobs are looked up: one that vanished
 * (Redis restarted without persistence) is queued again, one that finished unnoticed (its
 * event lost) is collected; a Redis that does not answer for {@link LOST_REDIS_MS} is a
 * {@link RedisUnavailableError}.
 */
export async function runOnRedis(
  tasks: readonly { task: PointTask; scenarioSha256: string }[],
  sink: OutcomeSink,
  options: RedisCoordinatorOptions,
): Promise<void> {
  if (tasks.length === 0) return;
  await probeRedis(options.url);
  const name = options.queue ?? DEFAULT_QUEUE;
  let lastError: string | undefined;
  const onError = (message: string) => {
    lastError = message;
  };
  const clients = [connect(options.url, onError), connect(options.url, onError)];
  const queue = new Queue(name, { connection: clients[0]! });
  const events = new QueueEvents(name, { connection: clients[1]! });
  queue.on("error", (error: Error) => onError(redactIn(error.message, options.url)));
  events.on("error", (error: Error) => onError(redactIn(error.message, options.url)));
  const aborted = new Promise<never>((_, reject) => {
    if (options.signal?.aborted === true) reject(options.signal.reason);
    options.signal?.addEventListener("abort", () => reject(options.signal!.reason), { once: true });
  });
  aborted.catch(() => {});
  const lost = () =>
    new RedisUnavailableError(
      `lost Redis at ${redactUrl(options.url)}: no answer for ${LOST_REDIS_MS / 1000} s${lastError === undefined ? "" : ` (${lastError})`}; finished points are kept, run the sweep again to resume`,
    );
  /** `work`, or a {@link RedisUnavailableError} when Redis does not answer in time. */
  const answered = async <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(lost()), LOST_REDIS_MS);
    });
    try {
      return await Promise.race([work, timeout, aborted]);
    } finally {
      clearTimeout(timer);
    }
  };
  const add = (task: PointTask, jobId: string) =>
    queue.add(task.pointId, task, {
      jobId,
      attempts: 1,
      removeOnComplete: { age: KEEP_FINISHED_S },
      removeOnFail: { age: KEEP_FINISHED_S },
    });
  let stopWatching = false;
  try {
    await answered(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]));
    const jobIds: string[] = [];
    for (const { task, scenarioSha256 } of tasks) {
      const jobId = jobIdOf(task, scenarioSha256);
      const existing = await answered(queue.getJob(jobId));
      if (existing !== undefined && (await answered(existing.isFailed()))) {
        await answered(existing.remove());
      }
      await answered(add(task, jobId));
      jobIds.push(jobId);
    }
    // Each job finishes once, through its event or through the watch, whichever comes first.
    const unfinished = new Map<string, number>(jobIds.map((id, i) => [id, i]));
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => {
      allDone = resolve;
    });
    const sinkErrors: unknown[] = [];
    const finish = async (jobId: string, outcome: unknown) => {
      const i = unfinished.get(jobId);
      if (i === undefined) return;
      unfinished.delete(jobId);
      try {
        await sink(tasks[i]!.task, outcome as PointOutcome);
      } catch (error) {
        sinkErrors.push(error);
      }
      if (unfinished.size === 0) allDone();
    };
    const failedOutcome = (reason: string): PointOutcome => ({
      status: "failed",
      // The job failed in the worker: a bug, a malformed job, or a worker that died too often.
      error: `worker: ${reason}`,
    });
    for (const jobId of jobIds) {
      Job.fromId(queue, jobId)
        .then((job) =>
          job === undefined
            ? undefined
            : job.waitUntilFinished(events).then(
                (value) => finish(jobId, value),
                (error: Error) => finish(jobId, failedOutcome(error.message)),
              ),
        )
        // A job that vanished is found by the watch; its waiter may reject meanwhile.
        .catch(() => {});
    }
    const watch = async () => {
      while (!stopWatching && unfinished.size > 0) {
        await answered(sleep(WATCH_INTERVAL_MS));
        if (stopWatching) return;
        const ids = [...unfinished.keys()];
        const states: string[] = [];
        // A few hundred lookups at a time: one round trip each, without flooding Redis.
        for (let from = 0; from < ids.length; from += WATCH_BATCH) {
          const batch = ids.slice(from, from + WATCH_BATCH);
          states.push(...(await answered(Promise.all(batch.map((id) => queue.getJobState(id))))));
        }
        for (const [k, jobId] of ids.entries()) {
          const state = states[k];
          const i = unfinished.get(jobId);
          if (i === undefined) continue;
          if (state === "unknown") {
            // Redis lost the job (restarted without persistence): queue it again, after
            // removing what is left of it (BullMQ ignores an add whose job id exists).
            const orphan = await answered(queue.getJob(jobId));
            if (orphan !== undefined) await answered(orphan.remove().catch(() => {}));
            await answered(add(tasks[i]!.task, jobId));
          } else if (state === "completed" || state === "failed") {
            // A job BullMQ cannot read (its fields are not JSON) is a failed point.
            const job = await answered(queue.getJob(jobId).catch(() => undefined));
            await finish(
              jobId,
              job === undefined
                ? failedOutcome("the job in Redis cannot be read")
                : state === "completed"
                  ? job.returnvalue
                  : failedOutcome(job.failedReason),
            );
          }
        }
      }
    };
    await Promise.race([done, watch().then(() => done), aborted]);
    if (sinkErrors.length > 0) throw sinkErrors[0];
  } finally {
    stopWatching = true;
    await Promise.race([Promise.all([events.close(), queue.close()]), sleep(5_000)]).catch(
      () => {},
    );
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

/** What a job whose payload is not JSON carries instead, so it fails once instead of hanging. */
const NOT_JSON = { malformed: "the payload is not JSON" };

/**
 * A BullMQ worker that survives a job whose payload is not JSON: BullMQ parses it before the
 * processor runs and, when that throws, leaves the job active and logs it at every retry.
 */
class PointWorker extends Worker {
  protected override createJob(data: JobJson, jobId: string): Job {
    try {
      return super.createJob(data, jobId);
    } catch {
      return super.createJob({ ...data, data: JSON.stringify(NOT_JSON) }, jobId);
    }
  }
}

/**
 * Runs queued points until `signal` fires (`cclab worker`). Points run on worker threads so
 * the event loop stays free to renew their locks: a point is only taken from a worker that
 * stopped renewing, i.e. died. Such a point is queued again once (BullMQ maxStalledCount 1),
 * then failed. A job that is not a sweep point fails at once, without retries.
 */
export async function runRedisWorker(options: RedisWorkerOptions): Promise<void> {
  const threads = Math.max(1, options.threads ?? defaultThreads());
  const log = options.log ?? (() => {});
  await probeRedis(options.url);
  const pool = pointPool(threads, options.workerFile);
  let lastError: string | undefined;
  const logError = (message: string) => {
    // Once per distinct message: a server that is down fails every reconnect alike.
    if (message === lastError) return;
    lastError = message;
    log(`redis: ${message}`);
  };
  const client = connect(options.url, logError);
  const worker = new PointWorker(
    options.queue ?? DEFAULT_QUEUE,
    async (job: Job<unknown>) => {
      const checked = checkTask(job.data);
      if ("error" in checked) {
        const reason =
          (job.data as Partial<typeof NOT_JSON> | null)?.malformed === NOT_JSON.malformed
            ? `malformed job: ${NOT_JSON.malformed}`
            : checked.error;
        log(`failed job ${job.id}: ${reason}`);
        throw new UnrecoverableError(reason);
      }
      const { task } = checked;
      log(`start ${task.sweep} ${task.pointId} (job ${job.id})`);
      let outcome: PointOutcome;
      try {
        outcome = (await pool.run(task, { name: "runQueued" })) as PointOutcome;
      } catch (error) {
        outcome = crashOutcome(error);
      }
      log(`${outcome.status} ${task.sweep} ${task.pointId}`);
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
  worker.on("error", (error) => logError(redactIn(error.message, options.url)));
  await worker.waitUntilReady();
  log(
    `worker ready: ${redactUrl(options.url)}, queue ${options.queue ?? DEFAULT_QUEUE}, ${threads} thread${threads === 1 ? "" : "s"}`,
  );
  await new Promise<void>((resolve) => {
    if (options.signal?.aborted === true) resolve();
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  // Without waiting for running points: their locks lapse and other workers take them. Nor
  // for a Redis that does not answer: the worker stops on the first signal.
  await Promise.race([worker.close(true), sleep(5_000)]).catch(() => {});
  client.disconnect();
  await pool.destroy();
}
