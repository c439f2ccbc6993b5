/**
 * What the TCD reproductions share (Zhang et al., "Congestion Detection in Lossless Networks",
 * SIGCOMM 2021; slides: seed 004_abc94112a2f36164.txt): a flow's row and the fractions of its
 * delivered data packets that carried each mark, and a switch port's flow-control figures.
 */
import type { SimulationResult } from "@cclab/sim";
import { fmt } from "./experiment.js";
import { portRow } from "./result-table.js";

export const SEED = "seed 004_abc94112a2f36164.txt";

type FlowRow = SimulationResult["summary"]["flows"][number];

/** The flow sent by the host named `src` (each TCD scenario has one flow per sender). */
export function flowFrom(result: SimulationResult, src: string): FlowRow {
  const flow = result.summary.flows.find((f) => f.srcName === src);
  if (flow === undefined) throw new Error(`${result.summary.scenario}: no flow from ${src}`);
  return flow;
}

/** Fractions of a flow's delivered data packets with ECN CE, ECN UE and FECN (whole run). */
export interface MarkFractions {
  readonly ecnCe: number;
  readonly ecnUe: number;
  readonly fecn: number;
}

export function markFractions(flow: FlowRow): MarkFractions {
  const n = flow.deliveredPackets;
  const of = (count: number) => (n === 0 ? Number.NaN : count / n);
  return { ecnCe: of(flow.marks.ecnCe), ecnUe: of(flow.marks.ecnUe), fecn: of(flow.marks.fecn) };
}

/** A fraction as a percentage with `digits` decimals, e.g. 0.266 → "26.6 %". */
export const percent = (fraction: number, digits = 1): string => `${fmt(fraction * 100, digits)} %`;

/** Signed difference of two fractions in percentage points, e.g. "−3.1 points". */
export const points = (ours: number, paper: number): string =>
  `${ours >= paper ? "+" : "−"}${fmt(Math.abs(ours - paper) * 100, 1)} points`;

/** Flow-control figures of one switch output (data VL 0), from `ports.csv`. */
export interface PortFlowControl {
  readonly blockedUs: number;
  readonly offTransitions: number;
  /** The most the port's input buffer (from the peer) held on VL 0, bytes. */
  readonly maxInputBytes: number;
}

/** The output of switch `device` whose cable leads to `peerDevice` (e.g. SA's port to SB). */
export function portFlowControl(
  result: SimulationResult,
  device: string,
  peerDevice: string,
): PortFlowControl {
  const { row, col } = portRow(result, device, peerDevice);
  return {
    blockedUs: Number(row[col("blocked_us")]),
    offTransitions: Number(row[col("off_transitions")]),
    maxInputBytes: Number(row[col("max_input_bytes")]),
  };
}
