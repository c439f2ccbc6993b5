import { describe, expect, it } from "vitest";
import type { SweepEntry, SweepPoint } from "../data/types.js";
import { cellKey, gridCells } from "./sweep-grid.js";

const point = (id: string, x: number, y: string, seed: number, m: number | null): SweepPoint => ({
  id,
  ...(m === null ? {} : { runId: `s0.${id}` }),
  values: { x, y },
  seed,
  status: m === null ? "failed" : "complete",
  metrics: { gbps: m },
});

const sweep: SweepEntry = {
  id: "s0",
  label: "s",
  path: "s",
  name: "s",
  axes: [
    { path: "x", values: [1, 2] },
    { path: "y", values: ["a", "b"] },
  ],
  metrics: ["gbps"],
  plot: ["gbps"],
  points: [
    point("p1", 1, "a", 1, 2),
    point("p2", 1, "a", 2, 4),
    point("p3", 2, "a", 1, null),
    point("p4", 2, "b", 1, 7),
  ],
};

describe("gridCells", () => {
  it("averages a cell over its seeds and opens the first finished point's run", () => {
    const cells = gridCells(sweep, ["x", "y"], {}, "gbps");
    expect(cells.get(cellKey([1, "a"]))).toMatchObject({ mean: 3, runId: "s0.p1" });
    expect(cells.get(cellKey([2, "a"]))).toMatchObject({ mean: null });
    expect(cells.get(cellKey([2, "a"]))?.runId).toBeUndefined();
  });

  it("keeps only points with the fixed values of the other axes", () => {
    const cells = gridCells(sweep, ["x"], { y: "b" }, "gbps");
    expect([...cells.keys()]).toEqual([cellKey([2])]);
    expect(cells.get(cellKey([2]))?.mean).toBe(7);
  });
});
