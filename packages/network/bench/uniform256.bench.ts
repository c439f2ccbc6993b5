/**
 * The benchmark workload uniform256, as scenarios/bench/uniform256.yaml describes it: a
 * 256-host leaf-spine fat tree (16 leaves × 16 spines, 100 Gb/s, 1 µs links, ECMP per-flow
 * hashing up), 15,980 flows of 100,000 B from `uniform256-flows.csv`, run until every flow has
 * completed; PFC with a 32 MB shared switch buffer, no CC.
 *
 * Each run is a child process of its own, so that its peak RSS is its own and every run starts
 * with a cold JIT, as a user's run does; the parent prints every run and the medians.
 *
 *   npm run bench:uniform256 -w @cclab/network            # 3 runs
 *   node .bench/uniform256.mjs --runs 5                   # after bundling
 *   node .bench/uniform256.mjs --child                    # one run, JSON on stdout
 *   node --cpu-prof .bench/uniform256.mjs --child         # profile one run
 *
 * The flow file defaults to the repository's scenarios/bench/uniform256-flows.csv; set
 * CCLAB_UNIFORM256_CSV to use another path.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { nearestRank, nsToPs } from "@cclab/core-des";
import { twoLevelFatTree, UNIFORM256_LEAF_SPINE } from "@cclab/topologies";
import { IdealFct, Network, type NetworkOptions } from "../src/index.js";

const MTU_BYTES = 1000;
const SHARED_BYTES = 32 * 1024 * 1024;

/**
 * Run (a): PFC, shared switch buffer of 32 MB.
 * - alpha 1/8: a common dynamic-threshold setting of shared-buffer switch ASICs (one queue may
 *   take 1/8 of the free memory, i.e. ~3.6 MB when the buffer is empty; with n congested
 *   queues each gets alpha/(1 + n·alpha) of the buffer).
 * - headroomBytes 32 KiB: the validation asks for ≥ 27,404 B per ingress queue here
 *   (2 × 1 µs × 100 Gb/s + pause frame + 64 B header + 100 ns routing + one 1026 B packet).
 * - xonOffsetBytes 2 × 1026 B: resume two full packets below the threshold.
 * - Hosts are infinite sinks (receiveRateGbps null) with a 64 KiB receive buffer; their PFC
 *   thresholds (XOFF 32 KiB, XON 16 KiB) leave the 27,116 B headroom the host links need and
 *   are never reached.
 */
const PFC_OPTIONS: NetworkOptions = {
  flowControl: "pfc",
  switch: {
    buffer: {
      model: "shared",
      sharedBytes: SHARED_BYTES,
      alpha: 1 / 8,
      headroomBytes: 32 * 1024,
      xonOffsetBytes: 2 * (MTU_BYTES + 26),
    },
  },
  host: { mtuBytes: MTU_BYTES, receiveBufferBytes: 64 * 1024 },
  hostPfc: { xoffBytes: 32 * 1024, xonBytes: 16 * 1024 },
};

interface Flow {
  readonly src: number;
  readonly dst: number;
  readonly bytes: number;
  readonly startNs: number;
}

interface RunResult {
  readonly parseMs: number;
  readonly buildMs: number;
  readonly runMs: number;
  readonly events: number;
  readonly eventsPerS: number;
  readonly maxRssMB: number;
  readonly heapUsedMB: number;
  readonly dataPackets: number;
  readonly flows: number;
  readonly completed: number;
  readonly lastCompletionUs: number;
  readonly slowdownP50: number;
  readonly slowdownP99: number;
  readonly slowdownMax: number;
  readonly slowdownMin: number;
  /** Hash of every completion (message id, completion time): equal iff the results are. */
  readonly fingerprint: string;
}

function csvPath(): string {
  const fromEnv = process.env.CCLAB_UNIFORM256_CSV;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  // The bundle lives in packages/network/.bench/.
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, "../../../scenarios/bench/uniform256-flows.csv");
}

function parseFlows(text: string): Flow[] {
  const lines = text.split("\n");
  if (lines[0]?.trim() !== "src,dst,bytes,startNs") {
    throw new Error(`unexpected CSV header: ${lines[0]}`);
  }
  const flows: Flow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const [src, dst, bytes, startNs] = line.split(",").map(Number);
    flows.push({ src: src!, dst: dst!, bytes: bytes!, startNs: startNs! });
  }
  return flows;
}

