/**
 * Every scenario file shipped under scenarios/ is valid as it stands: a user who copies one gets
 * a run, not an error. (The runs themselves are checked by scenarios.test.ts and, for the CC
 * experiments, by apps/reproduce/test.)
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readScenarioFile, resolveScenario } from "../src/index.js";
import { SCENARIOS } from "./helpers.js";

const files = readdirSync(SCENARIOS, { recursive: true, encoding: "utf8" })
  // Sweep files (`*.sweep.yaml`) are checked by @cclab/sweep's tests.
  .filter((f) => f.endsWith(".yaml") && !f.endsWith(".sweep.yaml"))
  .sort();

describe("shipped scenarios", () => {
  it("are found", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files)("%s resolves without issues", async (file) => {
    const { document } = readScenarioFile(`${SCENARIOS}${file}`);
    const resolved = await resolveScenario(document);
    expect(resolved.scenario.name.length).toBeGreaterThan(0);
  });
});
