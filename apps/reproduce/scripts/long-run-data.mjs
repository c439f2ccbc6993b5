// Writes data/paper4-silent-forest-cct10-500ms.json from the result directory of the thesis's
// full 0.5 s silent forest with CCT × 10 (data/README.md says how to run it):
//   node scripts/long-run-data.mjs <result dir> "<command that made it>"
// It reads the run's summary.json, run.json and host-throughput.csv, measures the hotspots and
// non-hotspots as the paper4-silent-forest experiment does, and records the checkout's commit.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, command] = process.argv.slice(2);
if (dir === undefined || command === undefined) {
  process.stderr.write("usage: long-run-data.mjs <result dir> <command>\n");
  process.exit(2);
}
const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
const run = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
const isHotspot = (h) => (h.receiveGbpsByGroup.hot ?? 0) > 0;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const hot = summary.hosts.filter(isHotspot).map((h) => h.receiveGbps);
const other = summary.hosts.filter((h) => !isHotspot(h)).map((h) => h.receiveGbps);
const hotNames = new Set(summary.hosts.filter(isHotspot).map((h) => h.name));
// Non-hotspots' mean per 1 ms bin (hosts missing from a bin received nothing), then 5 ms means.
const sums = new Map();
const lines = readFileSync(join(dir, "host-throughput.csv"), "utf8").trimEnd().split("\n");
for (const line of lines.slice(1)) {
  const [start, host, , gbps] = line.split(",");
  if (!hotNames.has(host)) sums.set(Number(start), (sums.get(Number(start)) ?? 0) + Number(gbps));
}
const bins = [...sums].sort(([a], [b]) => a - b).map(([t, g]) => [t, g / other.length]);
const fives = [];
for (let i = 0; i + 5 <= bins.length; i += 5) {
  if (bins[i][0] >= 40_000) fives.push(mean(bins.slice(i, i + 5).map(([, g]) => g)));
}
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).trim();
const dirty = git("status", "--porcelain") !== "";
const data = {
  command,
  commit: `${git("rev-parse", "--short", "HEAD")}${dirty ? "+changes" : ""}`,
  date: new Date().toISOString().slice(0, 10),
  node: process.versions.node,
  windowMs: [summary.windowUs.from / 1000, summary.windowUs.to / 1000],
  hotspotGbps: mean(hot),
  nonHotspotGbps: mean(other),
  totalGbps: [...hot, ...other].reduce((a, b) => a + b, 0),
  nonHotspotRangeAfter40msGbps: [Math.min(...fives), Math.max(...fives)],
  events: run.events,
  wallS: run.wallMs / 1000,
  peakRssMiB: run.peakRssBytes / 2 ** 20,
};
const out = new URL("../data/paper4-silent-forest-cct10-500ms.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
process.stdout.write(`${JSON.stringify(data)}\n`);
