/**
 * A sweep file's `set` and axes are --set paths: a prototype key in one is an input error
 * naming it, never a write to Object.prototype (issue 34).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScenarioError } from "@cclab/sim";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { expandPoints, readSweepFile } from "../src/index.js";
import { TINY } from "./fixtures.js";

function sweepFile(text: string, name = "sweep.yaml"): string {
  const dir = scratchDir("cclab-sweep-limits-");
  writeFileSync(join(dir, "base.yaml"), stringify(TINY));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function pathsOf(f: () => unknown): string[] {
  try {
    f();
  } catch (error) {
    // SweepError, or the ScenarioError of the parser (as for a syntax error); both exit 2.
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as ScenarioError).issues.map((i) => i.path);
  }
  throw new Error("expected a SweepError");
}

const axes = { "traffic[0].loadFraction": [0.2, 0.4] };

afterEach(() => {
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
});

describe("sweep file limits", () => {
  it.each([
    [{ "__proto__.polluted": 1 }, "set.__proto__.polluted"],
    [{ "constructor.prototype.polluted": 1 }, "set.constructor.prototype.polluted"],
    [{ "traffic[0].__proto__.polluted": 1 }, "set.traffic[0].__proto__.polluted"],
  ])("refuses set %j", (set, path) => {
    const file = sweepFile(stringify({ name: "s", base: "base.yaml", set, axes }));
    expect(pathsOf(() => readSweepFile(file))).toContain(path);
  });

  it("refuses an axis path with a prototype key", () => {
    const file = sweepFile(
      stringify({ name: "s", base: "base.yaml", axes: { "__proto__.polluted": [1, 2] } }),
    );
    expect(pathsOf(() => readSweepFile(file))).toContain("axes.__proto__.polluted");
  });

  it("refuses a __proto__ key in the file itself (JSON)", () => {
    const file = sweepFile(
      `{"name": "s", "base": "base.yaml", "set": {"__proto__": {"polluted": 1}}, "axes": ${JSON.stringify(axes)}}`,
      "sweep.json",
    );
    expect(pathsOf(() => readSweepFile(file))).toContain("set.__proto__");
  });

  it("refuses a set index beyond the base's list, as an input error", () => {
    const file = sweepFile(
      stringify({ name: "s", base: "base.yaml", set: { "traffic[99999999].pattern": "x" }, axes }),
    );
    const loaded = readSweepFile(file);
    expect(() => expandPoints(loaded.sweep, loaded.baseDocument)).toThrow(/beyond the end/);
  });
});
