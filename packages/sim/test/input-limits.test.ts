import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import {
  applyOverrides,
  estimateMemory,
  MAX_BINS,
  MAX_DEPTH,
  parseScenarioText,
  prepare,
  readScenarioFile,
  resolveScenario,
  ScenarioError,
} from "../src/index.js";
import { VALID } from "./malformed-cases.js";
import { scratchDir } from "./scratch-dir.js";

/**
 * Input that once crashed, hung or exhausted memory (issue 34) is an input error: a
 * ScenarioError naming the field, never a stack overflow, a polluted Object.prototype or a
 * sparse list of 10^8 holes.
 */
const dir = scratchDir("cclab-limits-");

/** The error `fn` throws, which must be a ScenarioError. */
function scenarioError(fn: () => unknown): ScenarioError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error("expected a ScenarioError, nothing was thrown");
}

async function validate(document: unknown): Promise<ScenarioError | undefined> {
  try {
    prepare(await resolveScenario(document));
    return undefined;
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
}

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

afterEach(() => {
  // Nothing here may reach Object.prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
});

describe("input limits", () => {
  it("refuses a YAML alias bomb", () => {
    const levels = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let text = `${levels[0]}: &${levels[0]} [x, x, x, x, x, x, x, x, x]\n`;
    for (let i = 1; i < levels.length; i++) {
      const prev = `*${levels[i - 1]}`;
      text += `${levels[i]}: &${levels[i]} [${Array(9).fill(prev).join(", ")}]\n`;
    }
    const error = scenarioError(() => parseScenarioText(text, "bomb.yaml"));
    expect(error.message).toContain("too many YAML alias references");
  });

  it("keeps ordinary aliases", () => {
    const text = "name: x\nbase: &b { kind: single-switch, hosts: 4 }\ntopology: *b\n";
    expect(parseScenarioText(text)).toMatchObject({ topology: { hosts: 4 } });
  });

  // Built as text: JSON.stringify of a 5,000-deep object overflows the test's own stack.
  const deepJson = (depth: number) =>
    `{"name": "x", "traffic": [${'{"a": '.repeat(depth)}1${"}".repeat(depth)}]}`;

  it("refuses JSON nested 5,000 deep, naming the path", () => {
    const error = scenarioError(() => parseScenarioText(deepJson(5000), "deep.json"));
    expect(error.issues[0]!.path).toMatch(/^traffic\[0\](\.a)+$/);
    expect(error.issues[0]!.message).toContain(`more than ${MAX_DEPTH} levels`);
  });

  it.each([100, 5000])("refuses YAML nested %s deep", (depth) => {
    const error = scenarioError(() => parseScenarioText(deepJson(depth), "deep.yaml"));
    expect(error.message).toMatch(/more than 64 levels|nested too deeply/);
  });

  it("refuses YAML block maps nested 5,000 deep", () => {
    let text = "";
    for (let i = 0; i < 5000; i++) text += `${" ".repeat(i)}a:\n`;
    text += `${" ".repeat(5000)}1\n`;
    const error = scenarioError(() => parseScenarioText(text, "deep.yaml"));
    expect(error.message).toMatch(/more than 64 levels|nested too deeply/);
  });

  it("refuses 5,000-deep documents given to resolveScenario and applyOverrides", async () => {
    const error = await validate({ ...VALID, traffic: [nested(5000)] });
    expect(error?.message).toContain(`more than ${MAX_DEPTH} levels`);
    scenarioError(() => applyOverrides({ deep: nested(5000) }, ["run.durationUs=5"]));
  });

  it("refuses a 5,000-deep --set value", () => {
    const value = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const error = scenarioError(() => applyOverrides(VALID, [`traffic=${value}`]));
    expect(error.message).toMatch(/more than 64 levels|nested too deeply/);
  });

  it("accepts nesting up to the limit", () => {
    expect(() => parseScenarioText(JSON.stringify(nested(MAX_DEPTH - 1)), "x.json")).not.toThrow();
  });

  it.each([
    "__proto__.polluted=1",
    "constructor.prototype.polluted=1",
    "traffic[0].__proto__.polluted=1",
    "topology.constructor=1",
  ])("refuses --set %s", (assignment) => {
    const error = scenarioError(() => applyOverrides(VALID, [assignment]));
    expect(error.issues[0]!.path).toBe(assignment.slice(0, assignment.indexOf("=")));
    expect(error.issues[0]!.message).toContain("is not allowed");
  });

  it("refuses a --set value with a prototype key", () => {
    const error = scenarioError(() => applyOverrides(VALID, ["host={__proto__: {polluted: 1}}"]));
    expect(error.issues[0]!.path).toBe("host.__proto__");
  });

  it.each([
    ['{"name": "x", "__proto__": {"polluted": 1}}', "x.json", "__proto__"],
    ["name: x\n__proto__: { polluted: 1 }\n", "x.yaml", "__proto__"],
    ["name: x\ntopology: { constructor: 1 }\n", "x.yaml", "topology.constructor"],
    ["name: x\ntraffic: [{ prototype: 1 }]\n", "x.yaml", "traffic[0].prototype"],
  ])("refuses a prototype key in a file: %s", (text, file, path) => {
    const error = scenarioError(() => parseScenarioText(text, file));
    expect(error.issues.map((i) => i.path)).toContain(path);
  });

  it("refuses a prototype key in a document given to resolveScenario", async () => {
    const document = JSON.parse('{"name": "x", "__proto__": {"polluted": 1}}');
    expect((await validate(document))?.issues[0]?.path).toBe("__proto__");
  });

  it("refuses a --set index beyond a list's end, naming the range", () => {
    const error = scenarioError(() => applyOverrides(VALID, ["traffic[99999999].pattern=uniform"]));
    expect(error.issues[0]!.path).toBe("traffic[99999999].pattern");
    expect(error.issues[0]!.message).toContain("traffic (1 items): use 0..1");
  });

  it("appends at an index equal to the length, and sets within", () => {
    const out = applyOverrides(VALID, [
      "traffic[1].pattern=uniform",
      "traffic[1].loadFraction=0.2",
      "traffic[0].loadFraction=0.3",
      "cc.hosts[0].plugin=x",
    ]) as typeof VALID;
    expect(out.traffic).toHaveLength(2);
    expect(out.traffic[0]!.loadFraction).toBe(0.3);
    expect(out).toMatchObject({ cc: { hosts: [{ plugin: "x" }] } });
    scenarioError(() => applyOverrides(VALID, ["cc.hosts[1].plugin=x"]));
  });

  it("refuses a name where a list needs an index", () => {
    const error = scenarioError(() => applyOverrides(VALID, ["traffic.pattern=uniform"]));
    expect(error.message).toContain("is a list");
  });

  it("lists every bad --set at once", () => {
    const error = scenarioError(() =>
      applyOverrides(VALID, ["__proto__.x=1", "traffic[5].pattern=x", "nope"]),
    );
    expect(error.issues).toHaveLength(3);
  });

  it.each([1e-6, 5e-324, 0.0001])("refuses metrics.binUs %s", async (binUs) => {
    const error = await validate({ ...VALID, metrics: { binUs } });
    const issue = error?.issues.find((i) => i.path === "metrics.binUs");
    expect(issue?.message).toContain("≥ 0.001 µs");
  });

  it("refuses more than 10^6 bins over run.durationUs", async () => {
    const error = await validate({
      ...VALID,
      run: { durationUs: 2000 },
      metrics: { binUs: 0.001 },
    });
    const issue = error?.issues.find((i) => i.path === "metrics.binUs");
    expect(issue?.message).toContain(`at most ${MAX_BINS} bins`);
    expect(
      await validate({ ...VALID, run: { durationUs: 1000 }, metrics: { binUs: 0.001 } }),
    ).toBeUndefined();
  });

  it("refuses infinite and NaN durations", async () => {
    for (const durationUs of [Number.POSITIVE_INFINITY, Number.NaN, 1e300]) {
      const error = await validate({ ...VALID, run: { durationUs } });
      expect(error?.issues.map((i) => i.path)).toContain("run.durationUs");
    }
  });

  it("reads a file with --set through readScenarioFile without polluting", () => {
    const file = join(dir, "s.yaml");
    writeFileSync(file, stringify(VALID));
    scenarioError(() => readScenarioFile(file, { set: ["__proto__.polluted=1"] }));
    scenarioError(() => readScenarioFile(file, { set: ["traffic[99999999].pattern=uniform"] }));
  });
});

describe("memory estimate", () => {
  it("counts the series' bins, messages.csv and the flow table", async () => {
    const base = estimateMemory(await resolveScenario(VALID));
    expect(base.bins).toBe(2); // 20 µs in 10 µs bins
    const fine = estimateMemory(
      await resolveScenario({ ...VALID, run: { durationUs: 1000 }, metrics: { binUs: 0.001 } }),
    );
    expect(fine.bins).toBe(1_000_000);
    const series = (e: typeof base) => e.parts.find((p) => p.name === "series")!.bytes;
    expect(series(fine)).toBeGreaterThan(series(base) * 1e5);
    const lean = estimateMemory(
      await resolveScenario({ ...VALID, metrics: { messageTable: false, flowTable: false } }),
    );
    expect(lean.bytes).toBeLessThan(base.bytes);
    const untilComplete = estimateMemory(
      await resolveScenario({
        ...VALID,
        traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1, totalBytes: 1000 }] }],
        run: { untilComplete: true },
      }),
    );
    expect(untilComplete.bins).toBeNull();
  });
});
