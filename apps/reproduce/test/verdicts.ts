/** What the reproduction tests ask of an experiment: itself by id, and its findings' verdicts. */
import type { Experiment } from "../src/experiment.js";
import { EXPERIMENTS } from "../src/reproduce.js";

/**
 * The time limit of a reproduction test. Their runs take up to a few minutes beside the other
 * test files on CI's two cores, and more on a loaded machine (DCQCN's uniform256 pair: 51 s
 * alone, over 120 s once beside other jobs): one limit for all, well above their usual times.
 */
export const TIMEOUT_MS = 300_000;

export function experimentById(id: string): Experiment {
  const e = EXPERIMENTS.find((x) => x.id === id);
  if (e === undefined) throw new Error(`no experiment ${id}`);
  return e;
}

/** Whether each finding of experiment `id`, run with times scaled by `scale`, holds. */
export async function verdicts(id: string, scale: number): Promise<Record<string, boolean>> {
  const outcome = await experimentById(id).run({ scale, quick: true });
  return Object.fromEntries(outcome.findings.map((f) => [f.what, f.holds]));
}
