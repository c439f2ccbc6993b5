/**
 * Entry of the worker threads that run sweep points (tinypool loads this file's default
 * export). Built to `dist/worker.js`, beside the package's `index.js`.
 */
import { type PointOutcome, type PointTask, runPoint } from "./run-point.js";

export default function run(task: PointTask): Promise<PointOutcome> {
  return runPoint(task);
}
