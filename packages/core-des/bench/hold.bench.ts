/**
 * Hold-model benchmark of the future-event set (Vaucher & Duval 1975; Jones 1986): keep N
 * events pending; each operation takes the earliest and schedules one new event an
 * exponentially distributed time later (mean 1 µs).
 *
 * `npm run bench` bundles this file with esbuild (sources of @cclab/core-des included, as tsup
 * builds dist/) and runs the bundle with node:
 *   npm run bench                          all sizes
 *   npm run bench -- --sizes 1000,100000   selected sizes
 *   npm run bench -- --reps 9              repetitions per figure (default 5)
 *   npm run bench -- --json                also print one JSON object
 *
 * Rows:
 * - popNext+schedule: the future-event set through the kernel's API, one pop and one push
 *   per operation; heap-js runs the same operation in the same process, turn about;
 * - run() dispatch: the simulation loop, where a registered handler schedules the next event;
 * - a bare binary heap of times alone (no kind, target, ties or cancellation; heap-variants.ts):
 *   about the best a heap-based kernel could do, which is why the kernel is a calendar queue.
 * Each group and size runs in a fresh child process, so that code compiled for one cannot
 * slow down another; inside it the implementations take turns, one repetition each, so that
 * drift in machine speed (shared VMs) hits all alike. The figure is the median repetition.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRng, Scheduler } from "@cclab/core-des";
import { Heap } from "heap-js";
import { TimeHeap } from "./heap-variants.js";

type Impl = (pending: number, ops: number) => number;

// Increments: exponential with a 1 µs mean, in integer picoseconds, drawn once so that every
// implementation sees the same times and no RNG work is timed.
const INC_COUNT = 1 << 16;
const INC_MASK = INC_COUNT - 1;
const increments = new Float64Array(INC_COUNT);
{
  const rng = createRng(20261121).split("bench/hold");
  for (let i = 0; i < INC_COUNT; i++) increments[i] = Math.floor(rng.exponential(1_000_000));
}

/** run(): the simulation's own loop; the handler schedules the next event. */
const schedulerRun: Impl = (pending, ops) => {
  const s = new Scheduler({ initialCapacity: pending });
  let done = 0;
  let kind = 0;
  kind = s.defineKind("hold", (target) => {
    s.schedule(s.nowPs + increments[done & INC_MASK]!, kind, target);
    if (++done === ops) s.stop();
  });
  for (let i = 0; i < pending; i++) s.schedule(increments[i & INC_MASK]!, kind, i);
  const t0 = performance.now();
  s.run();
  const seconds = (performance.now() - t0) / 1000;
  if (s.pending !== pending || s.processed !== ops) throw new Error("hold lost events");
  return ops / seconds;
};

/** popNext() then schedule(): a custom loop outside the scheduler. */
const schedulerPopNext: Impl = (pending, ops) => {
  const s = new Scheduler({ initialCapacity: pending });
  const kind = s.defineKind("hold", () => {});
  for (let i = 0; i < pending; i++) s.schedule(increments[i & INC_MASK]!, kind, i);
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) {
    s.popNext();
    s.schedule(s.nowPs + increments[i & INC_MASK]!, kind, s.lastTarget);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (s.pending !== pending) throw new Error("hold lost events");
  return ops / seconds;
};

interface HeapEvent {
  timePs: number;
  seq: number;
  kind: number;
  target: number;
}

