import { describe, expect, it } from "vitest";
import type { SwitchPartFactory } from "./cc.js";
import { queueValueLabelErrors } from "./value-labels.js";

describe("queueValueLabelErrors", () => {
  it("accepts names of integer values per variable, negative and empty maps included", () => {
    const factory: SwitchPartFactory = {
      specVersion: "^3.4.0",
      name: "toy",
      queueValueLabels: { state: { 0: "idle", 1: "busy", [-1]: "off" }, other: {} },
      create: () => ({}),
    };
    expect(queueValueLabelErrors(factory.queueValueLabels)).toEqual([]);
    expect(queueValueLabelErrors({})).toEqual([]);
  });

  it("names the field of every problem", () => {
    expect(
      queueValueLabelErrors({
        state: { 0: "idle", "1.5": "half", x: "letter", "01": "padded", 2: "", 3: 7 },
        depth: ["a"],
        mode: null,
      }),
    ).toEqual([
      'queueValueLabels.state.2: "" (expected a non-empty name)',
      "queueValueLabels.state.3: 7 (expected a non-empty name)",
      'queueValueLabels.state: "1.5" is not an integer value',
      'queueValueLabels.state: "x" is not an integer value',
      'queueValueLabels.state: "01" is not an integer value',
      "queueValueLabels.depth: an array (expected { value: name })",
      "queueValueLabels.mode: null (expected { value: name })",
    ]);
    expect(queueValueLabelErrors("state")).toEqual([
      'queueValueLabels: "state" (expected { variable: { value: name } })',
    ]);
    expect(queueValueLabelErrors({ s: { 1e21: "huge" } })).toEqual([
      'queueValueLabels.s: "1e+21" is not an integer value',
    ]);
  });
});
