import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { MAX_LINES, RUN_FIGURES, renderSvg, runFigures } from "../src/index.js";

const HEADER = "time_us,switch,port,port_name,vl,variable,value";

function runDir(lines: readonly string[], run?: unknown): string {
  const dir = scratchDir("cclab-plot-queues-");
  writeFileSync(join(dir, "summary.json"), JSON.stringify({ scenario: "made-up", flows: [] }));
  writeFileSync(join(dir, "cc-queues.csv"), [HEADER, ...lines, ""].join("\n"));
  if (run !== undefined) writeFileSync(join(dir, "run.json"), JSON.stringify(run));
  return dir;
}

/** The y encoding of a figure's line layer. */
function yOf(spec: unknown): Record<string, unknown> {
  const layers = (spec as { layer: { mark: { type: string }; encoding: { y: unknown } }[] }).layer;
  return layers.find((l) => l.mark.type === "line")!.encoding.y as Record<string, unknown>;
}

/** TCD's names for `state`, as run.json holds them (contract 3.4). */
const TCD_STATES = {
  "0": "NC: non-congestion",
  "1": "CHECK: trend after U",
  "2": "U: undetermined",
  "3": "C: congestion",
};

const STATE_ROWS = [
  "10,S1,3,S1.p3,0,state,0",
  "10,S1,3,S1.p3,0,ceMarked,0",
  "20,S1,3,S1.p3,0,state,2",
  "20,S1,3,S1.p3,0,ceMarked,4",
];

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

  it("names the values run.json names on the y axis, at those values, for that variable only", async () => {
    const run = {
      status: "complete",
      queueSeries: { file: "cc-queues.csv", valueLabels: { state: TCD_STATES } },
    };
    const [state, ce] = runFigures(runDir(STATE_ROWS, run));
    // Every state has its tick, reached (0, 2) or not (1, 3), still on a value scale.
    expect(yOf(state!.spec)).toEqual({
      field: "y",
      type: "quantitative",
      title: "state",
      scale: { domain: [0, 3], nice: false, zero: false, padding: 8 },
      axis: {
        values: [0, 1, 2, 3],
        labelExpr:
          'datum.value === 0 ? "NC: non-congestion" : datum.value === 1 ? "CHECK: trend after U" : datum.value === 2 ? "U: undetermined" : datum.value === 3 ? "C: congestion" : datum.label',
      },
    });
    expect(JSON.stringify(state!.spec)).toContain("step-after");
    expect(yOf(ce!.spec)).not.toHaveProperty("axis");
    // Rendered, the axis shows the names.
    const svg = await renderSvg(state!.spec);
    for (const name of Object.values(TCD_STATES)) expect(svg).toContain(name);
  });

  it("spans the data beyond the named values, and leaves figures unchanged without names", () => {
    const run = { queueSeries: { valueLabels: { state: { "1": "one", "2": "two", x: "no" } } } };
    const rows = [...STATE_ROWS, "30,S1,3,S1.p3,0,state,5"];
    const y = yOf(runFigures(runDir(rows, run))[0]!.spec);
    expect(y.scale).toMatchObject({ domain: [0, 5] });
    expect(y.axis).toMatchObject({ values: [1, 2] });
    const plain = { field: "y", type: "quantitative", title: "state", scale: { domainMin: 0 } };
    expect(yOf(runFigures(runDir(rows))[0]!.spec)).toEqual(plain);
    for (const odd of [{ status: "complete" }, { queueSeries: { valueLabels: ["a"] } }]) {
      expect(yOf(runFigures(runDir(rows, odd))[0]!.spec)).toEqual(plain);
    }
  });
});
