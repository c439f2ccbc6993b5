/**
 * Every `cclab` command the READMEs show runs here, as a process of the command built from the
 * sources, shortened where it would take long and with its output redirected to a scratch
 * folder. A command a README adds without a way to run it here fails the first test, so an
 * example cannot silently stop working (the root README's `--set run.durationUs=500` once
 * exited 2).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { testBundles } from "../../../packages/sweep/test/bundles.js";
import {
  redisServerInstalled,
  startRedis,
  startWorker,
} from "../../../packages/sweep/test/redis-server.js";
import { main } from "../src/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const READMES = [
  "README.md",
  "apps/cli/README.md",
  "apps/reproduce/README.md",
  "apps/viewer/README.md",
];

/** The `cclab` commands of the READMEs' shell blocks, as argument lists (comments dropped). */
function readmeCommands(): { readme: string; line: string; argv: string[] }[] {
  const found: { readme: string; line: string; argv: string[] }[] = [];
  for (const readme of READMES) {
    const text = readFileSync(join(ROOT, readme), "utf8");
    for (const block of text.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
      if (block[1] !== "") continue; // ts, yaml: not shell
      const lines = block[2]!.split("\n");
      // In a block with prompts only the prompted lines are commands; the rest is output.
      const prompted = lines.some((l) => l.startsWith("$ "));
      for (const raw of lines) {
        const line = raw.replace(/\s+#.*$/, "").trim();
        if (prompted && !line.startsWith("$ ")) continue;
        const m = /^(?:\$ )?(?:npm run cclab -- |cclab )(.*)$/.exec(line);
        if (m === null) continue;
        // A synopsis (`cclab run <scenario.yaml> [--out DIR]`) is not a command.
        if (/[<[|]/.test(m[1]!)) continue;
        found.push({ readme, line, argv: m[1]!.split(/\s+/) });
      }
    }
  }
  return found;
}

const dir = scratchDir("cclab-readme-");
let cli: string;
const cclab = (argv: readonly string[]) =>
  spawnSync(process.execPath, [cli, ...argv], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });

async function inProcess(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const status = await main(argv, io);
  return { status, stdout, stderr };
}

/** A shortened copy of a shipped sweep file: two points of 2 ms. */
function shortSweep(file: string): string {
  const sweep = parse(readFileSync(join(ROOT, file), "utf8")) as Record<string, unknown>;
  const axes = sweep.axes as Record<string, unknown[]>;
  const short = {
    ...sweep,
    base: join(ROOT, "scenarios/gran-thesis", sweep.base as string),
    set: { ...(sweep.set as object), "run.durationUs": 2000, "run.warmupUs": 500 },
    axes: Object.fromEntries(Object.entries(axes).map(([k, v]) => [k, v.slice(0, 1)])),
    seeds: [1, 2],
  };
  const out = join(dir, "short.sweep.yaml");
  writeFileSync(out, stringify(short));
  return out;
}

/**
 * How each README command runs here: the arguments to use (output into the scratch folder,
 * long runs shortened), and the exit code and output it must give.
 */
interface Run {
  readonly argv: string[];
  readonly code: number;
  readonly says?: RegExp;
  readonly inProcess?: boolean;
}

const HOW: Record<string, (argv: string[]) => Run> = {
  "run scenarios/bench/uniform256.yaml --out results/uniform256": () => ({
    argv: [
      "run",
      "scenarios/bench/uniform256.yaml",
      "--out",
      join(dir, "uniform256"),
      "--quiet",
    ].concat(["--set", "run.untilComplete=false", "--set", "run.durationUs=40"]),
    code: 0,
  }),
  "run scenarios/srp/fig1-no-cc.yaml --seed 2 --set run.durationUs=1000": (argv) => ({
    argv: [...argv, "--out", join(dir, "fig1"), "--quiet", "--no-plots"],
    code: 0,
  }),
  "validate my-scenario.yaml": () => {
    const file = join(dir, "my-scenario.yaml");
    writeFileSync(file, stringify({ name: "mine", topology: { kind: "single-switch", hosts: 0 } }));
    return { argv: ["validate", file], code: 2, says: /topology\.hosts[\s\S]*\n {2}run: / };
  },
  list: (argv) => ({ argv, code: 0, says: /topolog/i }),
  "list --plugin ./my-cc.js": () => {
    // A plugin file as a scheme of one's own would be (zod from this repository).
    const file = join(dir, "my-cc.mjs");
    const zod = pathToFileURL(createRequire(import.meta.url).resolve("zod")).href;
    writeFileSync(
      file,
      `import { z } from ${JSON.stringify(zod)};
export default {
  name: "my-cc", description: "a scheme of one's own",
  params: z.strictObject({ gainFraction: z.number().default(0.5).describe("rate cut") }),
  create: () => ({ specVersion: "^3.0.0", name: "my-cc" }),
};
`,
    );
    return {
      argv: ["list", "--plugin", file],
      code: 0,
      says: /^my-cc \(from ".*my-cc\.mjs"\): a scheme of one's own\n[\s\S]*gainFraction +number +0\.5 +fraction +rate cut/m,
    };
  },
  "topology scenarios/gran-thesis/parking-lot-no-cc.yaml": (argv) => ({
    argv,
    code: 0,
    says: /^S1\.p3 +→ +S2\.p0 /m,
  }),
  "plot results/uniform256 --series fct": () => ({
    argv: ["plot", join(dir, "uniform256"), "--series", "fct"],
    code: 0,
  }),
  "compare results/pl-no-cc results/pl-cc": () => {
    for (const [name, file] of [
      ["pl-no-cc", "scenarios/gran-thesis/parking-lot-no-cc.yaml"],
      ["pl-cc", "scenarios/gran-thesis/parking-lot-cc.yaml"],
    ] as const) {
      const ran = cclab(["run", file, "--out", join(dir, name), "--quiet", "--no-plots"]);
      expect(ran.status, ran.stderr).toBe(0);
    }
    return {
      argv: ["compare", join(dir, "pl-no-cc"), join(dir, "pl-cc"), "--out", join(dir, "cmp")],
      code: 0,
    };
  },
  "sweep scenarios/gran-thesis/paper3-timer-marking.sweep.yaml": (argv) => ({
    argv: ["sweep", shortSweep(argv[1]!), "--out", join(dir, "sweep"), "--quiet"],
    code: 0,
  }),
  "validate bad.yaml": () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(
      file,
      stringify({
        name: "bad",
        topology: { kind: "single-switch", hosts: 4, rateGbps: -10 },
        traffic: [{ pattern: "zipf" }],
        run: { durationUs: 10 },
      }),
    );
    return {
      argv: ["validate", file],
      code: 2,
      says: /topology\.rateGbps: must be a rate > 0 Gb\/s, got -10[\s\S]*traffic\[0\]\.pattern: unknown traffic pattern "zipf"/,
    };
  },
  // In this process, from the sources: `cclab reproduce` finds the shipped scenarios beside
  // its own file, which a test bundle is not.
  "reproduce paper2-3-parking-lot-cc --out results/reproduce": () => ({
    argv: ["reproduce", "paper2-3-parking-lot-cc", "--out", join(dir, "reproduce")],
    code: 0,
    inProcess: true,
    says: /4 of 4 findings hold/,
  }),
  "run scenarios/dcqcn/incast-4.yaml --set run.warmupUs=0 --set run.durationUs=30 --trace --trace-flows 8 --trace-to-us 3":
    (argv) => ({
      argv: [...argv, "--out", join(dir, "trace"), "--quiet", "--no-plots"],
      code: 0,
      says: /results: .*trace\.csv/,
    }),
  "--version": (argv) => ({ argv, code: 0, says: /^\d+\.\d+\.\d+\n$/, inProcess: true }),
  "view results/demo-parking-lot --export results/demo-parking-lot-view": () => {
    const ran = cclab([
      "run",
      "scenarios/gran-thesis/parking-lot-no-cc.yaml",
      ...["--out", join(dir, "demo-parking-lot"), "--quiet", "--no-plots"],
    ]);
    expect(ran.status, ran.stderr).toBe(0);
    return {
      argv: ["view", join(dir, "demo-parking-lot"), "--export", join(dir, "demo-view")],
      code: 0,
      says: /exported to .*demo-view\/index\.html/,
    };
  },
};