/** heap-js, a popular object-based binary heap, in the same (time, seq) order. */
const heapJs: Impl = (pending, ops) => {
  const heap = new Heap<HeapEvent>((a, b) => a.timePs - b.timePs || a.seq - b.seq);
  let seq = 0;
  const initial: HeapEvent[] = [];
  for (let i = 0; i < pending; i++) {
    initial.push({ timePs: increments[i & INC_MASK]!, seq: seq++, kind: 0, target: i });
  }
  heap.init(initial);
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) {
    const e = heap.pop()!;
    heap.push({
      timePs: e.timePs + increments[i & INC_MASK]!,
      seq: seq++,
      kind: e.kind,
      target: e.target,
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  if (heap.size() !== pending) throw new Error("hold lost events");
  return ops / seconds;
};

const bareHeap =
  (branchFreeEnd: number): Impl =>
  (pending, ops) => {
    const h = new TimeHeap(pending, branchFreeEnd);
    for (let i = 0; i < pending; i++) h.push(increments[i & INC_MASK]!);
    const t0 = performance.now();
    for (let i = 0; i < ops; i++) h.push(h.pop() + increments[i & INC_MASK]!);
    return ops / ((performance.now() - t0) / 1000);
  };

/** The groups that share a child process, and their rows in the table. */
const groups: Record<string, Record<string, Impl>> = {
  hold: {
    "Scheduler popNext+schedule": schedulerPopNext,
    "heap-js (objects)": heapJs,
  },
  dispatch: {
    "Scheduler run() dispatch": schedulerRun,
  },
  bareHeap: { "bare binary heap of times": bareHeap(16_384) },
};

/** Operations per repetition: about half a second each on a 2-core VM. */
function opsFor(name: string, pending: number): number {
  const slow = name.startsWith("heap-js");
  if (pending >= 1_000_000) return slow ? 500_000 : 2_000_000;
  if (pending >= 100_000) return slow ? 1_000_000 : 3_000_000;
  return slow ? 2_000_000 : 4_000_000;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("benchmark children need --expose-gc");
  gc();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

interface ChildResult {
  medians: Record<string, number>;
  samples: Record<string, number[]>;
}

function runChild(group: string, pending: number, reps: number): ChildResult {
  const impls = groups[group]!;
  for (const impl of Object.values(impls)) impl(Math.min(pending, 1000), 300_000);
  const samples: Record<string, number[]> = {};
  for (let r = 0; r < reps; r++) {
    for (const [name, impl] of Object.entries(impls)) {
      const row = samples[name] ?? [];
      // Start every repetition from a collected heap, so that one implementation's garbage
      // (heap-js allocates an object per event) is not collected in another's timed loop.
      collectGarbage();
      row.push(impl(pending, opsFor(name, pending)));
      samples[name] = row;
    }
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([n, xs]) => [n, median(xs)]));
  return { medians, samples };
}

function inChild(group: string, pending: number, reps: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      ["--child", group, `${pending}`, `${reps}`],
      {
        execArgv: [...process.execArgv, "--expose-gc"],
      },
    );
    child.once("message", (m) => resolve(m as ChildResult));
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`benchmark child ${group}/${pending} exited with ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    const result = runChild(args[1]!, Number(args[2]), Number(args[3]));
    process.send?.(result, () => process.exit(0));
    return;
  }
  const option = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const sizes = (option("--sizes") ?? "1000,10000,100000,1000000").split(",").map(Number);
  const reps = Number(option("--reps") ?? 5);
  const startMs = performance.now();
  const results: Record<string, Record<number, number>> = {};
  console.log(
    `hold model (take one, schedule one), median of ${reps} repetitions, node ${process.version}`,
  );
  console.log(`${"pending events".padEnd(30)}${sizes.map((n) => `${n}`.padStart(12)).join("")}`);
  const fmt = (x: number) => `${(x / 1e6).toFixed(2)} M/s`.padStart(12);
  for (const group of Object.keys(groups)) {
    for (const pending of sizes) {
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K  ${group} at ${pending} pending…`);
      const { medians } = await inChild(group, pending, reps);
      for (const [name, value] of Object.entries(medians)) {
        results[name] = { ...results[name], [pending]: value };
      }
    }
    if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
    for (const name of Object.keys(groups[group]!)) {
      console.log(`${name.padEnd(30)}${sizes.map((n) => fmt(results[name]![n]!)).join("")}`);
    }
  }
  const ours = results["Scheduler popNext+schedule"]!;
  const theirs = results["heap-js (objects)"]!;
  const ratios = sizes.map((n) => `${n}: ${(ours[n]! / theirs[n]!).toFixed(1)}x`).join(", ");
  console.log(`popNext+schedule vs heap-js (same process): ${ratios}`);
  console.log(`wall time: ${((performance.now() - startMs) / 1000).toFixed(1)} s`);
  if (args.includes("--json")) console.log(JSON.stringify({ node: process.version, results }));
}

await main();
