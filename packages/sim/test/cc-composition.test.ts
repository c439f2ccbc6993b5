import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { prepare, resolveScenario, ScenarioError, simulate } from "../src/index.js";

const LANES = fileURLToPath(new URL("./fixtures/lane-plugins.ts", import.meta.url));

const scenario = (cc: unknown, extra: Record<string, unknown> = {}) => ({
  name: "composition",
  plugins: [LANES],
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: 1, dst: 0 },
        { src: 2, dst: 3 },
      ],
    },
  ],
  run: { durationUs: 200, warmupUs: 50 },
  cc,
  ...extra,
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

describe("CC composition in a scenario", () => {
  it("rejects two plugins whose lanes conflict before the run, naming both", async () => {
    const issues = await issuesOf(
      scenario({ switch: { plugin: "toy-lane-control" }, hosts: [{ plugin: "toy-lane-low" }] }),
    );
    expect(issues).toEqual([
      {
        path: "cc",
        message:
          'lane "shared" is a control lane for switch part "control-lane switch" of scheme "toy-lane-control" but a low-priority lane for sender part "low-lane sender" of scheme "toy-lane-low"',
      },
    ]);
  });

  it("lists every conflict at once", async () => {
    const issues = await issuesOf(
      scenario({
        switch: [
          { plugin: "toy-ecn" },
          { plugin: "toy-ecn" },
          { plugin: "toy-fecn" },
          { plugin: "toy-fecn" },
        ],
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(["cc", "cc"]);
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/both write ecn/),
      expect.stringMatching(/both write fecn/),
    ]);
  });

  it("runs several switch plugins, each on its switches and VLs, and resolves them as given", async () => {
    const cc = {
      switch: [
        { plugin: "toy-ecn", vls: [0] },
        { plugin: "toy-fecn", switches: [0], vls: [1] },
      ],
    };
    const result = await simulate(scenario(cc, { switch: { vlCount: 2 } }));
    expect(result.scenario.cc.switch).toEqual([
      { plugin: "toy-ecn", params: {}, switches: "all", vls: [0] },
      { plugin: "toy-fecn", params: {}, switches: [0], vls: [1] },
    ]);
    // The flows use SL 0: only the ECN marker sees their packets.
    expect(result.summary.totals.marks.ecnCe).toBeGreaterThan(0);
    expect(result.summary.totals.marks.fecn).toBe(0);
    const again = await simulate(result.scenario);
    expect(again.summary).toEqual(result.summary);
  });

  it("rejects switches and VLs that do not exist", async () => {
    const error = await resolveScenario(
      scenario({ switch: [{ plugin: "toy-ecn", switches: [3], vls: [1] }] }),
    ).catch((e: unknown) => e);
    expect((error as ScenarioError).issues).toEqual([
      { path: "cc.switch[0].switches", message: "3 is not a switch (0..0)" },
      { path: "cc.switch[0].vls", message: "1 is not a data VL (switch.vlCount is 1: 0..0)" },
    ]);
  });
});
