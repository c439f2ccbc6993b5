import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { writeRunDir, writeSweepDir } from "../../viewer/test/fixtures.js";
import { EXIT, main } from "../src/index.js";
import { view } from "../src/view.js";
import { capture } from "./capture.js";

const dir = scratchDir("cclab-view-");
const run = writeRunDir(join(dir, "run"));
const sweep = writeSweepDir(join(dir, "sweep"));

describe("cclab view", () => {
  it("documents itself", async () => {
    const c = capture();
    expect(await main(["view", "--help"], c.io)).toBe(EXIT.ok);
    expect(c.out).toContain("--export DIR");
    const all = capture();
    await main(["--help"], all.io);
    expect(all.out).toContain("cclab view <result-or-sweep-dir>");
  });

  it("refuses bad arguments with exit 2, naming each problem, no stack", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    for (const [argv, says] of [
      [["view"], /give one or more result or sweep directories/],
      [["view", join(dir, "nope")], /nope: no such directory/],
      [["view", dir], /neither a finished run \(no summary\.json\) nor a sweep/],
      [["view", run, "--port", "http"], /--port "http": must be an integer from 0/],
      [["view", run, "--port", "70000"], /--port "70000"/],
      [["view", run, "--port", "1", "--port", "2"], /--port: give it once/],
      [["view", run, "--port", "0", "--export", join(dir, "x")], /give one of them/],
      [["view", run, "--export", join(file, "sub")], /cannot write results to .*a-file is a file/],
      [["view", run, "--series", "x"], /option --series does not apply to view/],
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io), argv.join(" ")).toBe(EXIT.badInput);
      expect(c.err, argv.join(" ")).toMatch(says);
      expect(c.err).not.toMatch(/\n\s+at /);
    }
  });

  it("serves the named folders on 127.0.0.1 until stopped", async () => {
    const c = capture();
    let stop = () => {};
    const stopped = new Promise<void>((done) => (stop = done));
    const exit = view([run, sweep], { port: ["0"] }, c.io, stopped);
    await expect.poll(() => c.out, { timeout: 10_000 }).toMatch(/cclab view: http:\/\//);
    const url = /cclab view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(c.out)![1]!;
    const manifest = (await (await fetch(`${url}api/manifest`)).json()) as {
      runs: { label: string }[];
    };
    expect(manifest.runs.map((r) => r.label)).toEqual(["run", "sweep/p1"]);
    expect((await fetch(url)).headers.get("content-type")).toContain("text/html");
    stop();
    expect(await exit).toBe(EXIT.ok);
  });

  it("exports a folder that needs no server", async () => {
    const out = join(dir, "export");
    const c = capture();
    expect(await main(["view", run, sweep, "--export", out], c.io)).toBe(EXIT.ok);
    expect(c.out).toContain(`exported to ${join(out, "index.html")}`);
    expect(existsSync(join(out, "index.html"))).toBe(true);
    const data = readFileSync(join(out, "data.js"), "utf8");
    expect(data).toMatch(/^globalThis\.__CCLAB_VIEWER_DATA__ = \{"manifest":/);
    expect(data).toContain('"flow-throughput"');
  });
});
