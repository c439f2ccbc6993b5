/**
 * `size: { kind: "cdf", … }` as a scenario writes it: one of `distribution` and `points`, and
 * each rule of a CDF refused with the path of the field that breaks it.
 */
import { describe, expect, it } from "vitest";
import { MAX_CDF_POINTS } from "./cdf-points.js";
import { sizeSchema } from "./size.js";

/** The issues of `size` as `path: message`, path joined with dots. */
function issues(size: unknown): { path: string; message: string }[] {
  const result = sizeSchema.safeParse(size);
  return (result.error?.issues ?? []).map((i) => ({
    path: i.path.join("."),
    message: i.message,
  }));
}

describe("cdf sizes: what is accepted", () => {
  it.each([
    { kind: "cdf", distribution: "websearch" },
    { kind: "cdf", distribution: "hadoop" },
    { kind: "cdf", points: [[4096, 1]] }, // one point: every message 4096 bytes
    {
      kind: "cdf",
      points: [
        [100, 0.3],
        [200, 0.3],
        [1000, 1],
      ],
    }, // an atom, then a flat step
    {
      kind: "cdf",
      points: Array.from({ length: MAX_CDF_POINTS }, (_, i) => [i + 1, (i + 1) / MAX_CDF_POINTS]),
    },
  ])("accepts %j", (size) => {
    expect(issues(size)).toEqual([]);
  });
});

describe("cdf sizes: each rule, with the path of the field", () => {
  it.each([
    [
      "sizes not increasing",
      [
        [10, 0.2],
        [10, 1],
      ],
      "points.1.0",
      /sizes must increase: 10 bytes/,
    ],
    [
      "sizes decreasing",
      [
        [10, 0.2],
        [20, 0.5],
        [15, 1],
      ],
      "points.2.0",
      /not above the previous point's 20/,
    ],
    [
      "fraction decreasing",
      [
        [10, 0.5],
        [20, 0.4],
        [30, 1],
      ],
      "points.1.1",
      /must not decrease: 0.4 is below .* 0.5/,
    ],
    [
      "last fraction not 1",
      [
        [10, 0.5],
        [20, 0.99],
      ],
      "points.1.1",
      /exactly 1 .* got 0.99/,
    ],
    [
      "a size of 0 bytes",
      [
        [0, 0],
        [10, 1],
      ],
      "points.0.0",
      /.+/,
    ],
    [
      "a size not whole",
      [
        [1.5, 0],
        [10, 1],
      ],
      "points.0.0",
      /.+/,
    ],
    [
      "a negative first fraction",
      [
        [1, -0.1],
        [10, 1],
      ],
      "points.0.1",
      /.+/,
    ],
    [
      "a fraction above 1",
      [
        [1, 0],
        [10, 1.5],
      ],
      "points.1.1",
      /.+/,
    ],
    [
      "a point of three numbers",
      [
        [1, 0, 3],
        [10, 1],
      ],
      "points.0",
      /.+/,
    ],
  ])("%s", (_, points, path, message) => {
    const found = issues({ kind: "cdf", points });
    expect(found.map((i) => i.path)).toContain(path);
    expect(found.find((i) => i.path === path)!.message).toMatch(message);
  });

  it("reports only the first break of each rule, however long the list", () => {
    const points = Array.from({ length: 1000 }, (_, i) => [1000 - i, 1]);
    expect(issues({ kind: "cdf", points }).map((i) => i.path)).toEqual(["points.1.0"]);
  });

  it("refuses an empty list and one of more than MAX_CDF_POINTS points", () => {
    expect(issues({ kind: "cdf", points: [] }).map((i) => i.path)).toEqual(["points"]);
    const tooMany = Array.from({ length: MAX_CDF_POINTS + 1 }, (_, i) => [i + 1, 1]);
    expect(issues({ kind: "cdf", points: tooMany }).map((i) => i.path)).toEqual(["points"]);
  });

  it("wants exactly one of distribution and points", () => {
    expect(issues({ kind: "cdf" })).toEqual([
      {
        path: "distribution",
        message: "give exactly one of distribution (websearch, hadoop) or points",
      },
    ]);
    expect(issues({ kind: "cdf", distribution: "hadoop", points: [[1, 1]] })).toEqual([
      { path: "points", message: "give exactly one of distribution (websearch, hadoop) or points" },
    ]);
  });

  it("names the built-ins when the distribution is unknown, and refuses other keys", () => {
    const [unknown] = issues({ kind: "cdf", distribution: "cache" });
    expect(unknown?.path).toBe("distribution");
    expect(unknown?.message).toMatch(/websearch.*hadoop/);
    expect(issues({ kind: "cdf", distribution: "hadoop", bytes: 3 }).length).toBeGreaterThan(0);
  });
});
