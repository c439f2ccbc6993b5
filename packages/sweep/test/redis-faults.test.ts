import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Job, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import {
  type PointTask,
  RedisUnavailableError,
  redactUrl,
  runPoint,
  runSweep,
  type SweepProgress,
} from "../src/index.js";
import { testBundles } from "./bundles.js";
import { TINY } from "./fixtures.js";
import {
  redisServerInstalled,
  startRedis,
  startWorker,
  type WorkerProcess,
} from "./redis-server.js";

// Faults of a sweep through Redis (issue 34): a server that loses its data, a wrong password,
// jobs that are not points, results that are not what a run writes. Like redis.test.ts, these
// need redis-server: CI must run them; elsewhere they are skipped with the reason printed.
const installed = redisServerInstalled();
if (!installed && process.env.CI !== undefined) {
  throw new Error("redis-server is not installed; .ci/run installs Debian's redis-server");
}

/** Runs `cclab ...` from the test bundle; resolves with its exit code, output and duration. */
function cclab(
  cli: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

describe.skipIf(!installed)("sweeps through Redis when things go wrong", () => {
  const dir = scratchDir("cclab-redis-faults-");
  writeFileSync(join(dir, "base.yaml"), stringify(TINY));
  const six = join(dir, "six.yaml");
  // 6 points of a few hundred ms each: long enough for a restart to land mid-sweep.
  writeFileSync(
    six,
    stringify({
      name: "six",
      base: "base.yaml",
      set: { "run.durationUs": 3000 },
      axes: { "traffic[0].loadFraction": [0.3, 0.5, 0.8] },
      seeds: [1, 2],
    }),
  );
  const two = join(dir, "two.yaml");
  writeFileSync(
    two,
    stringify({ name: "two", base: "base.yaml", axes: { "traffic[0].loadFraction": [0.3, 0.8] } }),
  );
  let cli: string;
  let reference: string;
  const stops: (() => void)[] = [];
  const workers: WorkerProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  const server = async (options: { port?: number; password?: string } = {}) => {
    const s = await startRedis(options);
    stops.push(s.stop);
    return s;
  };
  const worker = (url: string, queue: string, ...extra: string[]) => {
    const w = startWorker(cli, ["--redis", url, "--queue", queue, "--threads", "1", ...extra]);
    workers.push(w);
    return w;
  };

  beforeAll(async () => {
    const bundles = await testBundles();
    cli = bundles.cli;
    const local = join(dir, "local");
    await runSweep(six, { out: local, threads: 1, workerFile: bundles.worker });
    reference = readFileSync(join(local, "sweep.csv"), "utf8");
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) w.child.kill("SIGKILL");
    for (const close of closers) await close().catch(() => {});
    for (const stop of stops) stop();
  });

  it("fails a point whose result names a file outside its directory or has an invalid summary", async () => {
    const redis = await server();
    // A malicious worker: returns crafted results through BullMQ the way `cclab worker` does.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const evil = new Worker(
      "evil",
      async (job: Job<PointTask>) => {
        const real = await runPoint(job.data);
        if (real.status !== "complete") throw new Error("the point should run");
        if (job.data.pointId === "p1") {
          return { status: "complete", files: [["../evil", "pwned"], ...real.files] };
        }
        return {
          status: "complete",
          files: real.files.map(([n, t]) => [n, n === "summary.json" ? "{}" : t]),
        };
      },
      { connection },
    );
    closers.push(async () => {
      await evil.close(true);
      connection.disconnect();
    });
    const out = join(dir, "evil");
    const report = await runSweep(two, { out, redis: { url: redis.url, queue: "evil" } });
    expect(report.failed.map((f) => f.id)).toEqual(["p1", "p2"]);
    expect(report.failed[0]!.error).toContain("not a file a run writes");
    expect(report.failed[1]!.error).toContain("invalid summary.json");
    expect(existsSync(join(out, "points", "evil"))).toBe(false);
    expect(existsSync(join(out, "points", "p1", "summary.json"))).toBe(false);
    expect(readFileSync(join(out, "points", "p2", "error.txt"), "utf8")).toContain(
      "invalid summary.json",
    );
    const csv = readFileSync(join(out, "sweep.csv"), "utf8");
    expect(csv.split("\n")[1]).toContain("failed");
    expect(csv.split("\n")[2]).toContain("failed");
  }, 60_000);

  it("fails a malformed job once, with a short reason, and keeps working", async () => {
    const redis = await server();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue("bad", { connection });
    closers.push(async () => {
      await queue.close();
      connection.disconnect();
    });
    // Queued before any worker runs, so the payload can be spoiled first.
    await queue.add("json-but-not-a-point", { hello: "world" }, { attempts: 3 });
    const notJson = await queue.add("not-json", { fine: true }, { attempts: 3 });
    await connection.hset(queue.toKey(notJson.id!), "data", "{not json");
    const w = worker(redis.url, "bad");
    await w.waitFor("failed job 2");
    await w.waitFor("failed job 1");
    // The line is logged as the job is failed: wait for BullMQ to record it.
    for (const id of ["1", "2"]) {
      await vi.waitFor(async () => expect(await queue.getJobState(id)).toBe("failed"), {
        timeout: 5_000,
      });
    }
    const one = await queue.getJob("1");
    expect(await one!.getState()).toBe("failed");
    expect(one!.failedReason).toMatch(/^malformed job: /);
    expect(one!.attemptsMade).toBe(1);
    // Job 2 cannot be read through BullMQ (its payload is not JSON): its fields, then.
    expect(await queue.getJobState("2")).toBe("failed");
    expect(await connection.hget(queue.toKey("2"), "failedReason")).toBe(
      "malformed job: the payload is not JSON",
    );
    // Once each, not at every retry; and the worker goes on.
    await sleep(1500);
    expect(w.output().match(/failed job /g)).toHaveLength(2);
    expect(w.child.exitCode).toBeNull();
    // With its server gone, the worker still stops on the first SIGTERM.
    await queue.close();
    connection.disconnect();
    redis.stop();
    await sleep(300);
    const t0 = Date.now();
    const exited = new Promise((resolve) => w.child.once("exit", resolve));
    w.child.kill("SIGTERM");
    await exited;
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect(w.child.exitCode).toBe(0);
  }, 60_000);

  it("reports a wrong password or an unreachable server within 10 s, exit 2, password hidden", async () => {
    const redis = await server({ password: "s3cret-pw" });
    const wrong = redis.url.replace("s3cret-pw", "wrong-pw");
    const sweep = await cclab(cli, ["sweep", two, "--redis", wrong, "--out", join(dir, "pw")]);
    expect(sweep.code).toBe(2);
    expect(sweep.ms).toBeLessThan(10_000);
    expect(sweep.stderr).toContain("cannot use Redis at redis://:***@127.0.0.1");
    expect(sweep.stderr + sweep.stdout).not.toContain("wrong-pw");
    const w = await cclab(cli, ["worker", "--redis", wrong, "--threads", "1"]);
    expect(w.code).toBe(2);
    expect(w.ms).toBeLessThan(10_000);
    expect(w.stderr + w.stdout).not.toContain("wrong-pw");
    // Nobody listening.
    const gone = await server();
    gone.stop();
    await sleep(200);
    const t0 = Date.now();
    await expect(
      runSweep(two, { out: join(dir, "gone"), redis: { url: gone.url } }),
    ).rejects.toThrow(RedisUnavailableError);
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 60_000);

  it("hides the password in the sweep's summary line and the worker's log", async () => {
    expect(redactUrl("redis://user:p%40ss@host:6379/2")).toBe("redis://user:***@host:6379/2");
    expect(redactUrl("redis://host:6379")).toBe("redis://host:6379");
    const redis = await server({ password: "s3cret-pw" });
    const w = worker(redis.url, "pw");
    await w.waitFor("worker ready");
    const out = join(dir, "pw-ok");
    const run = await cclab(cli, [
      "sweep",
      two,
      "--redis",
      redis.url,
      "--queue",
      "pw",
      "--out",
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("through redis://:***@127.0.0.1");
    expect(run.stdout + run.stderr + w.output()).not.toContain("s3cret-pw");
  }, 60_000);

  it("re-queues the points a restart without persistence lost, and runs each once", async () => {
    let redis = await server();
    const lock = ["--lock-duration-ms", "1500", "--stalled-interval-ms", "500"];
    const w = worker(redis.url, "restart", ...lock);
    await w.waitFor("worker ready");
    const out = join(dir, "restart");
    const reported: string[] = [];
    // ioredis prints an error no listener handled with console.error, stack and all.
    const consoleError = vi.spyOn(console, "error");
    const t0 = Date.now();
    const sweep = runSweep(six, {
      out,
      redis: { url: redis.url, queue: "restart" },
      onProgress: (p: SweepProgress) => {
        if (p.last !== undefined) reported.push(p.last.id);
      },
    });
    await w.waitFor(" complete six ");
    redis.stop();
    await sleep(300);
    redis = await server({ port: redis.port });
    const report = await sweep;
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(report).toMatchObject({ points: 6, failed: [] });
    expect([...reported].sort()).toEqual(["p1", "p2", "p3", "p4", "p5", "p6"]);
    expect(readFileSync(join(out, "sweep.csv"), "utf8")).toBe(reference);
    const unhandled = consoleError.mock.calls.filter((args) =>
      String(args[0]).includes("Unhandled error event"),
    );
    consoleError.mockRestore();
    expect(unhandled).toEqual([]);
  }, 90_000);
});
