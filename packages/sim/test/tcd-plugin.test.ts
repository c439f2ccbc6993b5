/**
 * The built-in `tcd` plugin (@cclab/cc-tcd): a detector only, combined in a scenario with the
 * hosts' reaction of another plugin, and the composition check when the two do not fit.
 */
import { describe, expect, it } from "vitest";
import { ccPlugins, prepare, resolveScenario, ScenarioError, simulate } from "../src/index.js";

const scenario = (cc: unknown) => ({
  name: "tcd",
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: 1, dst: 0 },
        { src: 2, dst: 0 },
        { src: 3, dst: 0 },
      ],
    },
  ],
  run: { durationUs: 100, warmupUs: 20 },
  cc,
});

async function issuesOf(input: unknown) {
  try {
    prepare(await resolveScenario(input));
  } catch (error) {
    if (error instanceof ScenarioError) return error.issues;
    throw error;
  }
  return [];
}

describe("tcd plugin in a scenario", () => {
  it("is built in, and its resolved parameters parse to themselves", () => {
    const plugin = ccPlugins().get("tcd")!;
    expect(plugin).toBeDefined();
    const resolved = plugin.params.parse({ ceRule: "infiniband", maxTonUs: 97 });
    expect(plugin.params.parse(JSON.parse(JSON.stringify(resolved)))).toEqual(resolved);
  });

  it("runs as the switches' detector with DCQCN hosts, and reports its counters", async () => {
    const result = await simulate(
      scenario({
        switch: { plugin: "tcd", params: { red: { kMinBytes: 2000, kMaxBytes: 8000, pMax: 1 } } },
        hosts: [{ plugin: "dcqcn" }],
      }),
    );
    expect(result.scenario.cc.switch).toMatchObject({
      plugin: "tcd",
      params: { ceRule: "red", maxTonUs: 40, checkPeriodUs: 40 },
    });
    const counters = result.summary.totals.ccCounters;
    expect(counters.ceMarked).toBeGreaterThan(0);
    expect(counters).toHaveProperty("ueMarked");
    expect(counters).toHaveProperty("timeInUUs");
    expect(result.summary.totals.marks.ecnCe).toBeGreaterThan(0);
  });

  it("runs with ceRule infiniband and InfiniBand hosts", async () => {
    const result = await simulate(
      scenario({
        switch: {
          plugin: "tcd",
          params: { ceRule: "infiniband", infiniband: { thresholdBytes: 4000, markingRate: 0 } },
        },
        hosts: [{ plugin: "infiniband" }],
      }),
    );
    expect(result.summary.totals.marks.fecn).toBeGreaterThan(0);
    expect(result.summary.totals.marks.ecnCe).toBe(0);
  });

  it("rejects ceRule red with InfiniBand hosts, naming the field nothing writes and the rule", async () => {
    const issues = await issuesOf(
      scenario({ switch: { plugin: "tcd" }, hosts: [{ plugin: "infiniband" }] }),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe("cc");
    expect(issues[0]!.message).toMatch(/reads fecn, which no part of the fabric writes/);
    expect(issues[0]!.message).toMatch(
      /tcd switch \(ceRule red: UE and ECN CE\)" of scheme "tcd" writes ecn, tcd\.code/,
    );
  });

  it("rejects ceRule infiniband with DCQCN hosts, naming ecn", async () => {
    const issues = await issuesOf(
      scenario({
        switch: { plugin: "tcd", params: { ceRule: "infiniband" } },
        hosts: [{ plugin: "dcqcn" }],
      }),
    );
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/reads ecn, which no part of the fabric writes .*ceRule infiniband/),
    ]);
  });
});
