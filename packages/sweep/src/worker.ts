/**
 * Entry of the worker threads that run sweep points (tinypool loads this file's default
 * export). Built to `dist/worker.js`, beside the package's `index.js`.
 */
import { type PointOutcome, type PointTask, runPoint } from "./run-point.js";

export default function run(task: PointTask): Promise<PointOutcome> {
  return runPoint(task);
}

/**
 * A point from a Redis queue (`cclab worker`, tinypool's `name: "runQueued"`): its plugins
 * resolve from this process's working directory only, so a job cannot make the worker import
 * code from a path it carries.
 */
export function runQueued(task: PointTask): Promise<PointOutcome> {
  return runPoint(task, { pluginDir: process.cwd() });
}
