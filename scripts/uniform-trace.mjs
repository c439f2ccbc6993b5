#!/usr/bin/env node
/**
 * Writes a flow trace of the uniform benchmark workloads (scenarios/bench/README.md): every host
 * starts flows of `bytes` to a destination drawn uniformly from the other hosts, with Poisson
 * arrivals at `load` of its link rate, until `flows` flows exist in all. Deterministic: the same
 * arguments give the same file (a 32-bit mulberry32 stream from `seed`).
 *
 * Usage: node scripts/uniform-trace.mjs HOSTS FLOWS BYTES RATE_GBPS LOAD SEED > flows.csv
 * (scenarios/bench/uniform1024-flows.csv: 1024 16000 100000 100 0.5 1024).
 */
const [hosts, flows, bytes, rateGbps, load, seed] = process.argv.slice(2).map(Number);
if (![hosts, flows, bytes, rateGbps, load, seed].every(Number.isFinite) || hosts < 2) {
  console.error("usage: node scripts/uniform-trace.mjs HOSTS FLOWS BYTES RATE_GBPS LOAD SEED");
  process.exit(2);
}

let state = seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// Mean time between one host's flow starts: a flow's bits over the load's share of the link.
const meanGapNs = (bytes * 8) / (rateGbps * load);
const rows = [];
const next = new Float64Array(hosts);
for (let h = 0; h < hosts; h++) next[h] = -Math.log(1 - random()) * meanGapNs;
// The hosts' arrival streams merged in time order, as one Poisson process per host.
while (rows.length < flows) {
  let src = 0;
  for (let h = 1; h < hosts; h++) if (next[h] < next[src]) src = h;
  const dst = (src + 1 + Math.floor(random() * (hosts - 1))) % hosts;
  rows.push(`${src},${dst},${bytes},${Math.round(next[src])}`);
  next[src] += -Math.log(1 - random()) * meanGapNs;
}
process.stdout.write(`src,dst,bytes,startNs\n${rows.join("\n")}\n`);
