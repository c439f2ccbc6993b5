import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { VALID } from "../../../packages/sim/test/malformed-cases.js";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const dir = scratchDir("cclab-progress-");
const file = join(dir, "long.yaml");
writeFileSync(file, stringify(VALID));

// Long enough for several progress intervals of 50 ms on a slow machine, short for a test.
const args = (out: string) => [
  "run",
  file,
  "--out",
  out,
  "--no-plots",
  "--set",
  "run.durationUs=3000",
];
const LINE =
  /^cclab run: \[ *\d+\.\d%\] [\d.]+ (ns|µs|ms|s) of [\d.]+ (µs|ms|s) {2}[\d.]+ M events\/s {2}[\d.]+ (s|min) .*elapsed/;

describe("progress when stderr is not a terminal", () => {
  it("writes a plain line every --progress-seconds, each on its own line, ending at 100 %", async () => {
    const { c, io } = capture(false);
    const code = await main([...args(join(dir, "log")), "--progress-seconds", "0.05"], io);
    expect(code).toBe(EXIT.ok);
    expect(c.err).not.toContain("\r");
    const lines = c.err.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(LINE);
    expect(lines.at(-1)).toContain("[100.0%]");
    // Simulated time only moves forward from line to line.
    const done = lines.map((l) => Number(/\[ *([\d.]+)%\]/.exec(l)![1]));
    expect([...done].sort((a, b) => a - b)).toEqual(done);
  });

  it("writes nothing with --quiet, and redraws one line on a terminal", async () => {
    const quiet = capture(false);
    expect(await main([...args(join(dir, "quiet")), "--quiet"], quiet.io)).toBe(EXIT.ok);
    expect(quiet.c.err).toBe("");
    const tty = capture(true);
    expect(await main(args(join(dir, "tty")), tty.io)).toBe(EXIT.ok);
    expect(tty.c.err.startsWith("\r\x1b[2K[")).toBe(true);
    expect(tty.c.err.endsWith("\n")).toBe(true);
    expect(tty.c.err.split("\n").length).toBe(2);
  });

  it("rejects a --progress-seconds that is not a positive number with exit 2", async () => {
    for (const bad of ["0", "-1", "soon"]) {
      const { c, io } = capture(false);
      expect(await main([...args(join(dir, `bad-${bad}`)), "--progress-seconds", bad], io)).toBe(
        EXIT.badInput,
      );
      expect(c.err).toContain("--progress-seconds");
    }
  });
});
