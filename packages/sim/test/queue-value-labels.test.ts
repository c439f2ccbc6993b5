/**
 * The names of the `cc-queues` series' values in `run.json` (contract 3.4's
 * `queueValueLabels`, combined over a switch's parts by the runner).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  prepare,
  resolveScenario,
  resultFiles,
  ScenarioError,
  type SimulationResult,
  simulate,
} from "../src/index.js";

const PLUGINS = fileURLToPath(new URL("./fixtures/queue-label-plugins.ts", import.meta.url));

const scenario = (cc: unknown, series: readonly string[] = ["cc-queues"]) => ({
  name: "queue-labels",
  plugins: [PLUGINS],
  topology: { kind: "single-switch", hosts: 2, rateGbps: 10, latencyNs: 100 },
  traffic: [{ pattern: "scheduled", flows: [{ src: 1, dst: 0 }] }],
  run: { durationUs: 20 },
  cc,
  metrics: { binUs: 10, series },
});

/** run.json as the result directory gets it. */
function runJson(result: SimulationResult): Record<string, unknown> {
  const [, text] = resultFiles(result).find(([name]) => name === "run.json")!;
  return JSON.parse(text) as Record<string, unknown>;
}

describe("queueSeries.valueLabels in run.json", () => {
  it("names the values of the variables in the file, the first part's names for each", async () => {
    const result = await simulate(
      scenario({
        switch: [
          { plugin: "toy-mode", params: { one: "first" } },
          { plugin: "toy-mode", params: { one: "second" } },
        ],
      }),
    );
    expect(result.files.get("cc-queues.csv")).toContain(",mode,1\n");
    const { queueSeries } = runJson(result) as { queueSeries: Record<string, unknown> };
    // `level` has no names; `unused` has names but no rows.
    expect(queueSeries.valueLabels).toEqual({ mode: { "0": "zero", "1": "first" } });
  });

  it("says nothing of names in a run without the series, or with variables that have none", async () => {
    const without = await simulate(scenario({ switch: { plugin: "toy-mode" } }, ["cc"]));
    expect(runJson(without).queueSeries).toBeUndefined();
    const dcqcn = await simulate(scenario({ switch: { plugin: "dcqcn" } }));
    expect(runJson(dcqcn).queueSeries).toBeUndefined();
  });

  it("refuses a part whose names are malformed before the run, naming the part", async () => {
    const input = await resolveScenario(scenario({ switch: { plugin: "toy-bad-labels" } }));
    let issues: unknown;
    try {
      prepare(input);
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      issues = error.issues;
    }
    expect(issues).toEqual([
      {
        path: "cc",
        message: 'switch part "bad labels": queueValueLabels.mode: "1.5" is not an integer value',
      },
    ]);
  });
});
