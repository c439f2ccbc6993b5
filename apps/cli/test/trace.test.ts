/**
 * `cclab run --trace`: trace.csv in the result directory with the filters applied, the same
 * summary.json as without it, a bound that says it cut the trace (stderr, the file, run.json),
 * and bad filter values refused with exit 2, every one with its option, before any run.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { EXIT, main } from "../src/index.js";

const dir = scratchDir("cclab-trace-");

// Two switches, H0 H1 on S0 and H2 H3 on S1; two flows share the S0–S1 cable.
const file = join(dir, "two-switches.yaml");
writeFileSync(
  file,
  stringify({
    name: "trace-cli",
    topology: { kind: "parking-lot", switches: 2, hostsPerSwitch: 2 },
    traffic: [
      {
        pattern: "scheduled",
        flows: [
          { src: "H0", dst: "H2", totalBytes: 20_000 },
          { src: "H1", dst: "H3", totalBytes: 20_000 },
        ],
      },
    ],
    run: { untilComplete: true },
  }),
);

async function run(name: string, ...options: string[]) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const out = join(dir, name);
  const code = await main(["run", file, "--out", out, "--quiet", "--no-plots", ...options], io);
  const read = (f: string) => readFileSync(join(out, f), "utf8");
  return { code, stdout, stderr, out, read };
}

const lines = (csv: string) => csv.trimEnd().split("\n");

describe("cclab run --trace", () => {
  it("writes trace.csv in the result directory, and the same summary.json as without", async () => {
    const plain = await run("plain");
    const traced = await run(
      "traced",
      "--trace",
      "--trace-flows",
      "H0->H2",
      "--trace-ports",
      "S1.p0,H2",
    );
    expect(plain.code).toBe(EXIT.ok);
    expect(traced.code).toBe(EXIT.ok);
    expect(traced.stderr).toBe("");
    expect(traced.read("summary.json")).toBe(plain.read("summary.json"));
    expect(existsSync(join(plain.out, "trace.csv"))).toBe(false);
    expect(traced.stdout).toMatch(/results: .*trace\.csv/);
    const [header, ...rows] = lines(traced.read("trace.csv"));
    expect(header).toBe(
      "time_ps,device,port,vl,event,packet,flow,src,dst,kind,size_bytes,payload_bytes,message,seq,fecn,becn,ecn",
    );
    // 20 kB in 10 packets, each sent by S1.p0 and delivered at H2.
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.split(",").slice(1, 3).join(".p")))).toEqual(
      new Set(["S1.p0", "H2.p0"]),
    );
    expect(rows.every((r) => r.split(",")[7] === "H0" && r.split(",")[8] === "H2")).toBe(true);
    expect(JSON.parse(traced.read("run.json")).trace).toEqual({
      file: "trace.csv",
      rows: 20,
      maxRows: 1_000_000,
      truncated: false,
      omittedRows: 0,
    });
  });

  it("stops at --trace-max-rows and says so on stderr, in the file and in run.json", async () => {
    const cut = await run("cut", "--trace", "--trace-kinds", "data", "--trace-max-rows", "7");
    expect(cut.code).toBe(EXIT.ok);
    const all = lines(cut.read("trace.csv"));
    expect(all).toHaveLength(1 + 7 + 1);
    expect(all.at(-1)).toMatch(/^# truncated: the first 7 matching packet events only/);
    const trace = JSON.parse(cut.read("run.json")).trace;
    expect(trace).toMatchObject({ rows: 7, maxRows: 7, truncated: true });
    // Each of the 20 packets is injected, enqueued and sent at 2 switches, and delivered.
    expect(trace.omittedRows).toBe(20 * 6 - 7);
    expect(cut.stderr).toBe(
      `cclab run: trace.csv is truncated: it holds the first 7 matching packet events only; ${20 * 6 - 7} later ones were not written (--trace-max-rows 7; narrow the filters or raise it)\n`,
    );
  });

  it("refuses bad filter values with exit 2, naming every option, before anything runs", async () => {
    const bad = await run(
      "bad",
      "--trace",
      "--trace-ports",
      "S9.p1,S0.p7",
      "--trace-flows",
      "H0->H8",
      "--trace-kinds",
      "cpn",
      "--trace-from-us",
      "soon",
      "--trace-max-rows",
      "0",
    );
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.stderr).toBe(
      [
        "cclab run: the trace options are not valid:",
        '  --trace-from-us: must be a time in µs, got "soon"',
        '  --trace-flows: "H0->H8": no host named "H8" (hosts: H0, H1, H2, H3)',
        '  --trace-ports: "S9.p1": no device named "S9" (switches: S0, S1; hosts: H0, H1, H2, H3)',
        '  --trace-ports: "S0.p7": S0 has ports p0..p3',
        '  --trace-kinds: "cpn" is not a packet kind; kinds: data, ack, nack, cnp, reservation, grant, probe, bcn, pause, credit-update, or a plugin\'s own x-<name>',
        "  --trace-max-rows: must be a whole number of rows ≥ 1, got 0",
        "",
      ].join("\n"),
    );
    expect(existsSync(bad.out)).toBe(false);
    // A flow id the built fabric lacks is found before the run too.
    const flow = await run("bad-flow", "--trace", "--trace-flows", "3,5,999");
    expect(flow.code).toBe(EXIT.badInput);
    expect(flow.stderr).toMatch(
      /^cclab run: the trace options are not valid:\n {2}--trace-flows: 5 is not a flow/,
    );
    expect(flow.stderr).toContain("--trace-flows: 999 is not a flow of this fabric");
    expect(existsSync(flow.out)).toBe(false);
    // Filters trace nothing without --trace.
    const alone = await run("alone", "--trace-kinds", "cnp");
    expect(alone.code).toBe(EXIT.badInput);
    expect(alone.stderr).toContain("--trace-kinds: filters the packet trace; add --trace");
  });
});
