import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { MALFORMED, VALID } from "../../../packages/sim/test/malformed-cases.js";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { testBundles } from "../../../packages/sweep/test/bundles.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const dir = scratchDir("cclab-cli-");
function scenarioFile(name: string, document: unknown): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}

describe("cclab", () => {
  it("prints help and its version", async () => {
    const c = capture();
    expect(await main(["--help"], c.io)).toBe(EXIT.ok);
    expect(c.out).toContain("cclab run <scenario.yaml>");
    const v = capture();
    expect(await main(["--version"], v.io)).toBe(EXIT.ok);
    expect(v.out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const r = capture();
    expect(await main(["run", "--help"], r.io)).toBe(EXIT.ok);
    expect(r.out).toContain("--set path=value");
  });

  it("rejects an unknown command or option with exit 2", async () => {
    const c = capture();
    expect(await main(["simulate"], c.io)).toBe(EXIT.badInput);
    expect(c.err).toContain('unknown command "simulate"');
    const o = capture();
    expect(await main(["run", "x.yaml", "--fast"], o.io)).toBe(EXIT.badInput);
    expect(o.err).toContain("--fast");
  });

  it("rejects inherited object keys as commands with exit 2", async () => {
    for (const argv of [["toString"], ["constructor"], ["toString", "--help"], ["__proto__"]]) {
      const c = capture();
      expect(await main(argv, c.io)).toBe(EXIT.badInput);
      expect(c.err).toContain(`unknown command "${argv[0]}"`);
    }
  });

  it("lists topologies, traffic patterns and plugins with their parameters", async () => {
    const c = capture();
    expect(await main(["list"], c.io)).toBe(EXIT.ok);
    expect(c.out).toContain("two-level-fat-tree");
    expect(c.out).toMatch(/rateGbps\s+number\s+100/);
    expect(c.out).toContain("uniform");
    expect(c.out).toContain("loadFraction");
    expect(c.out).toContain("CC plugins");
  });

  it("validates a good scenario", async () => {
    const c = capture();
    expect(await main(["validate", scenarioFile("valid", VALID)], c.io)).toBe(EXIT.ok);
    expect(c.out).toContain("ok:");
  });

  it.each(MALFORMED)("exits 2 on a malformed scenario: $what", async ({ what, document, path }) => {
    const c = capture();
    const file = scenarioFile(what.replace(/\W+/g, "-"), document);
    expect(await main(["validate", file], c.io)).toBe(EXIT.badInput);
    expect(c.err).toContain(path === "" ? "(scenario)" : `${path}:`);
    expect(c.err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("exits 2 on bad rows in a trace file, before the run, naming file and line", async () => {
    writeFileSync(
      join(dir, "bad-rows.csv"),
      "src,dst,bytes,startNs,sl\n0,1,100,0,0\n0,7,100,0,0\n1,2,100,0,3\n",
    );
    const file = scenarioFile("bad-trace", {
      ...VALID,
      traffic: [{ pattern: "trace", path: "bad-rows.csv" }],
    });
    for (const command of ["validate", "run"]) {
      const c = capture();
      const out = join(dir, `bad-trace-${command}`);
      const args = command === "run" ? ["run", file, "--out", out, "--quiet"] : ["validate", file];
      expect(await main(args, c.io)).toBe(EXIT.badInput);
      expect(c.err).toContain("traffic[0]: bad-rows.csv:3: dst = 7 is not a host (0..3)");
      expect(c.err).toContain(
        "bad-rows.csv:4: sl = 3 is not a service level of this fabric (0..0;",
      );
      expect(c.err).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("exits 2 before any work when --out names a file, for every command that writes", async () => {
    const file = scenarioFile("out-file", { ...VALID, run: { durationUs: 20 } });
    const taken = join(dir, "taken.txt");
    writeFileSync(taken, "not a directory\n");
    const sweep = join(dir, "out-file-sweep.yaml");
    writeFileSync(
      sweep,
      stringify({ name: "s", base: "out-file.yaml", axes: { "run.durationUs": [20] } }),
    );
    const run = join(dir, "out-file-run");
    expect(await main(["run", file, "--quiet", "--no-plots", "--out", run], capture().io)).toBe(
      EXIT.ok,
    );
    const commands = [
      ["run", file, "--quiet"],
      ["run", file, "--quiet", "--out", join(taken, "below")],
      ["sweep", sweep, "--quiet"],
      ["compare", run, run],
      ["reproduce", "paper2-one-switch-single", "--quick"],
    ];
    for (const args of commands) {
      const c = capture();
      const outArgs = args.includes("--out") ? [] : ["--out", taken];
      expect(await main([...args, ...outArgs], c.io), args.join(" ")).toBe(EXIT.badInput);
      expect(c.err).toContain(`cannot write results to `);
      expect(c.err).toContain(`${taken} is a file, not a directory (choose another --out)`);
      expect(c.err).not.toMatch(/\n\s+at /);
    }
    expect(readFileSync(taken, "utf8")).toBe("not a directory\n");
  });

  it("exits 2 on a file that is missing or not YAML", async () => {
    const c = capture();
    expect(await main(["validate", join(dir, "nope.yaml")], c.io)).toBe(EXIT.badInput);
    expect(c.err).toContain("cannot read");
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "name: [unclosed\n");
    const y = capture();
    expect(await main(["validate", bad], y.io)).toBe(EXIT.badInput);
  });

  it("runs a scenario and writes the result directory, with --seed and --set", async () => {
    const out = join(dir, "run1");
    const c = capture();
    const code = await main(
      [
        "run",
        scenarioFile("run", VALID),
        "--out",
        out,
        "--seed",
        "7",
        "--set",
        "run.durationUs=30",
      ],
      c.io,
    );
    // stderr is not a terminal here: only the plain progress lines of a log.
    expect(c.err).toMatch(/^(cclab run: \[100\.0%\] .*\n)+$/);
    expect(code).toBe(EXIT.ok);
    for (const f of [
      "scenario.resolved.json",
      "summary.json",
      "summary.txt",
      "run.json",
      "ports.csv",
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const resolved = JSON.parse(readFileSync(join(out, "scenario.resolved.json"), "utf8"));
    expect(resolved.seed).toBe(7);
    expect(resolved.run.durationUs).toBe(30);
    expect(resolved.switch.routingLatencyNs).toBe(100); // defaults written out
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(summary.simulatedUs).toBe(30);
    expect(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).status).toBe("complete");
    expect(c.out).toContain("scenario ok");
    // Plots of the recorded series, drawn from the saved CSVs.
    expect(c.out).toContain(`plots: ${out}/plots/`);
    for (const f of ["flow-throughput.svg", "flow-throughput.png", "fct.png"]) {
      expect(existsSync(join(out, "plots", f)), f).toBe(true);
    }
  });

  it("reruns a result's scenario.resolved.json to the same summary, with and without CC", async () => {
    for (const [label, document] of [
      ["no-cc", VALID],
      ["with-cc", { ...VALID, cc: { switch: { plugin: "infiniband" } } }],
    ] as const) {
      const first = join(dir, `rerun-${label}-1`);
      const again = join(dir, `rerun-${label}-2`);
      const run = async (file: string, out: string) => {
        const c = capture();
        const code = await main(["run", file, "--out", out, "--no-plots", "--quiet"], c.io);
        expect(c.err).toBe("");
        return code;
      };
      expect(await run(scenarioFile(`rerun-${label}`, document), first)).toBe(EXIT.ok);
      expect(await run(join(first, "scenario.resolved.json"), again)).toBe(EXIT.ok);
      expect(readFileSync(join(again, "summary.json"), "utf8")).toBe(
        readFileSync(join(first, "summary.json"), "utf8"),
      );
    }
  });

  it("prints and records the time per event kind with --profile, results unchanged", async () => {
    const file = scenarioFile("profiled", VALID);
    const runs = [];
    for (const extra of [[], ["--profile"]]) {
      const out = join(dir, `profile${extra.length}`);
      const c = capture();
      const args = ["run", file, "--out", out, "--set", "run.durationUs=30", "--no-plots"];
      expect(await main([...args, ...extra], c.io)).toBe(EXIT.ok);
      runs.push({ c, out, run: JSON.parse(readFileSync(join(out, "run.json"), "utf8")) });
    }
    const [plain, profiled] = runs;
    expect(plain!.run.kindProfile).toBeUndefined();
    expect(plain!.c.out).not.toContain("time in event handlers");
    const profile = profiled!.run.kindProfile as { kind: string; events: number }[];
    expect(profile.reduce((n, p) => n + p.events, 0)).toBe(profiled!.run.events);
    expect(profiled!.c.out).toMatch(
      /time in event handlers by kind \(one event in 16 of each kind timed\):\nevent kind +events +% of handler time +µs\/event\n/,
    );
    expect(profiled!.c.out).toMatch(/\nlink: packet arrives +\d+ +[\d.]+ +[\d.]+\n/);
    expect(readFileSync(join(profiled!.out, "summary.json"), "utf8")).toBe(
      readFileSync(join(plain!.out, "summary.json"), "utf8"),
    );
  });

  it("redraws one figure with cclab plot, and rejects what it cannot plot with exit 2", async () => {
    const out = join(dir, "plotted");
    const r = capture();
    const file = scenarioFile("plotted", { ...VALID, run: { durationUs: 30 } });
    expect(await main(["run", file, "--out", out, "--no-plots"], r.io)).toBe(EXIT.ok);
    expect(existsSync(join(out, "plots"))).toBe(false);
    const p = capture();
    expect(await main(["plot", out, "--series", "fct"], p.io)).toBe(EXIT.ok);
    expect(p.out.trim().split("\n")).toEqual(
      ["fct.svg", "fct.png", "fct.vl.json"].map((f) => join(out, "plots", f)),
    );
    const unknown = capture();
    expect(await main(["plot", out, "--series", "queues"], unknown.io)).toBe(EXIT.badInput);
    expect(unknown.err).toContain('--series "queues": not a figure; figures: flow-throughput');
    const missing = capture();
    expect(await main(["plot", join(dir, "nowhere")], missing.io)).toBe(EXIT.badInput);
    expect(missing.err).toContain("has no summary.json");
    const stray = capture();
    expect(await main(["plot", out, "--seed", "3"], stray.io)).toBe(EXIT.badInput);
    expect(stray.err).toContain("--seed does not apply to plot");
  });

  it("compares runs in one table and overlaid plots, and exits 2 on a directory that is no run", async () => {
    const file = scenarioFile("cmp", { ...VALID, run: { durationUs: 30 } });
    const low = join(dir, "low");
    const high = join(dir, "high");
    expect(await main(["run", file, "--out", low, "--no-plots"], capture().io)).toBe(EXIT.ok);
    const set = ["--set", "traffic[0].loadFraction=0.9"];
    expect(await main(["run", file, "--out", high, "--no-plots", ...set], capture().io)).toBe(
      EXIT.ok,
    );
    const c = capture();
    const out = join(dir, "cmp-out");
    expect(await main(["compare", low, high, "--out", out], c.io)).toBe(EXIT.ok);
    expect(c.out).toMatch(/^\s+low\s+high$/m);
    expect(c.out).toMatch(/^window Gb\/s\s+[\d.]+\s+[\d.]+$/m);
    expect(c.out).toContain("Jain");
    const csv = readFileSync(join(out, "compare.csv"), "utf8").trim().split("\n");
    expect(csv).toHaveLength(3);
    expect(csv[1]).toMatch(/^low,/);
    expect(existsSync(join(out, "plots", "fct.png"))).toBe(true);
    const bad = capture();
    expect(await main(["compare", low, join(dir, "nowhere")], bad.io)).toBe(EXIT.badInput);
    expect(bad.err).toContain("has no summary.json");
    const one = capture();
    expect(await main(["compare", low], one.io)).toBe(EXIT.badInput);
    expect(one.err).toContain("two or more");
  });

  it("reproduces a paper's experiment into a report with the paper's figures, ours and plots", async () => {
    const out = join(dir, "reproduce");
    const c = capture();
    expect(await main(["reproduce", "paper2-one-switch-two", "--out", out], c.io)).toBe(EXIT.ok);
    expect(c.out).toMatch(/reproductions\.md: \d+ of 4 findings hold \(1 experiments/);
    const report = readFileSync(join(out, "reproductions.md"), "utf8");
    expect(report).toContain("## Paper II, one switch, two thresholds: equal shares");
    expect(report).toContain("| what | paper | ours | deviation | holds | tolerance |");
    const image = /!\[[^\]]*flow-throughput\]\(([^)]+)\)/.exec(report);
    expect(image).not.toBeNull();
    expect(existsSync(join(out, image![1]!))).toBe(true);
    for (const args of [
      ["reproduce"],
      ["reproduce", "paper9"],
      ["reproduce", "--all", "paper2-one-switch-two"],
    ]) {
      const bad = capture();
      expect(await main(args, bad.io)).toBe(EXIT.badInput);
      expect(bad.err).toMatch(/experiments: paper2-one-switch-single|not both/);
    }
  }, 60_000);

  it("leaves no summary.json when interrupted, and says so in run.json", async () => {
    const out = join(dir, "interrupted");
    const long = { ...VALID, run: { durationUs: 1_000_000 } };
    const c = capture();
    const running = main(["run", scenarioFile("long", long), "--out", out], c.io);
    setTimeout(() => process.emit("SIGINT"), 300);
    expect(await running).toBe(EXIT.interrupted);
    expect(existsSync(join(out, "summary.json"))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).status).toBe("interrupted");
    expect(c.err).toContain("interrupted");
  });
});

describe("cclab sweep and cclab worker", () => {
  // Sweeps run points on worker threads, which load a built worker: these tests run the
  // bundled command in a child process.
  let cli: string;
  beforeAll(async () => {
    cli = (await testBundles()).cli;
  }, 60_000);
  const cclab = (...args: string[]) =>
    spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  const sweepDir = scratchDir("cclab-cli-sweep-");
  writeFileSync(join(sweepDir, "base.yaml"), stringify(VALID));
  const sweepFile = (name: string, sweep: Record<string, unknown>) => {
    const file = join(sweepDir, `${name}.yaml`);
    writeFileSync(file, stringify({ name, base: "base.yaml", ...sweep }));
    return file;
  };

  it("runs a sweep on the cores, then resumes it", () => {
    const file = sweepFile("four", { axes: { "traffic[0].loadFraction": [0.2, 0.4, 0.6, 0.8] } });
    const out = join(sweepDir, "four");
    const first = cclab("sweep", file, "--out", out, "--threads", "2");
    expect(first.stderr).toContain("4/4");
    expect(first.status).toBe(EXIT.ok);
    expect(first.stdout).toContain("4 points: 4 run, 0 finished earlier, 0 failed");
    expect(first.stdout).toContain(`table: ${join(out, "sweep.csv")}`);
    expect(first.stdout).toContain("plots:");
    const again = cclab("sweep", file, "--out", out, "--quiet");
    expect(again.status).toBe(EXIT.ok);
    expect(again.stdout).toContain("4 points: 0 run, 4 finished earlier");
    expect(again.stderr).toBe("");
  });

  it("exits 1 after the other points when a point fails", () => {
    const file = sweepFile("bad-point", { axes: { "traffic[0].loadFraction": [0.5, -1] } });
    const r = cclab("sweep", file, "--out", join(sweepDir, "bad-point"), "--quiet");
    expect(r.status).toBe(EXIT.runFailed);
    expect(r.stdout).toContain("1 run");
    expect(r.stdout).toMatch(/p2 failed: invalid scenario: traffic\[0\]\.loadFraction/);
    expect(r.stderr).toContain("1 of 2 points failed");
  });

  it.each([
    ["an invalid sweep file", ["sweep", "SWEEP:bad-key"], "the sweep is not valid"],
    [
      "--threads 0",
      ["sweep", "SWEEP:four", "--threads", "0"],
      "--threads must be a whole number ≥ 1",
    ],
    [
      "--threads with --redis",
      ["sweep", "SWEEP:four", "--threads", "2", "--redis", "redis://127.0.0.1:1"],
      "with --redis the workers' --threads do",
    ],
    [
      "a Redis URL that is not one",
      ["sweep", "SWEEP:four", "--redis", "http://x"],
      "--redis must start with redis://",
    ],
    ["a worker without --redis", ["worker"], "give --redis URL"],
    [
      "a worker with a bad lock",
      ["worker", "--redis", "redis://127.0.0.1:1", "--lock-duration-ms", "0"],
      "--lock-duration-ms must be a whole number",
    ],
  ])("exits 2 on %s, without a stack trace", (_what, args, says) => {
    sweepFile("bad-key", { axes: { x: [1] }, axis: {} });
    sweepFile("four", { axes: { "traffic[0].loadFraction": [0.2, 0.4, 0.6, 0.8] } });
    const r = cclab(
      ...args.map((a) => (a.startsWith("SWEEP:") ? join(sweepDir, `${a.slice(6)}.yaml`) : a)),
    );
    expect(r.status).toBe(EXIT.badInput);
    expect(r.stderr).toContain(says);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
