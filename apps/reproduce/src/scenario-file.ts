import { fileURLToPath } from "node:url";
import { readScenarioFile, type SimulationResult, simulate } from "@cclab/sim";

/** The repository's `scenarios/` directory (beside `apps/`, from `src/` or `dist/`). */
export const SCENARIOS_DIR = fileURLToPath(new URL("../../../scenarios/", import.meta.url));

/**
 * Receives every run of a shipped scenario as shipped (no overrides), e.g. to save it with its
 * plots. `file` is relative to `scenarios/`.
 */
export type RunRecorder = (file: string, result: SimulationResult) => Promise<void> | void;

let recorder: RunRecorder | undefined;

/** Runs `body` with `record` receiving the shipped-scenario runs it makes. */
export async function withRunRecorder<T>(record: RunRecorder, body: () => Promise<T>): Promise<T> {
  const previous = recorder;
  recorder = record;
  try {
    return await body();
  } finally {
    recorder = previous;
  }
}

type Json = Record<string, unknown>;

/** A change applied to every scenario document a body runs (see {@link withScenarioTransform}). */
export type ScenarioTransform = (document: Json, file: string) => void;

let transform: ScenarioTransform | undefined;

/**
 * Runs `body` with `change` applied to every scenario it runs, after the times are scaled and
 * before the run's own overrides: an experiment run under another reading of a paper (e.g. a
 * switch's buffer size). Such runs are not the shipped scenarios', so none is recorded.
 */
export async function withScenarioTransform<T>(
  change: ScenarioTransform,
  body: () => Promise<T>,
): Promise<T> {
  const previous = transform;
  transform = change;
  try {
    return await body();
  } finally {
    transform = previous;
  }
}

/** A change to a scenario document: the value at a dotted path (`cc.hosts.0.params.x`). */
export type Override = readonly [path: string, value: unknown];

function setPath(doc: Json, path: string, value: unknown): void {
  const keys = path.split(".");
  let at: Json = doc;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== "object" || next === null) {
      throw new Error(`override ${path}: ${key} is not an object or list in the scenario`);
    }
    at = next as Json;
  }
  at[keys[keys.length - 1]!] = value;
}

/**
 * Multiplies every time of a scenario's run and scheduled flows by `factor` (flow starts and
 * stops, duration, warm-up, the times hosts change their receive rate): the same experiment at
 * another length, for tests. A pattern's own window is left as it is (experiments that scale
 * one override it).
 */
function scaleTimes(doc: Json, factor: number): void {
  const run = doc.run as Json | undefined;
  for (const key of ["durationUs", "warmupUs"]) {
    if (typeof run?.[key] === "number") run[key] = Math.round((run[key] as number) * factor);
  }
  const scale = (at: Json, keys: readonly string[]) => {
    for (const key of keys) {
      if (typeof at[key] === "number") at[key] = Math.round((at[key] as number) * factor);
    }
  };
  for (const step of ((doc.host as Json | undefined)?.receiveRates as Json[] | undefined) ?? []) {
    scale(step, ["atUs"]);
  }
  for (const pattern of (doc.traffic as Json[] | undefined) ?? []) {
    for (const flow of (pattern.flows as Json[] | undefined) ?? []) {
      for (const key of ["startNs", "stopNs"]) {
        if (typeof flow[key] === "number") flow[key] = Math.round((flow[key] as number) * factor);
      }
    }
  }
}

interface ScenarioRun {
  readonly result: SimulationResult;
}

/** Runs `scenarios/<file>` with its times scaled by `scale`, then `overrides` applied. */
export async function runScenario(
  file: string,
  scale = 1,
  overrides: readonly Override[] = [],
): Promise<ScenarioRun> {
  const { document, baseDir } = readScenarioFile(`${SCENARIOS_DIR}${file}`);
  const doc = structuredClone(document) as Json;
  if (scale !== 1) scaleTimes(doc, scale);
  transform?.(doc, file);
  for (const [path, value] of overrides) setPath(doc, path, value);
  const result = await simulate(doc, { baseDir });
  if (recorder !== undefined && overrides.length === 0 && transform === undefined) {
    await recorder(file, result);
  }
  return { result };
}