function runOnce(): RunResult {
  const t0 = performance.now();
  const flows = parseFlows(readFileSync(csvPath(), "utf8"));
  const t1 = performance.now();
  const net = new Network(twoLevelFatTree(UNIFORM256_LEAF_SPINE), PFC_OPTIONS);
  for (const f of flows) {
    net.addMessage(f.src, { dstHost: f.dst, bytes: f.bytes, startPs: nsToPs(f.startNs) });
  }
  const t2 = performance.now();
  const outcome = net.run();
  const t3 = performance.now();
  if (outcome !== "empty") throw new Error(`run ended with "${outcome}"`);

  const ideal = IdealFct.of(net);
  const slowdowns: number[] = [];
  let last = 0;
  let dataPackets = 0;
  for (const host of net.hosts) {
    dataPackets += host.totalLatencyPs.count;
    for (const c of host.completions) {
      const fct = c.completedPs - c.createdPs;
      slowdowns.push(fct / ideal.messagePs(c.srcHost, c.dstHost, c.bytes));
      if (c.completedPs > last) last = c.completedPs;
    }
  }
  slowdowns.sort((a, b) => a - b);
  const completedById = new Float64Array(flows.length);
  for (const host of net.hosts) {
    for (const c of host.completions) completedById[c.messageId] = c.completedPs;
  }
  let hash = 0x811c9dc5;
  for (const ps of completedById) {
    hash = Math.imul(hash ^ (ps % 2 ** 31), 16777619);
    hash = Math.imul(hash ^ Math.floor(ps / 2 ** 31), 16777619);
  }
  const events = net.scheduler.processed;
  const runMs = t3 - t2;
  return {
    parseMs: t1 - t0,
    buildMs: t2 - t1,
    runMs,
    events,
    eventsPerS: events / (runMs / 1000),
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    heapUsedMB: process.memoryUsage().heapUsed / 2 ** 20,
    dataPackets,
    flows: flows.length,
    completed: slowdowns.length,
    lastCompletionUs: last / 1e6,
    slowdownP50: nearestRank(slowdowns, 0.5),
    slowdownP99: nearestRank(slowdowns, 0.99),
    slowdownMax: slowdowns[slowdowns.length - 1]!,
    slowdownMin: slowdowns[0]!,
    fingerprint: (hash >>> 0).toString(16).padStart(8, "0"),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function row(label: string, r: RunResult): string {
  return [
    label.padEnd(7),
    `${(r.runMs / 1000).toFixed(2).padStart(6)} s`,
    `${(r.eventsPerS / 1e6).toFixed(2).padStart(6)} M/s`,
    `${String(r.events).padStart(10)}`,
    `${r.maxRssMB.toFixed(0).padStart(5)} MB`,
    `${r.parseMs.toFixed(0).padStart(5)} ms`,
    `${r.buildMs.toFixed(0).padStart(5)} ms`,
    `${r.slowdownP50.toFixed(3).padStart(7)}`,
    `${r.slowdownP99.toFixed(3).padStart(7)}`,
    `${r.slowdownMax.toFixed(3).padStart(7)}`,
    `${r.lastCompletionUs.toFixed(3).padStart(10)} µs`,
  ].join("  ");
}

const args = process.argv.slice(2);
if (args.includes("--child")) {
  console.log(JSON.stringify(runOnce()));
} else {
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
  const script = fileURLToPath(import.meta.url);
  console.log(
    `uniform256: 256 hosts, leaf-spine 16 × 16, 100 Gb/s, 1 µs, ECMP, PFC, 32 MB shared buffer (alpha 1/8), MTU ${MTU_BYTES}; ${runs} runs, node ${process.version}`,
  );
  console.log(
    "run        wall    events/s      events    maxRSS    parse    build  sd p50  sd p99  sd max   last completion",
  );
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, [...process.execArgv, script, "--child"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`run ${i + 1} failed (exit ${child.status})`);
    const r = JSON.parse(child.stdout.trim().split("\n").pop()!) as RunResult;
    results.push(r);
    console.log(row(`#${i + 1}`, r));
  }
  const med = (f: (r: RunResult) => number) => median(results.map(f));
  const m: RunResult = {
    parseMs: med((r) => r.parseMs),
    buildMs: med((r) => r.buildMs),
    runMs: med((r) => r.runMs),
    events: med((r) => r.events),
    eventsPerS: med((r) => r.eventsPerS),
    maxRssMB: med((r) => r.maxRssMB),
    heapUsedMB: med((r) => r.heapUsedMB),
    dataPackets: med((r) => r.dataPackets),
    flows: med((r) => r.flows),
    completed: med((r) => r.completed),
    lastCompletionUs: med((r) => r.lastCompletionUs),
    slowdownP50: med((r) => r.slowdownP50),
    slowdownP99: med((r) => r.slowdownP99),
    slowdownMax: med((r) => r.slowdownMax),
    slowdownMin: med((r) => r.slowdownMin),
    fingerprint: results[0]!.fingerprint,
  };
  console.log(row("median", m));
  const first = results[0]!;
  console.log(
    `flows completed ${first.completed}/${first.flows}, data packets delivered ${first.dataPackets}, slowdown min ${first.slowdownMin.toFixed(4)}, results fingerprint ${first.fingerprint}`,
  );
  if (results.some((r) => r.events !== first.events || r.fingerprint !== first.fingerprint)) {
    console.log("WARNING: runs differ in events or completion time (determinism)");
  }
}
