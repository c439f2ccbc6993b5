import type { QueueValueLabels, SwitchPartFactory } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { combineQueueValueLabels } from "./queue-value-labels.js";

const part = (name: string, queueValueLabels?: QueueValueLabels): SwitchPartFactory => ({
  specVersion: "^3.4.0",
  name,
  ...(queueValueLabels === undefined ? {} : { queueValueLabels }),
  create: () => ({}),
});

describe("combineQueueValueLabels", () => {
  it("gives each variable the names of the first part that names it, values as JSON keys", () => {
    const combined = combineQueueValueLabels([
      part("none"),
      part("a", { state: { 0: "idle", 1: "busy" } }),
      part("b", { state: { 0: "other", 2: "more" }, depth: { [-1]: "unknown" } }),
    ]);
    expect(combined).toEqual({ state: { "0": "idle", "1": "busy" }, depth: { "-1": "unknown" } });
    expect(JSON.parse(JSON.stringify(combined))).toEqual(combined);
    expect(combineQueueValueLabels([])).toEqual({});
  });

  it("copies the names, and takes any variable name as an own key", () => {
    const names: Record<number, string> = { 0: "idle" };
    const combined = combineQueueValueLabels([
      part("a", { state: names, ["__proto__"]: { 1: "odd" } }),
    ]);
    names[0] = "changed";
    expect(combined.state).toEqual({ "0": "idle" });
    expect(Object.keys(combined)).toEqual(["state", "__proto__"]);
    expect(Object.getPrototypeOf(combined)).toBe(Object.prototype);
  });

  it("refuses malformed names with one cc: line per problem, naming the part", () => {
    const bad = { state: { "1.5": "half", 2: "" } } as unknown as QueueValueLabels;
    expect(() =>
      combineQueueValueLabels([part("good", { state: { 0: "idle" } }), part("bad", bad)]),
    ).toThrow(
      new TypeError(
        [
          'cc: switch part "bad": queueValueLabels.state.2: "" (expected a non-empty name)',
          'cc: switch part "bad": queueValueLabels.state: "1.5" is not an integer value',
        ].join("\n"),
      ),
    );
  });
});
