import { describe, expect, it } from "vitest";
import { Counter, Counters } from "./counter.js";

describe("Counter and Counters", () => {
  it("count up and refuse to go down", () => {
    const c = new Counter();
    c.add();
    c.add(41);
    expect(c.value).toBe(42);
    expect(() => c.add(-1)).toThrow(/only grows/);
  });

  it("keep named counts in first-counted order", () => {
    const marks = new Counters();
    marks.add("fecn", 3);
    marks.add("becn");
    marks.add("fecn");
    expect(marks.get("fecn")).toBe(4);
    expect(marks.get("cnp")).toBe(0);
    expect(JSON.stringify(marks)).toBe('{"fecn":4,"becn":1}');
    expect(() => marks.add("x", Number.NaN)).toThrow(/counter "x"/);
  });
});
