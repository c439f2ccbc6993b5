import { formatIssues, RunFailure, resultFiles, ScenarioError, simulate } from "@cclab/sim";

/** What a worker needs to run one point; plain data, so it crosses threads and Redis. */
export interface PointTask {
  readonly sweep: string;
  readonly pointId: string;
  readonly document: unknown;
  /** Where the base scenario's relative paths (trace files) resolve; must exist on the worker. */
  readonly baseDir: string;
  readonly keepSeries: boolean;
}

/** A point's result: its files (summary.json last), or why it failed. */
export type PointOutcome =
  | { readonly status: "complete"; readonly files: [string, string][] }
  | { readonly status: "failed"; readonly error: string };

/**
 * Runs one point of a sweep. A point that cannot run (its scenario is invalid, an invariant
 * broke) is an outcome, not an exception: the sweep reports it and goes on. Only a bug or a
 * dead worker ends without an outcome. `pluginDir`, when given, is where the scenario's
 * `plugins` resolve from and the only folder plugin files may be in (a Redis worker's own
 * working directory, never a path from the job); without it they resolve from `baseDir`.
 */
export async function runPoint(
  task: PointTask,
  options: { readonly pluginDir?: string } = {},
): Promise<PointOutcome> {
  try {
    const result = await simulate(task.document, {
      baseDir: task.baseDir,
      ...(options.pluginDir === undefined ? {} : { pluginDir: options.pluginDir }),
    });
    const files = resultFiles(result).filter(([name]) => task.keepSeries || !name.endsWith(".csv"));
    return { status: "complete", files };
  } catch (error) {
    if (error instanceof ScenarioError) {
      return {
        status: "failed",
        error: `invalid scenario: ${formatIssues(error.issues).replaceAll("\n", "; ")}`,
      };
    }
    if (error instanceof RunFailure)
      return { status: "failed", error: `run failed: ${error.message}` };
    throw error;
  }
}
