/**
 * The TCD paper (Zhang et al., "Congestion Detection in Lossless Networks", SIGCOMM 2021;
 * slides: seed 004_abc94112a2f36164.txt): which flows and ports Ternary Congestion Detection
 * tells apart from plain ECN/FECN, on CEE (PFC) and InfiniBand (credits), and what it does to
 * flow completion times at scale.
 */
import type { Experiment } from "./experiment.js";
import { tcdCongestionPoints } from "./tcd-congestion-points.js";
import { tcdFct } from "./tcd-fct.js";
import { tcdTestbed } from "./tcd-testbed.js";
import { tcdVictim } from "./tcd-victim.js";

export { tcdCongestionPoints } from "./tcd-congestion-points.js";
export { tcdFct } from "./tcd-fct.js";
export { tcdTestbed } from "./tcd-testbed.js";
export { tcdVictim } from "./tcd-victim.js";

/** The TCD experiments, in report order. */
export const TCD: readonly Experiment[] = [tcdVictim, tcdTestbed, tcdCongestionPoints, tcdFct];
