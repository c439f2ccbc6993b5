import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { simulate, summarySchema } from "../src/index.js";
import { smallUniformScenario } from "./helpers.js";

const scenario = (seed: number, loadFraction: number) =>
  smallUniformScenario(seed, loadFraction, "determinism");

describe("reproducibility", () => {
  test.prop(
    [fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ min: 0.1, max: 0.9, noNaN: true })],
    {
      numRuns: 8,
    },
  )("same scenario and seed give byte-identical summary and series", async (seed, load) => {
    const a = await simulate(scenario(seed, load));
    const b = await simulate(scenario(seed, load));
    expect(JSON.stringify(a.summary)).toBe(JSON.stringify(b.summary));
    expect([...a.files]).toEqual([...b.files]);
    expect(summarySchema.safeParse(a.summary).success).toBe(true);
    expect(a.summary.totals.messages).toBeGreaterThan(0);
  });

  test.prop([fc.integer({ min: 0, max: 2 ** 31 })], { numRuns: 4 })(
    "another seed gives other traffic",
    async (seed) => {
      const a = await simulate(scenario(seed, 0.5));
      const b = await simulate(scenario(seed + 1, 0.5));
      expect(JSON.stringify(a.summary.flows)).not.toBe(JSON.stringify(b.summary.flows));
    },
  );
});
