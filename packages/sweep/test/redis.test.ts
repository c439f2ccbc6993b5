import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { runSweep } from "../src/index.js";
import { testBundles } from "./bundles.js";
import { TINY } from "./fixtures.js";
import {
  redisServerInstalled,
  startRedis,
  startWorker,
  type WorkerProcess,
} from "./redis-server.js";

// These tests need a real Redis server. CI installs Debian's redis-server (.ci/run) and must
// run them: there a missing server fails the suite. On a developer machine without it they
// are skipped, and the reason is printed.
const installed = redisServerInstalled();
if (!installed && process.env.CI !== undefined) {
  throw new Error("redis-server is not installed; .ci/run installs Debian's redis-server");
}
if (!installed) {
  console.warn(
    "sweep Redis tests skipped: redis-server is not on the PATH (apt-get install redis-server)",
  );
}

const BASE = TINY;

describe.skipIf(!installed)("sweeps through Redis (BullMQ) with cclab worker processes", () => {
  const dir = scratchDir("cclab-redis-");
  writeFileSync(join(dir, "base.yaml"), stringify(BASE));
  const file = join(dir, "eight.yaml");
  // 8 points of a few hundred ms each, so both workers take some and a kill lands mid-point.
  writeFileSync(
    file,
    stringify({
      name: "eight",
      base: "base.yaml",
      set: { "run.durationUs": 3000 },
      axes: { "traffic[0].loadFraction": [0.3, 0.8], "topology.hosts": [4, 6] },
      seeds: [1, 2],
    }),
  );
  let redis: { url: string; stop: () => void };
  let cli: string;
  let reference: string;
  const workers: WorkerProcess[] = [];
  const worker = (queue: string, ...extra: string[]) => {
    const w = startWorker(cli, [
      "--redis",
      redis.url,
      "--queue",
      queue,
      "--threads",
      "1",
      ...extra,
    ]);
    workers.push(w);
    return w;
  };

  beforeAll(async () => {
    const bundles = await testBundles();
    cli = bundles.cli;
    redis = await startRedis();
    const local = join(dir, "local");
    await runSweep(file, { out: local, threads: 1, workerFile: bundles.worker });
    reference = readFileSync(join(local, "sweep.csv"), "utf8");
  }, 120_000);

  afterAll(() => {
    for (const w of workers) w.child.kill("SIGKILL");
    redis?.stop();
  });

  it("gives the table of a local sweep, with two worker processes sharing the points", async () => {
    const a = worker("two");
    const b = worker("two");
    await Promise.all([a.waitFor("worker ready"), b.waitFor("worker ready")]);
    const out = join(dir, "two");
    const report = await runSweep(file, { out, redis: { url: redis.url, queue: "two" } });
    expect(report).toMatchObject({ points: 8, ran: 8, failed: [] });
    expect(readFileSync(join(out, "sweep.csv"), "utf8")).toBe(reference);
    const ran = (w: WorkerProcess) => (w.output().match(/ complete eight /g) ?? []).length;
    expect(ran(a) + ran(b)).toBe(8);
    expect(ran(a)).toBeGreaterThan(0);
    expect(ran(b)).toBeGreaterThan(0);
    // A rerun collects nothing new: every point is finished on disk.
    const again = await runSweep(file, { out, redis: { url: redis.url, queue: "two" } });
    expect(again).toMatchObject({ ran: 0, resumed: 8 });
  }, 120_000);

  it("retries the point of a worker killed mid-point on another worker", async () => {
    const lock = ["--lock-duration-ms", "1500", "--stalled-interval-ms", "500"];
    const doomed = worker("kill", ...lock);
    await doomed.waitFor("worker ready");
    const out = join(dir, "kill");
    const reported: string[] = [];
    const sweep = runSweep(file, {
      out,
      redis: { url: redis.url, queue: "kill" },
      onProgress: (p) => {
        if (p.last !== undefined) reported.push(p.last.id);
      },
    });
    await doomed.waitFor("start eight ");
    const started = /start eight (p\d+)/.exec(doomed.output())![1]!;
    doomed.child.kill("SIGKILL");
    const rescuer = worker("kill", ...lock);
    const report = await sweep;
    expect(report).toMatchObject({ points: 8, failed: [] });
    expect(readFileSync(join(out, "sweep.csv"), "utf8")).toBe(reference);
    // Every point finished exactly once, the killed worker's too.
    expect([...reported].sort()).toEqual(["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]);
    // The killed worker's point was run again, by the rescuer.
    expect(rescuer.output()).toContain(`complete eight ${started}`);
    expect(doomed.output()).not.toContain(`complete eight ${started}`);
  }, 120_000);
});
