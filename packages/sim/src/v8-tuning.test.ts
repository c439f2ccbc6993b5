import { describe, expect, it } from "vitest";
import { flagsToSet, SIMULATION_V8_FLAGS, tunedV8Flags, tuneV8ForSimulation } from "./v8-tuning.js";

describe("V8 inlining budgets (tuneV8ForSimulation)", () => {
  it("sets every flag the process was not started with", () => {
    expect(flagsToSet([])).toEqual([...SIMULATION_V8_FLAGS]);
    expect(flagsToSet(["--conditions=@cclab/source", "--stack-size=984", "run.js"])).toEqual([
      ...SIMULATION_V8_FLAGS,
    ]);
  });

  it("leaves a budget given on the command line or in NODE_OPTIONS, in either spelling", () => {
    expect(flagsToSet(["--max-inlined-bytecode-size=100"])).toEqual([
      "--max-inlined-bytecode-size-cumulative=2400",
    ]);
    expect(flagsToSet(["--max_inlined_bytecode_size_cumulative=5000", ""])).toEqual([
      "--max-inlined-bytecode-size=700",
    ]);
    expect(
      flagsToSet(["--max-inlined-bytecode-size", "--max-inlined-bytecode-size-cumulative=1"]),
    ).toEqual([]);
  });

  it("sets them once and reports what it set", () => {
    const first = tuneV8ForSimulation();
    expect(tuneV8ForSimulation()).toBe(first);
    expect(tunedV8Flags()).toBe(first);
    expect(SIMULATION_V8_FLAGS).toEqual(expect.arrayContaining([...first]));
  });
});
