/**
 * Input limits at the command line (issue 34): prototype keys, sparse --set indices and a run
 * too large for the machine are input errors (exit 2, the field named, no stack trace).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { VALID } from "../../../packages/sim/test/malformed-cases.js";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { EXIT, main } from "../src/index.js";

const dir = scratchDir("cclab-cli-limits-");

async function cclab(argv: string[]) {
  let out = "";
  let err = "";
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  };
  const code = await main(argv, io);
  return { code, out, err };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

afterEach(() => {
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
});

describe("cclab input limits", () => {
  const scenario = file("ok.yaml", stringify(VALID));

  it.each([
    ["__proto__.polluted=1", "__proto__.polluted"],
    ["traffic[99999999].pattern=uniform", "traffic[99999999].pattern"],
  ])("validate --set %s exits 2 naming the path", async (set, path) => {
    const r = await cclab(["validate", scenario, "--set", set]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain(`${path}: --set`);
    expect(r.err).not.toMatch(/^\s{4}at /m);
  });

  it("validate of a file with a __proto__ key exits 2", async () => {
    const json = file("proto.json", '{"name": "x", "__proto__": {"polluted": 1}}');
    const r = await cclab(["validate", json]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('__proto__: key "__proto__" is not allowed');
  });

  it("sweep with a __proto__ path in set exits 2", async () => {
    const sweep = file(
      "s.sweep.yaml",
      stringify({
        name: "s",
        base: "ok.yaml",
        set: { "__proto__.polluted": 1 },
        axes: { "traffic[0].loadFraction": [0.2] },
      }),
    );
    const r = await cclab(["sweep", sweep, "--out", join(dir, "sweep-out"), "--quiet"]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("set.__proto__.polluted");
  });

  // maxMessageRecords has no upper bound: 10^15 records of 100 B is far beyond any machine.
  const huge = file("huge.yaml", stringify({ ...VALID, metrics: { maxMessageRecords: 1e15 } }));

  it("run refuses a scenario whose estimated memory exceeds the machine's", async () => {
    const out = join(dir, "huge-out");
    const r = await cclab(["run", huge, "--out", out, "--quiet", "--no-plots"]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("the run would need about");
    expect(r.err).toContain("messages.csv");
    expect(r.err).toContain("os.totalmem()");
    expect(r.err).toContain("--force");
    expect(existsSync(out)).toBe(false);
  });

  it("run --force runs it anyway", async () => {
    const out = join(dir, "forced-out");
    const r = await cclab(["run", huge, "--out", out, "--quiet", "--no-plots", "--force"]);
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(existsSync(join(out, "summary.json"))).toBe(true);
  });
});
