/**
 * The Speculative Reservation Protocol paper (Jiang et al., HPCA 2012; seed
 * 000_23e1115f082a0339.txt): SRP beside the network without CC and the paper's
 * InfiniBand-style ECN, on the Fig. 1 network and the 256-node fat tree (lines 92–98).
 */
import type { Experiment } from "./experiment.js";
import { srpFig8To11 } from "./srp-fig8-11.js";
import { srpFig4, srpFig5, srpFig6 } from "./srp-hotspot.js";
import { srpFig7, srpFig14 } from "./srp-transients.js";
import { srpFig9, srpFig12And13 } from "./srp-uniform.js";

export { srpFig8To11 } from "./srp-fig8-11.js";
export { type HotspotFigures, srpFig4, srpFig5, srpFig6 } from "./srp-hotspot.js";
export { srpFig7, srpFig14 } from "./srp-transients.js";
export { srpFig9, srpFig12And13 } from "./srp-uniform.js";

/** The SRP experiments, in report order. */
export const SRP: readonly Experiment[] = [
  srpFig4,
  srpFig5,
  srpFig6,
  srpFig7,
  srpFig8To11,
  srpFig9,
  srpFig12And13,
  srpFig14,
];
