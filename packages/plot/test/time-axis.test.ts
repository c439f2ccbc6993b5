import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { type Figure, runFigures } from "../src/index.js";

/** A result directory whose summary gives the run's end and whose scenario gives the bins. */
function resultDir(files: Record<string, string>, endUs: number, binUs: number) {
  const dir = scratchDir("cclab-plot-axis-");
  const flows = [
    { id: 1, group: "g", srcName: "H1", dstName: "H0" },
    { id: 2, group: "g", srcName: "H2", dstName: "H0" },
  ];
  writeFileSync(
    join(dir, "summary.json"),
    JSON.stringify({ scenario: "made-up", simulatedUs: endUs, flows }),
  );
  writeFileSync(join(dir, "scenario.resolved.json"), JSON.stringify({ metrics: { binUs } }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const csv = (header: string, rows: (string | number)[][]) =>
  `${[header, ...rows.map((r) => r.join(","))].join("\n")}\n`;

type Layer = {
  data: { values: { x: number; y: number; series: string }[] };
  encoding: { x: { scale: { domain?: number[] } }; color: { title: string } };
};
const layers = (f: Figure) => (f.spec as unknown as { layer: Layer[] }).layer;
const line = (f: Figure) => layers(f).at(-1)!;
const seriesOf = (f: Figure, name: string) =>
  line(f)
    .data.values.filter((p) => p.series === name)
    .sort((a, b) => a.x - b.x);

// A flow-control file of an older cclab: rows only for the bins with blocking (the sender was
// blocked in bins 20 and 60 µs, not in between), no port names.
const OLD_FLOW_CONTROL = csv("bin_start_us,device,port,vl,blocked_fraction", [
  [20, "H3", 0, 0, 0.15],
  [60, "H3", 0, 0, 0.18],
]);

describe("time axes of a run's figures", () => {
  it("draws a port at 0 in the bins its file has no row for, not a line across them", () => {
    const dir = resultDir({ "flow-control.csv": OLD_FLOW_CONTROL }, 100, 10);
    const [figure] = runFigures(dir, ["flow-control"]);
    const points = seriesOf(figure!, "H3.p0 VL 0");
    // Every bin from 0 to the end, then the last value drawn on to the end (100 µs).
    expect(points.map((p) => p.x)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(points.map((p) => p.y)).toEqual([0, 0, 15, 0, 0, 0, 18, 0, 0, 0, 0]);
  });

  it("runs every time axis from 0 to the run's end, the last bin drawn over its width", () => {
    const throughput = csv(
      "bin_start_us,flow,src,dst,group,gbps",
      [0, 1000, 2000, 3000, 4000, 5000].map((t) => [t, 1, "H1", "H0", "g", 5]),
    );
    const dir = resultDir({ "flow-throughput.csv": throughput }, 6000, 1000);
    const [figure] = runFigures(dir, ["flow-throughput"]);
    expect(line(figure!).encoding.x.scale.domain).toEqual([0, 6000]);
    // The last bin starts at 5,000 µs: its step reaches the end at 6,000.
    expect(seriesOf(figure!, "H1→H0 (g)").at(-1)).toMatchObject({ x: 6000, y: 5 });
  });

  it("names ports by what they connect to, in legends that say what they list", () => {
    const named = csv("bin_start_us,device,port,vl,blocked_fraction,port_name,peer", [
      [0, "S3", 5, 0, 0.5, "S3.p5", "H17"],
      [0, "H17", 0, 0, 0.25, "H17.p0", "S3.p5"],
    ]);
    const occupancy = csv("bin_start_us,switch,port,vl,mean_input_bytes,port_name,peer", [
      [0, "S3", 5, 0, 2048, "S3.p5", "H17"],
    ]);
    const dir = resultDir({ "flow-control.csv": named, "port-occupancy.csv": occupancy }, 10, 10);
    const [occ, fc] = runFigures(dir, ["port-occupancy", "flow-control"]);
    const spec = JSON.stringify(fc!.spec);
    expect(spec).toContain('"S3.p5 → H17 VL 0"');
    expect(spec).toContain('"H17.p0 → S3.p5 VL 0"');
    expect(spec).toContain("all 2 ports and VLs that were blocked");
    // Hosts are among the ports: the legend does not call them switch ports.
    expect(line(fc!).encoding.color.title).toBe("sending port → peer, VL");
    expect(JSON.stringify(occ!.spec)).toContain('"S3.p5 (from H17) VL 0"');
  });

  it("draws only the ports and flows asked for", () => {
    const rows = Array.from({ length: 30 }, (_, p) => [0, "S1", p, 0, 0.5, `S1.p${p}`, "H0"]);
    rows.push([0, "S2", 0, 0, 0.01, "S2.p0", "H9"]);
    const throughput = csv("bin_start_us,flow,src,dst,group,gbps", [
      [0, 1, "H1", "H0", "g", 4],
      [0, 2, "H2", "H0", "g", 6],
    ]);
    const dir = resultDir(
      {
        "flow-control.csv": csv(
          "bin_start_us,device,port,vl,blocked_fraction,port_name,peer",
          rows,
        ),
        "flow-throughput.csv": throughput,
      },
      10,
      10,
    );
    // The least blocked port is not among the 12 busiest, but drawn when asked for.
    const [byName] = runFigures(dir, ["flow-control"], { ports: ["S2.p0", "S1.p3"] });
    const series = [...new Set(line(byName!).data.values.map((p) => p.series))].sort();
    expect(series).toEqual(["S1.p3 → H0 VL 0", "S2.p0 → H9 VL 0"]);
    const [byDevice] = runFigures(dir, ["flow-control"], { ports: ["S2"] });
    expect(new Set(line(byDevice!).data.values.map((p) => p.series))).toEqual(
      new Set(["S2.p0 → H9 VL 0"]),
    );
    for (const flow of ["2", "H2->H0", "H2→H0"]) {
      const [tp] = runFigures(dir, ["flow-throughput"], { flows: [flow] });
      expect(new Set(line(tp!).data.values.map((p) => p.series))).toEqual(new Set(["H2→H0 (g)"]));
    }
  });
});
