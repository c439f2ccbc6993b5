/**
 * The E2CM slides' six scenarios (seed 003_b214e58ba856b6a6.txt), BCN beside E2CM: the
 * input-generated ones at 60 % length, the parking lot at half length, the output-generated
 * ones at 20 % (200 ms), the bursty one at full length (its on/off windows are the traffic's
 * own). Each test asserts every finding's verdict, those that do not hold included, so a change
 * of model that makes one hold, or breaks one, shows here.
 */
import { describe, expect, it } from "vitest";
import { TIMEOUT_MS, verdicts } from "./verdicts.js";

describe("E2CM and BCN (IBM, IEEE 802.1au 2007)", () => {
  it(
    "input-generated hot spot: E2CM gives each culprit 2.5 Gb/s and the victim 5; BCN is unfair",
    async () => {
      expect(await verdicts("e2cm-ig-baseline", 0.6)).toEqual({
        "BCN: the victim's throughput": true,
        "E2CM: each culprit's throughput": true,
        "E2CM: the victim's throughput": true,
        "BCN against E2CM: fairness among the culprits": true,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "mice and elephants: E2CM within 10 % of max-min before and after the halving; BCN not",
    async () => {
      expect(await verdicts("e2cm-mice-elephant", 0.6)).toEqual({
        "E2CM, before the halving: max-min fair rates": true,
        "E2CM, after the halving: max-min fair rates": true,
        "BCN against E2CM: fairness among the five flows, before the halving": true,
        "BCN against E2CM: fairness among the five flows, after the halving": true,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "output-generated hot spots: E2CM's hot queue does not converge twice as fast as BCN's",
    async () => {
      const single = await verdicts("e2cm-og-single-hop", 0.2);
      const multi = await verdicts("e2cm-og-multi-hop", 0.2);
      expect({ single, multi }).toEqual({
        single: { "convergence of the hot queue, relative accuracy 0.1": false },
        multi: { "convergence of the hot queue, relative accuracy 0.1": false },
      });
    },
    TIMEOUT_MS,
  );

  it(
    "bursty hot spot: no scheme re-converges within 5 ms after every toggle",
    async () => {
      expect(await verdicts("e2cm-bursty", 1)).toEqual({
        "BCN: convergence after each on/off toggle": false,
        "E2CM: convergence after each on/off toggle": false,
        "E2CM (orientative IG gains): convergence after each on/off toggle": false,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "parking lot: neither BCN at the proportional point nor E2CM at max-min within 15 % per flow",
    async () => {
      expect(await verdicts("e2cm-parking-lot", 0.5)).toEqual({
        "BCN: proportional fair allocation": false,
        "E2CM, per-flow Qeq: max-min fair allocation": false,
        "E2CM, Qeq 15 KB: max-min fair allocation": false,
      });
    },
    TIMEOUT_MS,
  );
});