/** Commands run only in another test, and where. */
const ELSEWHERE: Record<string, string> = {
  "sweep my.sweep.yaml --redis redis://host:6379": "below, against a Redis server of the test",
  "worker --redis redis://host:6379": "below, against a Redis server of the test",
  "reproduce --all --quick":
    "apps/reproduce/test (each experiment at reduced length; all of them take tens of minutes)",
};

describe("the READMEs' cclab commands", () => {
  beforeAll(async () => {
    cli = (await testBundles()).cli;
  }, 120_000);

  it("are all known to this test", () => {
    const commands = readmeCommands();
    expect(commands.length).toBeGreaterThan(8);
    for (const c of commands) {
      const key = c.argv.join(" ");
      expect(key in HOW || key in ELSEWHERE, `${c.readme}: ${c.line}`).toBe(true);
    }
  });

  for (const { readme, argv } of readmeCommands()) {
    const key = argv.join(" ");
    if (!(key in HOW)) continue;
    it(`${readme}: cclab ${key}`, async () => {
      const how = HOW[key]!(argv);
      const run = how.inProcess === true ? await inProcess(how.argv) : cclab(how.argv);
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(how.code);
      if (how.says !== undefined) expect(`${run.stdout}${run.stderr}`).toMatch(how.says);
    }, 300_000);
  }
});

describe.skipIf(!redisServerInstalled())("the README's sweep through Redis", () => {
  let redis: { url: string; stop: () => void };
  let worker: ReturnType<typeof startWorker> | undefined;
  beforeAll(async () => {
    cli = (await testBundles()).cli;
    redis = await startRedis();
  }, 120_000);
  afterAll(() => {
    worker?.child.kill("SIGKILL");
    redis?.stop();
  });

  it("cclab worker --redis URL runs what cclab sweep my.sweep.yaml --redis URL queues", async () => {
    worker = startWorker(cli, ["--redis", redis.url]);
    await worker.waitFor("worker ready");
    const sweep = cclab(
      ["sweep", shortSweep("scenarios/gran-thesis/paper3-timer-marking.sweep.yaml")].concat([
        "--redis",
        redis.url,
        "--out",
        join(dir, "redis-sweep"),
        "--quiet",
      ]),
    );
    expect(sweep.status, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(
      /2 points \(through redis:\/\/[^)]*\): 2 run, 0 finished earlier, 0 failed/,
    );
    await worker.waitFor("complete "); // the worker's log reaches us a little after the sweep ends
  }, 300_000);
});
