import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unfinishedRunMessage } from "@cclab/sim";

/** What to draw of a run: figures by name, and optionally only some ports or flows. */
export interface RunSelection {
  /**
   * Ports to draw in the port figures: port names (`S3.p5`, `H17.p0`) or device names (`S3`,
   * every port of it). Default: the most occupied or most blocked, at most 12.
   */
  readonly ports?: readonly string[];
  /**
   * Flows to draw in the flow figures (throughput, CC state): flow ids (`12`) or host pairs
   * (`H1->H2`, `H1→H2`, every flow between them). Default: every flow (grouped beyond 12).
   */
  readonly flows?: readonly string[];
}

/** What a run directory says about itself, for titles, time axes and selections. */
export interface RunContext {
  readonly dir: string;
  readonly name: string;
  /** Flow id → traffic group, from summary.json's flow table (empty without one). */
  readonly groupOfFlow: ReadonlyMap<string, string>;
  /**
   * The run's end in simulated time, µs: every time axis runs from 0 to it (undefined when the
   * summary does not say; the axis then ends at the last bin in the file).
   */
  readonly endUs: number | undefined;
  /** Width of the series' bins, µs (undefined for a result without its resolved scenario). */
  readonly binUs: number | undefined;
  /**
   * Names of the values of the `cc-queues` variables, by variable then value (TCD's `state`:
   * 0 → "NC: non-congestion" …), from run.json's `queueSeries.valueLabels` (contract 3.4's
   * `queueValueLabels`); empty for a run that has none.
   */
  readonly queueValueLabels: ReadonlyMap<string, ReadonlyMap<number, string>>;
  readonly selection: RunSelection;
}

export function runContext(dir: string, selection: RunSelection = {}): RunContext {
  // A killed run says "running" in its run.json for good: name it before anything else.
  const unfinished = unfinishedRunMessage(dir);
  if (unfinished !== undefined) throw new Error(unfinished);
  const summaryPath = join(dir, "summary.json");
  if (!existsSync(summaryPath)) {
    throw new Error(
      `${dir}: no summary.json (not a finished cclab run; an interrupted run leaves none)`,
    );
  }
  const summary = JSON.parse(readFileSync(summaryPath, "utf8")) as {
    scenario: string;
    simulatedUs?: number;
    flows?: { id: number; group: string }[];
  };
  const scenarioPath = join(dir, "scenario.resolved.json");
  const scenario = existsSync(scenarioPath)
    ? (JSON.parse(readFileSync(scenarioPath, "utf8")) as { metrics?: { binUs?: number } })
    : {};
  return {
    dir,
    name: summary.scenario,
    groupOfFlow: new Map((summary.flows ?? []).map((f) => [String(f.id), f.group])),
    endUs: summary.simulatedUs,
    binUs: scenario.metrics?.binUs,
    queueValueLabels: queueValueLabelsOf(dir),
    selection,
  };
}

/**
 * run.json's `queueSeries.valueLabels`, keeping only integer values with string names: a
 * run.json without them (an older run, or parts that name nothing) or with something else there
 * gives no names, and the figures show numbers as before.
 */
function queueValueLabelsOf(dir: string): Map<string, Map<number, string>> {
  const labels = new Map<string, Map<number, string>>();
  let run: unknown;
  try {
    run = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
  } catch {
    return labels;
  }
  const byVariable = field(field(run, "queueSeries"), "valueLabels");
  if (!isRecord(byVariable)) return labels;
  for (const [variable, names] of Object.entries(byVariable)) {
    if (!isRecord(names)) continue;
    const byValue = new Map<number, string>();
    for (const [value, name] of Object.entries(names)) {
      if (Number.isSafeInteger(Number(value)) && value.trim() !== "" && typeof name === "string") {
        byValue.set(Number(value), name);
      }
    }
    if (byValue.size > 0) labels.set(variable, byValue);
  }
  return labels;
}

function isRecord(x: unknown): x is Readonly<Record<string, unknown>> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function field(x: unknown, name: string): unknown {
  return isRecord(x) ? x[name] : undefined;
}

/** Whether a port (its name `S3.p5` and device `S3`) is among the selected, or none are. */
export function portSelected(selection: RunSelection, portName: string, device: string): boolean {
  const ports = selection.ports;
  return ports === undefined || ports.includes(portName) || ports.includes(device);
}

/** Whether a flow (its id and host names) is among the selected, or none are. */
export function flowSelected(
  selection: RunSelection,
  id: string,
  src: string,
  dst: string,
): boolean {
  const flows = selection.flows;
  if (flows === undefined) return true;
  return flows.some((f) => f === id || f === `${src}->${dst}` || f === `${src}→${dst}`);
}

/**
 * Bin starts from 0 to the run's end, µs: the x values every binned series has, so a series
 * missing a bin in its file reads as 0 there instead of a line drawn across it.
 */
export function binStarts(ctx: RunContext, seen: readonly number[]): number[] {
  const { binUs, endUs } = ctx;
  if (binUs === undefined || !(binUs > 0) || endUs === undefined) {
    return [...new Set(seen)].sort((a, b) => a - b);
  }
  const starts: number[] = [];
  for (let i = 0; i * binUs < endUs - 1e-9; i++) starts.push(+(i * binUs).toFixed(6));
  return starts;
}
