import { describe, expect, it } from "vitest";
import {
  choiceOption,
  describeValue,
  intOption,
  latencyOption,
  namesOption,
  optionBag,
  rateOption,
} from "./options.js";

describe("option checks", () => {
  it("reject non-objects and unknown keys, naming the builder and the allowed keys", () => {
    expect(optionBag("b", undefined, ["x"])).toEqual({});
    expect(() => optionBag("b", 3, ["x"])).toThrow(TypeError);
    expect(() => optionBag("b", [], ["x"])).toThrow(/b: options must be an object, got an array/);
    expect(() => optionBag("b", { y: 1 }, ["x", "z"])).toThrow(
      /b: unknown option "y" \(allowed: x, z\)/,
    );
  });

  it("rates must be finite and > 0 Gb/s, latencies finite and ≥ 0 ns", () => {
    expect(rateOption("b", "rateGbps", undefined, 10)).toBe(10);
    expect(rateOption("b", "rateGbps", 2.5, 10)).toBe(2.5);
    expect(() => rateOption("b", "rateGbps", 0, 10)).toThrow(RangeError);
    expect(() => rateOption("b", "rateGbps", -1, 10)).toThrow(
      /"rateGbps" must be a finite rate > 0 Gb\/s, got -1/,
    );
    expect(() => rateOption("b", "rateGbps", Number.POSITIVE_INFINITY, 10)).toThrow(RangeError);
    expect(() => rateOption("b", "rateGbps", "10", 10)).toThrow(TypeError);
    expect(() => rateOption("b", "rateGbps", Number.NaN, 10)).toThrow(TypeError);
    expect(latencyOption("b", "latencyNs", 0, 5)).toBe(0);
    expect(() => latencyOption("b", "latencyNs", -0.5, 5)).toThrow(
      /"latencyNs" must be a finite latency ≥ 0 ns/,
    );
  });

  it("integers: required or defaulted, in range", () => {
    expect(intOption("b", "k", undefined, { min: 2, fallback: 4 })).toBe(4);
    expect(() => intOption("b", "k", undefined, { min: 2 })).toThrow(
      /"k" is required \(an integer ≥ 2\)/,
    );
    expect(() => intOption("b", "k", 1.5, { min: 1 })).toThrow(RangeError);
    expect(() => intOption("b", "k", 9, { min: 1, max: 8 })).toThrow(/an integer in 1..8, got 9/);
  });

  it("choices and names", () => {
    expect(choiceOption("b", "r", undefined, ["x", "y"], "x")).toBe("x");
    expect(() => choiceOption("b", "r", "z", ["x", "y"], "x")).toThrow(
      /"r" must be one of "x", "y", got "z"/,
    );
    expect(namesOption("b", "n", undefined, 2, (i) => `H${i}`)).toEqual(["H0", "H1"]);
    expect(() => namesOption("b", "n", ["a"], 2, String)).toThrow(/must hold 2 names, got 1/);
    expect(() => namesOption("b", "n", ["a", "a"], 2, String)).toThrow(
      /"n\[1\]" repeats the name "a"/,
    );
    expect(() => namesOption("b", "n", ["a", ""], 2, String)).toThrow(TypeError);
    expect(describeValue("x".repeat(50))).toMatch(/…"$/);
    expect(describeValue(null)).toBe("null");
  });
});
