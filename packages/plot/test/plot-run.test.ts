import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listedFiles } from "@cclab/sim";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import {
  cdfPoints,
  MAX_LINES,
  plotRun,
  runFigures,
  timeAxisFor,
  variableTitle,
} from "../src/index.js";

/** A result directory with the files a cclab run writes, filled with data made up here. */
function resultDir(files: Record<string, string>, flows: { id: number; group: string }[] = []) {
  const dir = scratchDir("cclab-plot-");
  writeFileSync(join(dir, "summary.json"), JSON.stringify({ scenario: "made-up", flows }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function csv(header: string, rows: (string | number)[][]): string {
  return `${[header, ...rows.map((r) => r.join(","))].join("\n")}\n`;
}

const throughput = (flows: { id: number; group: string }[], bins: number, binUs = 10) =>
  csv(
    "bin_start_us,flow,src,dst,group,gbps",
    Array.from({ length: bins }, (_, i) =>
      flows.map((f) => [i * binUs, f.id, `H${f.id}`, "H0", f.group, f.id + i]),
    ).flat(),
  );

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function svgSize(svg: string): { width: number; height: number } {
  const m = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg);
  expect(m).not.toBeNull();
  return { width: Number(m![1]), height: Number(m![2]) };
}

describe("plotRun", () => {
  const flows = [
    { id: 1, group: "victim" },
    { id: 2, group: "contributors" },
  ];
  const dir = resultDir(
    {
      "flow-throughput.csv": throughput(flows, 5),
      "port-occupancy.csv": csv("bin_start_us,switch,port,vl,mean_input_bytes", [
        [0, "S1", 2, 0, 2048],
        [10, "S1", 2, 0, 4096],
      ]),
      "cc-flows.csv": csv("time_us,flow,src,dst,variable,value", [
        [10, 1, "H1", "H0", "ccti", 0],
        [10, 1, "H1", "H0", "rateGbps", 13],
        [20, 1, "H1", "H0", "ccti", 4],
        [20, 1, "H1", "H0", "rateGbps", 9],
      ]),
      "messages.csv": csv(
        "message,flow,src,dst,bytes,start_us,completed_us,fct_us,ideal_us,slowdown",
        [
          [0, 1, "H1", "H0", 4096, 0, 5, 5, 3, 1.6],
          [1, 2, "H2", "H0", 4096, 0, 7, 7, 3, 2.3],
        ],
      ),
    },
    flows,
  );

  it("writes SVG, PNG and Vega-Lite JSON for every series the run recorded", async () => {
    const written = await plotRun(dir);
    const names = ["flow-throughput", "port-occupancy", "cc-ccti", "cc-rateGbps", "fct"];
    expect(written.sort()).toEqual(
      names.flatMap((n) => [`plots/${n}.png`, `plots/${n}.svg`, `plots/${n}.vl.json`]).sort(),
    );
    const svg = readFileSync(join(dir, "plots/flow-throughput.svg"), "utf8");
    for (const text of [
      "time (µs)",
      "payload throughput (Gb/s)",
      "H1→H0 (victim)",
      "H2→H0 (contributors)",
    ]) {
      expect(svg).toContain(text);
    }
    expect(readFileSync(join(dir, "plots/cc-rateGbps.svg"), "utf8")).toContain("rate (Gb/s)");
    // A result without port names (an older cclab) is labelled by device and port number.
    expect(readFileSync(join(dir, "plots/port-occupancy.svg"), "utf8")).toContain("S1.p2 VL 0");
    // PNGs are the SVG drawn at twice its size.
    const png = pngSize(readFileSync(join(dir, "plots/flow-throughput.png")));
    const size = svgSize(svg);
    expect(png).toEqual({ width: 2 * size.width, height: 2 * size.height });
  });

  it("draws the same bytes twice, and --series redraws one figure without removing others", async () => {
    await plotRun(dir);
    const first = readFileSync(join(dir, "plots/fct.svg"), "utf8");
    const written = await plotRun(dir, { only: ["fct"] });
    expect(written).toEqual(["plots/fct.svg", "plots/fct.png", "plots/fct.vl.json"]);
    expect(readFileSync(join(dir, "plots/fct.svg"), "utf8")).toBe(first);
    expect(existsSync(join(dir, "plots/flow-throughput.svg"))).toBe(true);
  });

  it("removes the figures it drew before when redrawing everything, and no file of the user's", async () => {
    const again = resultDir({
      "flow-throughput.csv": throughput(flows, 3),
      "cc-flows.csv": csv("time_us,flow,src,dst,variable,value", [[10, 1, "H1", "H0", "ccti", 0]]),
    });
    mkdirSync(join(again, "plots"), { recursive: true });
    writeFileSync(join(again, "plots/mine.svg"), "<svg/>");
    writeFileSync(join(again, "plots/my-figure.png"), "not cclab's");
    expect(await plotRun(again)).toContain("plots/cc-ccti.svg");
    expect(listedFiles(again)).toContain("plots/cc-ccti.svg");
    // The run's data changes (a rerun without CC): its CC figure is stale and goes.
    rmSync(join(again, "cc-flows.csv"));
    await plotRun(again);
    expect(readdirSync(join(again, "plots")).sort()).toEqual([
      "flow-throughput.png",
      "flow-throughput.svg",
      "flow-throughput.vl.json",
      "mine.svg",
      "my-figure.png",
    ]);
    expect(listedFiles(again).filter((f) => f.startsWith("plots/cc"))).toEqual([]);
  });

  it("removes figures named like its own from a folder of an older cclab (no manifest)", async () => {
    const old = resultDir({ "flow-throughput.csv": throughput(flows, 3) });
    mkdirSync(join(old, "plots"), { recursive: true });
    for (const f of ["fct.svg", "cc-ccti.vl.json", "notes.txt"]) {
      writeFileSync(join(old, "plots", f), "x");
    }
    await plotRun(old);
    expect(readdirSync(join(old, "plots"))).toContain("notes.txt");
    expect(readdirSync(join(old, "plots"))).not.toContain("fct.svg");
    expect(readdirSync(join(old, "plots"))).not.toContain("cc-ccti.vl.json");
  });

  it("refuses a directory without summary.json, naming it", () => {
    const empty = scratchDir("cclab-plot-empty-");
    expect(() => runFigures(empty)).toThrow(/no summary\.json/);
  });

  it("names the file and column when a CSV lacks a column", () => {
    const bad = resultDir({ "flow-throughput.csv": "bin_start_us,flow\n0,1\n" });
    expect(() => runFigures(bad)).toThrow(/flow-throughput\.csv: no column "group"/);
  });
});

describe("figures of large runs", () => {
  it(`draws one mean line and a min–max band per group beyond ${MAX_LINES} flows`, () => {
    const flows = Array.from({ length: 20 }, (_, i) => ({ id: i, group: i < 10 ? "a" : "b" }));
    const dir = resultDir({ "flow-throughput.csv": throughput(flows, 3) });
    const [figure] = runFigures(dir);
    const spec = JSON.stringify(figure!.spec);
    expect(spec).toContain("a: mean of 10 flows");
    expect(spec).toContain("b: mean of 10 flows");
    const layers = (
      figure!.spec as unknown as {
        layer: { data: { values: Record<string, number | string>[] } }[];
      }
    ).layer;
    const [bands, line] = [layers[0]!.data.values, layers[1]!.data.values];
    // Group a holds flows 0..9 with gbps = id + bin: mean 4.5 + bin, band [bin, 9 + bin].
    const a1 = line.find((p) => p.series === "a: mean of 10 flows" && p.x === 10);
    expect(a1?.y).toBe(5.5);
    const b2 = bands.find((p) => p.series === "b: mean of 10 flows" && p.x === 20);
    expect([b2?.lo, b2?.hi]).toEqual([12, 21]);
  });

  it(`keeps the ${MAX_LINES} ports with the highest peak and says how many there were`, () => {
    const rows = Array.from({ length: 30 }, (_, p) => [0, "S1", p, 0, (p + 1) * 100]);
    const dir = resultDir({
      "port-occupancy.csv": csv("bin_start_us,switch,port,vl,mean_input_bytes", rows),
    });
    const [figure] = runFigures(dir);
    const spec = JSON.stringify(figure!.spec);
    expect(spec).toContain(
      `the ${MAX_LINES} ports and VLs with the highest peak, of 30 that held packets`,
    );
    expect(spec).toContain('"S1.p29 VL 0"');
    expect(spec).toContain(`"S1.p${30 - MAX_LINES} VL 0"`);
    expect(spec).not.toContain(`"S1.p${29 - MAX_LINES} VL 0"`);
  });

  it("draws long runs in ms and s", () => {
    expect(timeAxisFor(5_000).unit).toBe("µs");
    expect(timeAxisFor(250_000).unit).toBe("ms");
    expect(timeAxisFor(500_000).fromUs(250_000)).toBe(250);
    expect(timeAxisFor(5_000_000).unit).toBe("s");
  });

  it("puts units of CC variables in the axis title", () => {
    expect(variableTitle("rateGbps")).toBe("rate (Gb/s)");
    expect(variableTitle("alpha")).toBe("alpha");
    expect(variableTitle("targetRateMbps")).toBe("targetRate (Mb/s)");
  });
});

describe("cdfPoints", () => {
  test.prop([
    fc.array(fc.double({ min: 0, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 5000 }),
  ])(
    "is a thinned empirical CDF: sorted, ends at (max, 1), at most 401 points, each exact",
    (values) => {
      const points = cdfPoints(values, "s");
      const sorted = [...values].sort((a, b) => a - b);
      expect(points.length).toBeLessThanOrEqual(401);
      expect(points.at(-1)).toEqual({ x: sorted.at(-1), y: 1, series: "s" });
      for (let i = 1; i < points.length; i++) {
        expect(points[i]!.x).toBeGreaterThanOrEqual(points[i - 1]!.x);
        expect(points[i]!.y).toBeGreaterThan(points[i - 1]!.y);
      }
      for (const p of points) {
        // y is the fraction of values ≤ x (ties counted up to the point's rank).
        const atMost = sorted.filter((v) => v <= p.x).length / sorted.length;
        expect(p.y).toBeLessThanOrEqual(atMost + 1e-12);
      }
    },
  );
});
