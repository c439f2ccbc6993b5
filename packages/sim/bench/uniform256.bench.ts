/**
 * Whole-simulation benchmark (packages/sim/README.md, "Benchmark"): the shared uniform256
 * workload run until every flow completes, through `simulate` as `cclab run` does it, on the PFC
 * leaf–spine without CC (scenarios/bench/uniform256.yaml) and with DCQCN's `nic` preset
 * (uniform256-dcqcn.yaml), and the same kind of fabric and traffic at 1,024 and 4,096 hosts
 * (uniform1024.yaml, uniform4096.yaml). Each repetition runs in its own child process (fresh
 * heap, own peak RSS); medians are printed, with the range, and a repetition whose results
 * differ from the first fails the run. The first repetition also measures where the memory went.
 *
 * Usage: npm run bench -w @cclab/sim -- [REPS] [WORKLOAD...] [--profile] [--record FILE]
 * (default 3 repetitions of every workload). `--profile` adds one more run per workload, with the event
 * handlers timed by kind, and prints the time per kind (not counted in the medians: the timing
 * costs a little). `--record FILE` writes the medians as JSON with the command, commit, date
 * and Node version that produced them (packages/sim/bench/scale.json feeds the README's figure).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type KindProfile, PROFILE_SAMPLE_EVERY } from "@cclab/core-des";
import { kindProfileTable, type RunInfo, readScenarioFile, simulate } from "../src/index.js";

interface Workload {
  readonly label: string;
  readonly hosts: number;
  /** Targets (2-core machine, Node 20); a missing one is not set for the workload. */
  readonly wallTargetS?: number;
  readonly eventsPerSecondTargetM: number;
  readonly peakRssTargetMiB: number;
}

const WORKLOADS: Readonly<Record<string, Workload>> = {
  uniform256: {
    label: "256 hosts, PFC, no CC",
    hosts: 256,
    wallTargetS: 4,
    eventsPerSecondTargetM: 5,
    peakRssTargetMiB: 300,
  },
  "uniform256-dcqcn": {
    label: "256 hosts, PFC + DCQCN nic",
    hosts: 256,
    wallTargetS: 6,
    eventsPerSecondTargetM: 5,
    peakRssTargetMiB: 300,
  },
  uniform1024: {
    label: "1,024 hosts, PFC, no CC",
    hosts: 1024,
    eventsPerSecondTargetM: 3,
    peakRssTargetMiB: 1024,
  },
  uniform4096: {
    label: "4,096 hosts, PFC, no CC",
    hosts: 4096,
    eventsPerSecondTargetM: 2,
    peakRssTargetMiB: 1024,
  },
};

const scenarioFile = (name: string) =>
  fileURLToPath(new URL(`../../../scenarios/bench/${name}.yaml`, import.meta.url));

interface Sample {
  wallMs: number;
  buildMs: number;
  summaryMs: number;
  events: number;
  eventsPerSecond: number;
  peakRssBytes: number;
  p50: number;
  p99: number;
  max: number;
  lastCompletionUs: number;
  status: string;
  pauseFrames: number;
  ceMarks: number;
  /** SHA-1 of the whole summary, which holds no wall-clock field: equal for equal runs. */
  summarySha1: string;
  kindProfile?: readonly KindProfile[] | undefined;
  /** The V8 flags `simulate` set in the child (see the README, "V8's inlining budgets"). */
  v8Flags: readonly string[];
  memory?: RunInfo["memory"];
}

