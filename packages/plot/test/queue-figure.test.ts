import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { MAX_LINES, RUN_FIGURES, runFigures } from "../src/index.js";

const HEADER = "time_us,switch,port,port_name,vl,variable,value";

function runDir(lines: readonly string[]): string {
  const dir = scratchDir("cclab-plot-queues-");
  writeFileSync(join(dir, "summary.json"), JSON.stringify({ scenario: "made-up", flows: [] }));
  writeFileSync(join(dir, "cc-queues.csv"), [HEADER, ...lines, ""].join("\n"));
  return dir;
}

describe("the cc-queues figures", () => {
  it("draws one figure per variable, a step line per queue labelled by port name and VL", () => {
    const dir = runDir([
      "10,S1,3,S1.p3,0,state,0",
      "10,S1,3,S1.p3,0,ceMarked,0",
      "20,S1,3,S1.p3,0,state,2",
      "20,S1,3,S1.p3,0,ceMarked,0",
      "20,S2,2,S2.p2,0,state,3",
      "20,S2,2,S2.p2,0,ceMarked,5",
    ]);
    expect(RUN_FIGURES).toContain("cc-queues");
    const figures = runFigures(dir);
    expect(figures.map((f) => f.name)).toEqual(["cc-queues-state", "cc-queues-ceMarked"]);
    const spec = JSON.stringify(figures[0]!.spec);
    for (const text of ["CC state per switch egress queue, state", "S1.p3 VL 0", "S2.p2 VL 0"]) {
      expect(spec).toContain(text);
    }
    expect(spec).toContain("step-after");
    expect(spec).toContain('"y":2');
    expect(JSON.stringify(figures[1]!.spec)).not.toContain('"y":2,');
  });

  it("keeps the queues with the largest sum of samples beyond the line limit, or those --port names", () => {
    const lines = Array.from(
      { length: MAX_LINES + 3 },
      (_, p) => `10,S1,${p},S1.p${p},0,queueBytes,${100 * p}`,
    );
    const series = (spec: unknown) =>
      new Set(
        (spec as { layer: { data: { values: { series: string }[] } }[] }).layer[0]!.data.values.map(
          (v) => v.series,
        ),
      );
    const busiest = series(runFigures(runDir(lines))[0]!.spec);
    expect(busiest.size).toBe(MAX_LINES);
    // The three smallest queues (ports 0, 1, 2) are left out.
    expect(busiest.has("S1.p14 VL 0")).toBe(true);
    expect(busiest.has("S1.p3 VL 0")).toBe(true);
    expect(["S1.p0", "S1.p1", "S1.p2"].some((p) => busiest.has(`${p} VL 0`))).toBe(false);
    const chosen = series(runFigures(runDir(lines), undefined, { ports: ["S1.p0"] })[0]!.spec);
    expect([...chosen]).toEqual(["S1.p0 VL 0"]);
  });
});
