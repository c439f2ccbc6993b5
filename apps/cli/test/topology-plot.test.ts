import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const SCENARIO = fileURLToPath(
  new URL("../../../scenarios/gran-thesis/parking-lot-no-cc.yaml", import.meta.url),
);

describe("cclab topology", () => {
  it("prints every port by name with what its cable leads to", async () => {
    const { c, io } = capture();
    expect(await main(["topology", SCENARIO], io)).toBe(EXIT.ok);
    expect(c.out).toContain("2 switches, 7 hosts, 8 cables (16 of 16 ports cabled)");
    // The link between the switches, seen from both ends, and a host's port.
    expect(c.out).toMatch(/^S1\.p3 +→ +S2\.p0 +32 Gb\/s +5 ns$/m);
    expect(c.out).toMatch(/^S2\.p0 +→ +S1\.p3 /m);
    expect(c.out).toMatch(/^H5\.p0 +→ +S2\.p2 /m);
  });

  it("writes the map as CSV with --csv, and takes --set", async () => {
    const { c, io } = capture();
    const code = await main(["topology", SCENARIO, "--csv", "--set", "topology.rateGbps=8"], io);
    expect(code).toBe(EXIT.ok);
    const lines = c.out.trim().split("\n");
    expect(lines[0]).toBe("name,device,port,peer,rate_gbps,latency_ns");
    expect(lines).toContain("H1.p0,H1,0,S1.p0,8,5");
    expect(lines).toHaveLength(1 + 16);
  });

  it("rejects a scenario with errors with exit 2, listing them", async () => {
    const { c, io } = capture();
    const code = await main(["topology", SCENARIO, "--set", "topology.rateGbps=-1"], io);
    expect(code).toBe(EXIT.badInput);
    expect(c.err).toContain("topology.rateGbps");
  });
});

describe("cclab plot --port and --flow", () => {
  const out = join(scratchDir("cclab-plot-select-"), "run");
  beforeAll(async () => {
    const { io } = capture();
    const code = await main(
      ["run", SCENARIO, "--out", out, "--quiet", "--no-plots", "--set", "run.durationUs=2500"],
      io,
    );
    expect(code).toBe(EXIT.ok);
  });

  it("draws only the ports and flows named", async () => {
    const { c, io } = capture();
    const code = await main(
      [
        "plot",
        out,
        "--series",
        "flow-control",
        "--series",
        "flow-throughput",
        "--port",
        "S2.p2",
        "--flow",
        "H1->H4",
      ],
      io,
    );
    expect(code).toBe(EXIT.ok);
    expect(c.out).toContain("flow-control.png");
    const control = readFileSync(join(out, "plots/flow-control.vl.json"), "utf8");
    expect(control).toContain("S2.p2 → H5 VL 0");
    expect(control).not.toContain("H1.p0 → S1.p0");
    const flows = readFileSync(join(out, "plots/flow-throughput.vl.json"), "utf8");
    expect(flows).toContain("H1→H4 (victim)");
    expect(flows).not.toContain("H2→H5");
  });

  it("rejects ports and flows the run does not have, all at once, with exit 2", async () => {
    const { c, io } = capture();
    const code = await main(
      ["plot", out, "--port", "S9.p1", "--flow", "H4->H1", "--series", "x"],
      io,
    );
    expect(code).toBe(EXIT.badInput);
    expect(c.err).toContain('--port "S9.p1": no such port or device');
    expect(c.err).toContain('--flow "H4->H1": no such flow');
    expect(c.err).toContain('--series "x": not a figure');
    expect(c.err).not.toContain("    at ");
  });
});
