import { availableParallelism } from "node:os";
import Tinypool from "tinypool";
import type { PointOutcome, PointTask } from "./run-point.js";

/** Receives each point's outcome as soon as it is known (in completion order). */
export type OutcomeSink = (task: PointTask, outcome: PointOutcome) => void | Promise<void>;

/**
 * The built worker entry beside this module (`dist/worker.js`). Typed as the global `URL` so
 * the declarations do not import Node's `url` module.
 */
export const DEFAULT_WORKER_FILE: URL = new URL("./worker.js", import.meta.url);

export interface PoolOptions {
  /** Worker threads (default: every core, `os.availableParallelism()`). */
  readonly threads?: number;
  /** The worker entry to load; tests pass a bundle of `worker.ts`. */
  readonly workerFile?: URL | string;
  readonly signal?: AbortSignal;
}

export function defaultThreads(): number {
  return availableParallelism();
}

/** A pool of worker threads running points; the caller destroys it. */
export function pointPool(
  threads: number,
  workerFile: URL | string = DEFAULT_WORKER_FILE,
): Tinypool {
  return new Tinypool({
    filename: workerFile instanceof URL ? workerFile.href : workerFile,
    minThreads: threads,
    maxThreads: threads,
  });
}

/** A bug in a worker (not a failed point) still ends as that point's outcome. */
export function crashOutcome(error: unknown): PointOutcome {
  return {
    status: "failed",
    error: `internal error (please report): ${(error as Error)?.stack ?? String(error)}`,
  };
}

/**
 * Runs the points on worker threads of this machine, at most `threads` at once; outcomes go to
 * `sink` as they finish. Resolves when all are done; rejects with the abort reason when
 * `signal` fires (finished points have been delivered).
 */
export async function runOnThreads(
  tasks: readonly PointTask[],
  sink: OutcomeSink,
  options: PoolOptions = {},
): Promise<void> {
  if (tasks.length === 0) return;
  const threads = Math.max(1, Math.min(options.threads ?? defaultThreads(), tasks.length));
  const pool = pointPool(threads, options.workerFile);
  // One listener for the whole pool (one per task would be hundreds on a large sweep).
  const signal = options.signal;
  const abort = () => void pool.destroy();
  const aborted = () => signal?.aborted === true;
  signal?.addEventListener("abort", abort, { once: true });
  try {
    await Promise.all(
      tasks.map(async (task) => {
        if (aborted()) throw signal!.reason;
        let outcome: PointOutcome;
        try {
          outcome = (await pool.run(task)) as PointOutcome;
        } catch (error) {
          if (aborted()) throw signal!.reason;
          outcome = crashOutcome(error);
        }
        await sink(task, outcome);
      }),
    );
  } finally {
    signal?.removeEventListener("abort", abort);
    await pool.destroy();
  }
}
