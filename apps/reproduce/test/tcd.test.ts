/**
 * The TCD reproductions (seed 004_abc94112a2f36164.txt) at reduced length: the victim scenario
 * at 0.5 of its 3.1 ms (incast from 50 µs to 1.55 ms), the testbed as shipped (5 ms: its ON-OFF
 * phase starts only after about 1 ms), the congestion points as shipped too (see there), and
 * the FCT runs at 0.25 of their length (sixteen runs: messages generated for 1.5 ms, counted
 * from 0.25 ms, delivered by 4 ms (Hadoop) or 5 ms (WebSearch); 65–90 s in all on the
 * project's 2-core VM with another job running). Each test asserts every finding's verdict,
 * those that do not hold included, so a change of model that makes one hold, or breaks one,
 * shows here.
 */
import { describe, expect, it } from "vitest";
import { TIMEOUT_MS, verdicts } from "./verdicts.js";

describe("TCD paper", () => {
  it(
    "victim scenario: TCD never marks the victim CE; plain FECN does, plain ECN hardly (no ON-OFF here)",
    async () => {
      expect(await verdicts("tcd-victim", 0.5)).toEqual({
        "CEE, plain DCQCN (RED/ECN): victim's packets delivered with ECN CE": false,
        "CEE, TCD + DCQCN: victim's packets delivered with ECN CE": true,
        "InfiniBand, plain IB CC (FECN): victim's packets delivered with FECN": true,
        "InfiniBand, TCD + IB CC: victim's packets delivered with FECN": true,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "testbed: F0 is undetermined on both disciplines; on IB TCD marks some of it CE at the onset",
    async () => {
      expect(await verdicts("tcd-testbed", 1)).toEqual({
        "CEE: F0's packets marked CE by TCD": true,
        "CEE: F0's packets marked UE by TCD": true,
        "InfiniBand: F0's packets marked CE by TCD": false,
        "InfiniBand: F0's packets marked UE by TCD": true,
      });
    },
    TIMEOUT_MS,
  );

  // As shipped (15 ms, some 1 s of wall time per run): the phases follow how long the inputs
  // take to fill and drain, which scaling the flows' times would not follow.
  it(
    "congestion points: P2 U → NC and U → C as on the slides, except U → CHECK with IB credits; P1 leaves U once P2 drains, and on CEE with two points in ON periods that outlast max(T_on)",
    async () => {
      expect(await verdicts("tcd-congestion-points", 1)).toEqual({
        "CEE, single congestion point: P2's states end U → NC": true,
        "CEE, single congestion point: P1 stays U once undetermined": false,
        "CEE, two congestion points: P2's states contain U → C": true,
        "CEE, two congestion points: P1 stays U once undetermined": false,
        "InfiniBand, single congestion point: P2's states end U → NC": true,
        "InfiniBand, single congestion point: P1 stays U once undetermined": false,
        "InfiniBand, two congestion points: P2's states contain U → C": false,
        "InfiniBand, two congestion points: P1 stays U once undetermined": true,
      });
    },
    TIMEOUT_MS,
  );

  // The sixteen FCT runs in one test, at a quarter of their length: TCD changes the median and
  // p99 slowdowns by a few per cent either way, nowhere the abstract's 3.3× and 2.0×, and on IB
  // it never finds an undetermined port.
  it(
    "FCT at scale: neither pair reproduces the 3.3× median and 2.0× p99 ratios, nor improves both",
    async () => {
      expect(await verdicts("tcd-fct", 0.25)).toEqual({
        "Hadoop 50 %, DCQCN vs DCQCN+TCD: median FCT slowdown, without TCD / with TCD": false,
        "Hadoop 50 %, DCQCN vs DCQCN+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "Hadoop 50 %, DCQCN vs DCQCN+TCD: TCD improves median and p99 FCT slowdown": false,
        "Hadoop 50 %, IB CC vs IB CC+TCD: median FCT slowdown, without TCD / with TCD": false,
        "Hadoop 50 %, IB CC vs IB CC+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "Hadoop 50 %, IB CC vs IB CC+TCD: TCD improves median and p99 FCT slowdown": false,
        "Hadoop 70 %, DCQCN vs DCQCN+TCD: median FCT slowdown, without TCD / with TCD": false,
        "Hadoop 70 %, DCQCN vs DCQCN+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "Hadoop 70 %, DCQCN vs DCQCN+TCD: TCD improves median and p99 FCT slowdown": false,
        "Hadoop 70 %, IB CC vs IB CC+TCD: median FCT slowdown, without TCD / with TCD": false,
        "Hadoop 70 %, IB CC vs IB CC+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "Hadoop 70 %, IB CC vs IB CC+TCD: TCD improves median and p99 FCT slowdown": false,
        "WebSearch 50 %, DCQCN vs DCQCN+TCD: median FCT slowdown, without TCD / with TCD": false,
        "WebSearch 50 %, DCQCN vs DCQCN+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "WebSearch 50 %, DCQCN vs DCQCN+TCD: TCD improves median and p99 FCT slowdown": false,
        "WebSearch 50 %, IB CC vs IB CC+TCD: median FCT slowdown, without TCD / with TCD": false,
        "WebSearch 50 %, IB CC vs IB CC+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "WebSearch 50 %, IB CC vs IB CC+TCD: TCD improves median and p99 FCT slowdown": false,
        "WebSearch 70 %, DCQCN vs DCQCN+TCD: median FCT slowdown, without TCD / with TCD": false,
        "WebSearch 70 %, DCQCN vs DCQCN+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "WebSearch 70 %, DCQCN vs DCQCN+TCD: TCD improves median and p99 FCT slowdown": false,
        "WebSearch 70 %, IB CC vs IB CC+TCD: median FCT slowdown, without TCD / with TCD": false,
        "WebSearch 70 %, IB CC vs IB CC+TCD: p99 FCT slowdown, without TCD / with TCD": false,
        "WebSearch 70 %, IB CC vs IB CC+TCD: TCD improves median and p99 FCT slowdown": false,
      });
    },
    2 * TIMEOUT_MS,
  );
});
