import { nsToPs, type TimePs } from "@cclab/core-des";
import { timeNs } from "./time-fields.js";

/**
 * The time window every generating pattern accepts. A step change of traffic (SRP's step
 * onset, seed 000 L146: uniform traffic, then at 1 ms uniform plus a hot-spot) is two or more
 * scenario entries with windows, e.g. `uniform` with `stopNs: 1e6` and `hotspot-background`
 * with `startNs: 1e6`, rather than a pattern that nests other patterns.
 */
export const windowShape = {
  startNs: timeNs("≥ 0").default(0).describe("time the pattern starts generating, ns"),
  stopNs: timeNs("> 0")
    .optional()
    .describe("time the pattern stops generating (exclusive), ns; default: the run's end"),
};

export interface WindowParams {
  readonly startNs: number;
  readonly stopNs?: number | undefined;
}

/** A window in picoseconds: messages start in [fromPs, untilPs). */
export interface WindowPs {
  readonly fromPs: TimePs;
  /** Exclusive; `Infinity` when neither the window nor the run ends. */
  readonly untilPs: TimePs;
}

export function windowErrors(params: WindowParams): string[] {
  return params.stopNs !== undefined && params.stopNs <= params.startNs
    ? [`stopNs = ${params.stopNs} must be after startNs = ${params.startNs}`]
    : [];
}

/** The window cut at the run's end (patterns never generate at or past `endPs`). */
export function windowPs(params: WindowParams, endPs: TimePs): WindowPs {
  const stopPs = params.stopNs === undefined ? Number.POSITIVE_INFINITY : nsToPs(params.stopNs);
  return { fromPs: nsToPs(params.startNs), untilPs: Math.min(stopPs, endPs) };
}
