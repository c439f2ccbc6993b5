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
    selection,
  };
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
