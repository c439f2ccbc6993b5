/**
 * Santos et al.'s SAN congestion control (seed 002_fea465e6cd934ce6.txt) at full length (each
 * run takes about a second). Each test asserts every finding's verdict, those that do not
 * hold included, so a change of model that makes one hold, or breaks one, shows here.
 */
import { describe, expect, it } from "vitest";
import { TIMEOUT_MS, verdicts } from "./verdicts.js";

describe("Santos et al. (HP Labs, 2002–2003)", () => {
  it(
    "congestion spreading: without CC the victim starves; with marking it still does (not reproduced); input-output fairer than input-triggered, fairer than naive",
    async () => {
      expect(await verdicts("santos-spreading", 1)).toEqual({
        "no CC: the victim's share of the free inter-switch bandwidth": true,
        "naive marking: the victim's share of the free inter-switch bandwidth": false,
        "input-triggered marking: the victim's share of the free inter-switch bandwidth": false,
        "input-output marking (8): the victim's share of the free inter-switch bandwidth": false,
        "naive marking: local flows get the larger share": true,
        "fairness, local against remote flows: input-output (8) > input-triggered > naive": true,
        "input-output marking (8): high root-link utilisation": false,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "response functions: FIMD and LIPD reclaim the root link before AIMD; under on/off traffic FIMD is not 5 % above AIMD (not reproduced)",
    async () => {
      expect(await verdicts("santos-response", 1)).toEqual({
        "recovery after the remote flows leave: FIMD and LIPD faster than AIMD": true,
        "bursty on/off traffic: root-link throughput, FIMD and LIPD above AIMD": false,
      });
    },
    TIMEOUT_MS,
  );
});
