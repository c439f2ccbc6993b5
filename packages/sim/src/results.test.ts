import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../test/scratch-dir.js";
import {
  listedFiles,
  MANIFEST,
  prepareResultDir,
  readRunState,
  recordFiles,
  unfinishedRunMessage,
  writeResultFiles,
} from "./results.js";
import type { ResolvedScenario } from "./scenario/resolve.js";

const scenario = { name: "made-up" } as unknown as ResolvedScenario;

/** The files of a made-up finished run, `summary.json` last as resultFiles gives them. */
const files = (...csvs: string[]): [string, string][] => [
  ["scenario.resolved.json", "{}\n"],
  ...csvs.map((name): [string, string] => [name, "a,b\n1,2\n"]),
  ["summary.txt", "summary\n"],
  ["run.json", '{"status":"complete"}\n'],
  ["summary.json", "{}\n"],
];

/** A pid no process has: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid!;
}

describe("result directories", () => {
  it("a rerun removes exactly the files the earlier run listed, keeping the user's", () => {
    const dir = scratchDir("cclab-results-");
    writeResultFiles(dir, files("cc-flows.csv", "flow-throughput.csv"));
    mkdirSync(join(dir, "plots"));
    writeFileSync(join(dir, "plots/fct.svg"), "<svg/>");
    recordFiles(dir, ["plots/fct.svg"]);
    writeFileSync(join(dir, "notes.md"), "mine");
    writeFileSync(join(dir, "ports.csv"), "not listed: the user's");
    expect(listedFiles(dir)).toContain("cc-flows.csv");

    prepareResultDir(dir, scenario);
    expect(readdirSync(dir).sort()).toEqual(
      [MANIFEST, "notes.md", "ports.csv", "run.json", "scenario.resolved.json"].sort(),
    );
    expect(listedFiles(dir)).toEqual(["scenario.resolved.json", "run.json"]);
    const run = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    expect(run).toMatchObject({ status: "running", pid: process.pid, host: hostname() });

    writeResultFiles(dir, files("flow-throughput.csv"));
    expect(existsSync(join(dir, "cc-flows.csv"))).toBe(false);
    expect(readFileSync(join(dir, "notes.md"), "utf8")).toBe("mine");
    expect(listedFiles(dir)).toEqual(files("flow-throughput.csv").map(([n]) => n));
  });

  it("writing a run's files over an earlier one's (a sweep point) drops what it no longer writes", () => {
    const dir = scratchDir("cclab-results-");
    writeResultFiles(dir, files("messages.csv"));
    writeFileSync(join(dir, "mine.csv"), "x");
    expect(writeResultFiles(dir, files()).at(-1)).toBe("summary.json");
    expect(existsSync(join(dir, "messages.csv"))).toBe(false);
    expect(existsSync(join(dir, "mine.csv"))).toBe(true);
  });

  it("ignores manifest entries that lead out of the folder", () => {
    const dir = scratchDir("cclab-results-");
    const outside = scratchDir("cclab-outside-");
    writeFileSync(join(outside, "precious"), "x");
    writeFileSync(
      join(dir, MANIFEST),
      JSON.stringify({
        files: [join(outside, "precious"), "../precious", "plots/../x", "..", "C:x", 3],
      }),
    );
    expect(listedFiles(dir)).toEqual([]);
    prepareResultDir(dir, scenario);
    expect(existsSync(join(outside, "precious"))).toBe(true);
    recordFiles(dir, ["../x", "plots/a b.svg", "plots/"]);
    expect(listedFiles(dir)).toEqual(["scenario.resolved.json", "run.json", "plots/a b.svg"]);
  });

  it("reports a run whose process is gone as killed, and one still alive as running", () => {
    const dir = scratchDir("cclab-results-");
    expect(readRunState(dir).status).toBe("none");
    prepareResultDir(dir, scenario);
    expect(readRunState(dir)).toMatchObject({ status: "running", pid: process.pid });
    expect(unfinishedRunMessage(dir)).toMatch(/still running/);

    const pid = deadPid();
    writeFileSync(join(dir, "run.json"), JSON.stringify({ status: "running", pid }));
    expect(readRunState(dir)).toMatchObject({ status: "killed", pid });
    expect(unfinishedRunMessage(dir)).toMatch(new RegExp(`killed.*process ${pid} is gone`));

    // Another machine's process cannot be looked up: taken at its word.
    writeFileSync(
      join(dir, "run.json"),
      JSON.stringify({ status: "running", pid, host: `not-${hostname()}` }),
    );
    expect(readRunState(dir).status).toBe("running");

    writeFileSync(join(dir, "run.json"), JSON.stringify({ status: "interrupted", reason: "x" }));
    expect(unfinishedRunMessage(dir)).toMatch(/was interrupted \(x\)/);
    writeResultFiles(dir, files());
    expect(readRunState(dir).status).toBe("complete");
    expect(unfinishedRunMessage(dir)).toBeUndefined();
  });
});
