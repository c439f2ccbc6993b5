#!/usr/bin/env node
/**
 * Draws the sim README's figure of events/s against hosts (packages/sim/README.md, "Benchmark")
 * from the medians `npm run bench -w @cclab/sim -- … --record packages/sim/bench/scale.json`
 * recorded, with the command and commit that produced them in the subtitle. Needs the packages
 * built (`npm run build`).
 *
 * Usage: node scripts/scale-figure.mjs [packages/sim/bench/scale.json] [packages/sim/docs]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lineFigure, renderSvg, svgToPng } from "@cclab/plot";

const [input = "packages/sim/bench/scale.json", outDir = "packages/sim/docs"] =
  process.argv.slice(2);
const data = JSON.parse(readFileSync(input, "utf8"));
// The no-CC workloads form the curve: the same fabric and traffic at each size.
const curve = data.workloads.filter((w) => /^uniform\d+$/.test(w.workload));
if (curve.length === 0) {
  console.error(`${input} has no uniform<hosts> workload to draw`);
  process.exit(2);
}
const figure = lineFigure({
  name: "scale-events-per-second",
  title: "Events per second against fabric size (uniform traffic, PFC, no CC)",
  subtitle: `npm run bench at ${data.commit}, ${data.date.slice(0, 10)}, Node ${data.node}, ${data.cores} cores, medians of ${data.repetitions} (${input})`,
  xTitle: "hosts",
  yTitle: "events/s (millions)",
  legendTitle: "workload",
  xScale: "log",
  yDomainMin: 0,
  points: curve.map((w) => ({ x: w.hosts, y: w.eventsPerSecondM, series: "cclab run" })),
  // Three measured sizes, not a continuum: a tick and a mark at each.
  xTicks: curve.map((w) => w.hosts),
  pointMarks: true,
});
const svg = await renderSvg(figure.spec);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${figure.name}.png`), svgToPng(svg));
console.log(`wrote ${join(outDir, `${figure.name}.png`)}`);
