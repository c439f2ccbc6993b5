import { describe, expect, it } from "vitest";
import { prepare, resolveScenario, ScenarioError } from "../src/index.js";
import { MALFORMED, VALID } from "./malformed-cases.js";

/** Validation as `cclab validate` does it: schema, then building the network. */
async function validate(document: unknown): Promise<ScenarioError | undefined> {
  try {
    prepare(await resolveScenario(document));
    return undefined;
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
}

describe("malformed scenarios are rejected before the run, naming the field", () => {
  it("accepts the valid base scenario", async () => {
    expect(await validate(VALID)).toBeUndefined();
  });

  it.each(MALFORMED)("$what → $path", async ({ document, path, says }) => {
    const error = await validate(document);
    expect(error).toBeInstanceOf(ScenarioError);
    const issue = error!.issues.find((i) => i.path === path);
    expect(issue, `issues: ${error!.message}`).toBeDefined();
    expect(issue!.message).toContain(says);
  });

  it("lists every problem it can find in one run: schema, plugins, run, and the devices' checks", async () => {
    const error = await validate({
      name: "broken",
      topology: { kind: "single-switch", hosts: 4, rateGbps: 10 },
      switch: { buffer: { model: "partitioned", bytesPerPortVl: 100 } },
      traffic: [
        { pattern: "hotspot", hotspot: "H9", senders: [1, 2], group: "x" },
        { pattern: "uniform", loadFraction: 2 },
      ],
      cc: { switch: { plugin: "nope" } },
      run: { durationUs: 100, warmupUs: 200 },
    });
    expect(error!.issues.map((i) => i.path)).toEqual([
      "traffic[0].hotspot",
      "traffic[0]",
      "traffic[1].loadFraction",
      "cc.switch.plugin",
      "run.warmupUs",
      "switch.buffer.bytesPerPortVl",
    ]);
  });

  it("reports several problems at once", async () => {
    const error = await validate({
      ...VALID,
      seed: -1,
      host: { mtuBytes: 0 },
      traffic: [{ pattern: "uniform", loadFraction: 0.5, bogus: 1 }],
    });
    expect(error!.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(["seed", "host.mtuBytes", "traffic[0]"]),
    );
  });
});
