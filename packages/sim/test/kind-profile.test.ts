import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { kindProfileTable, simulate } from "../src/index.js";
import { flagsToSet } from "../src/v8-tuning.js";
import { smallUniformScenario } from "./helpers.js";

const scenario = (seed: number, loadFraction: number) =>
  smallUniformScenario(seed, loadFraction, "kind-profile");

describe("time per event kind (simulate's profileKinds)", () => {
  test.prop(
    [fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ min: 0.1, max: 0.9, noNaN: true })],
    { numRuns: 4 },
  )("changes no result, and counts every event once", async (seed, load) => {
    const plain = await simulate(scenario(seed, load));
    const profiled = await simulate(scenario(seed, load), { profileKinds: true });
    expect(JSON.stringify(profiled.summary)).toBe(JSON.stringify(plain.summary));
    expect([...profiled.files]).toEqual([...plain.files]);
    expect(plain.run.kindProfile).toBeUndefined();
    // simulate set the inlining budgets the process was not started with.
    expect(plain.run.v8Flags).toEqual(flagsToSet());
    const profile = profiled.run.kindProfile!;
    expect(profile.reduce((n, p) => n + p.events, 0)).toBe(profiled.run.events);
    expect(profile.find((p) => p.kind === "link: packet arrives")!.events).toBeGreaterThan(0);
  });

  it("prints a row per kind that ran, with its share of the handlers' time", () => {
    const lines = kindProfileTable([
      { kind: "link: packet arrives", events: 400, timedEvents: 25, handlerMs: 30 },
      { kind: "switch: transmission ends", events: 100, timedEvents: 7, handlerMs: 10 },
      { kind: "metrics: sample", events: 0, timedEvents: 0, handlerMs: 0 },
    ]);
    expect(lines[0]).toMatch(/^event kind\s+events\s+% of handler time\s+µs\/event$/);
    expect(lines.slice(2)).toEqual([
      "link: packet arrives          400               75.0    75.000",
      "switch: transmission ends     100               25.0   100.000",
    ]);
  });
});