async function child(name: string, profileKinds: boolean, memory: boolean): Promise<void> {
  const { document, baseDir } = readScenarioFile(scenarioFile(name));
  const result = await simulate(document, { baseDir, profileKinds, memoryBreakdown: memory });
  const s = result.summary;
  const sample: Sample = {
    wallMs: result.run.wallMs,
    buildMs: result.run.buildMs,
    summaryMs: result.run.summaryMs,
    events: result.run.events,
    eventsPerSecond: result.run.eventsPerSecond,
    peakRssBytes: result.run.peakRssBytes,
    p50: s.fct!.slowdown.p50,
    p99: s.fct!.slowdown.p99,
    max: s.fct!.slowdown.max,
    lastCompletionUs: s.fct!.lastCompletionUs,
    status: s.status,
    pauseFrames: s.totals.pauseFrames,
    ceMarks: s.totals.marks.ecnCe,
    summarySha1: createHash("sha1").update(JSON.stringify(s)).digest("hex"),
    kindProfile: result.run.kindProfile,
    v8Flags: result.run.v8Flags,
    memory: result.run.memory,
  };
  process.stdout.write(JSON.stringify(sample));
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

const runChild = (name: string, profile: boolean, memory = false): Sample => {
  const self = fileURLToPath(import.meta.url);
  const args = [
    self,
    "--child",
    name,
    ...(profile ? ["--profile"] : []),
    ...(memory ? ["--memory"] : []),
  ];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as Sample;
};

/** What `--record FILE` keeps of a workload: its medians. */
interface Recorded {
  readonly workload: string;
  readonly hosts: number;
  readonly events: number;
  readonly wallS: number;
  readonly eventsPerSecondM: number;
  readonly peakRssMiB: number;
  readonly memory: RunInfo["memory"];
}

function bench(name: string, workload: Workload, reps: number, profile: boolean): Recorded {
  const samples: Sample[] = [];
  console.log(`${name} (${workload.label}):`);
  for (let i = 0; i < reps; i++) {
    const sample = runChild(name, false, i === 0);
    samples.push(sample);
    console.log(
      `  run ${i + 1}/${reps}: ${(sample.wallMs / 1000).toFixed(2)} s, ${(sample.eventsPerSecond / 1e6).toFixed(2)} M events/s, ${Math.round(sample.peakRssBytes / 2 ** 20)} MiB`,
    );
  }
  const m = (k: keyof Sample) => median(samples.map((s) => s[k] as number));
  // The spread shows how far one run can be trusted on this machine (a shared VM's wall times
  // vary by up to 2× between runs of the same code).
  const range = (k: keyof Sample, scale: number) => {
    const xs = samples.map((s) => (s[k] as number) / scale);
    return `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  };
  const first = samples[0]!;
  // Same scenario and seed: every repetition must give the same summary, byte for byte.
  if (samples.some((s) => s.summarySha1 !== first.summarySha1)) {
    console.error(`  results differ between repetitions of ${name}: the run is not deterministic`);
    process.exitCode = 1;
  }
  console.log(
    `${name} (${workload.label}) until all ${first.status === "complete" ? "complete" : first.status}, medians of ${reps}:`,
  );
  console.log(`  events          ${first.events}`);
  console.log(
    `  wall            ${(m("wallMs") / 1000).toFixed(2)} s   (range ${range("wallMs", 1000)}${workload.wallTargetS === undefined ? "" : `; target < ${workload.wallTargetS} s`}; not included: build ${Math.round(m("buildMs"))} ms, results ${Math.round(m("summaryMs"))} ms)`,
  );
  console.log(
    `  events/s        ${(m("eventsPerSecond") / 1e6).toFixed(2)} M   (range ${range("eventsPerSecond", 1e6)}; target ≥ ${workload.eventsPerSecondTargetM} M)`,
  );
  console.log(
    `  peak RSS        ${Math.round(m("peakRssBytes") / 2 ** 20)} MiB   (target < ${workload.peakRssTargetMiB} MiB)`,
  );
  const memory = first.memory;
  if (memory !== undefined) {
    const parts = memory.parts.map((p) => `${p.name} ${mib(p.bytes)}`).join(", ");
    console.log(
      `  memory at end   typed arrays: ${parts}; JS heap in use ${mib(memory.heapUsedBytes)}`,
    );
  }
  console.log(
    `  FCT slowdown    p50 ${first.p50.toFixed(2)}  p99 ${first.p99.toFixed(2)}  max ${first.max.toFixed(2)}`,
  );
  console.log(`  last completion ${first.lastCompletionUs.toFixed(2)} µs`);
  console.log(`  pause frames    ${first.pauseFrames}   CE marks ${first.ceMarks}`);
  console.log(`  V8 flags set    ${first.v8Flags.join(" ") || "none"}`);
  const recorded: Recorded = {
    workload: name,
    hosts: workload.hosts,
    events: first.events,
    wallS: m("wallMs") / 1000,
    eventsPerSecondM: m("eventsPerSecond") / 1e6,
    peakRssMiB: m("peakRssBytes") / 2 ** 20,
    memory: first.memory,
  };
  if (!profile) return recorded;
  const profiled = runChild(name, true);
  if (profiled.summarySha1 !== first.summarySha1) {
    console.error(`  results of ${name} differ with the event kinds profiled`);
    process.exitCode = 1;
  }
  console.log(
    `  time in event handlers by kind, a profiled run of ${(profiled.wallMs / 1000).toFixed(2)} s (one event in ${PROFILE_SAMPLE_EVERY} of each kind timed):`,
  );
  for (const line of kindProfileTable(profiled.kindProfile ?? [])) {
    console.log(`    ${line}`);
  }
  return recorded;
}

// `--record FILE`: the medians with what produced them, for the README's table and figure.
function record(file: string, reps: number, results: readonly Recorded[]): void {
  const git = (...a: string[]) => execFileSync("git", a, { encoding: "utf8" }).trim();
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  const data = {
    command: `npm run bench -w @cclab/sim -- ${process.argv.slice(2).join(" ")}`,
    commit: `${git("rev-parse", "--short", "HEAD")}${dirty ? "+changes" : ""}`,
    date: new Date().toISOString(),
    node: process.version,
    cores: availableParallelism(),
    repetitions: reps,
    workloads: results,
  };
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`recorded in ${file}`);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    child: { type: "string" },
    profile: { type: "boolean", default: false },
    memory: { type: "boolean", default: false },
    record: { type: "string" },
  },
});
if (values.child !== undefined) {
  await child(values.child, values.profile, values.memory);
} else {
  const reps = Number(positionals.find((a) => /^\d+$/.test(a)) ?? 3);
  const names = positionals.filter((a) => !/^\d+$/.test(a));
  const unknown = names.filter((n) => WORKLOADS[n] === undefined);
  if (unknown.length > 0) {
    console.error(
      `unknown workload ${unknown.join(", ")}; known: ${Object.keys(WORKLOADS).join(", ")}`,
    );
    process.exitCode = 2;
  } else {
    const results: Recorded[] = [];
    for (const name of names.length > 0 ? names : Object.keys(WORKLOADS)) {
      results.push(bench(name, WORKLOADS[name]!, reps, values.profile));
    }
    if (values.record !== undefined) record(values.record, reps, results);
  }
}
