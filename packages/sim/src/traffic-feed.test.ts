import { describe, expect, it } from "vitest";
import { resolveScenario } from "./scenario/resolve.js";
import { simulate } from "./simulate.js";

/**
 * `host.slMapping: destination` (VOQnet, a VL per destination host): the feed gives every
 * message the SL of its destination's index, which the host sends on as its VL; the collector
 * counts the flow under that SL.
 */
const HOSTS = 9;
const scenario = (host: Record<string, unknown>, vlCount: number) => ({
  name: "sl-by-destination",
  seed: 3,
  topology: { kind: "two-level-fat-tree", leaves: 3, spines: 2, hostsPerLeaf: 3 },
  switch: { vlCount, buffer: { model: "partitioned", bytesPerPortVl: 4224 } },
  host: { mtuBytes: 1024, receiveBufferBytes: 4224, ...host },
  traffic: [
    { pattern: "uniform", loadFraction: 0.6, size: { kind: "fixed", bytes: 3000 } },
    // A traffic entry that gives an SL: the mapping overrides it.
    { pattern: "scheduled", flows: [{ src: 0, dst: 5, sl: 1, totalBytes: 5000 }] },
  ],
  run: { durationUs: 15 },
});

// The data packets of trace.csv as [destination host index, VL].
function dataHops(files: ReadonlyMap<string, string>): [number, number][] {
  const [header, ...lines] = files.get("trace.csv")!.trimEnd().split("\n");
  const keys = header!.split(",");
  const at = (name: string) => keys.indexOf(name);
  return lines
    .filter((l) => !l.startsWith("#"))
    .map((l) => l.split(","))
    .filter((cells) => cells[at("kind")] === "data")
    .map((cells) => [Number(cells[at("dst")]!.slice(1)), Number(cells[at("vl")])]);
}

describe("host.slMapping", () => {
  it("destination: every packet travels on the VL of its destination, at every hop", async () => {
    const result = await simulate(scenario({ slMapping: "destination" }, 20), { trace: {} });
    expect(result.scenario.host.slMapping).toBe("destination");
    const hops = dataHops(result.files);
    expect(hops.length).toBeGreaterThan(100);
    for (const [dst, vl] of hops) expect(vl).toBe(dst);
    expect(new Set(hops.map(([, vl]) => vl)).size).toBe(HOSTS);
    const flows = result.summary.flows;
    expect(flows.length).toBeGreaterThan(0);
    for (const f of flows) {
      expect(f.sl).toBe(f.dst);
      expect(f.id).toBe((f.src * HOSTS + f.dst) * 20 + f.dst);
    }
    expect(result.summary.totals.completedMessages).toBeGreaterThan(0);
  });

  it("message (the default) keeps the traffic's SL", async () => {
    const result = await simulate(scenario({}, 2), { trace: {} });
    expect(result.scenario.host.slMapping).toBe("message");
    const vls = new Set(dataHops(result.files).map(([, vl]) => vl));
    expect(vls).toEqual(new Set([0, 1]));
  });

  it("destination needs a VL per host, none of them a control VL", async () => {
    await expect(resolveScenario(scenario({ slMapping: "destination" }, 8))).rejects.toThrow(
      'host.slMapping: "destination" puts each destination host on a VL of its own: needs switch.vlCount ≥ 9 (the host count), got 8',
    );
    const withControl = scenario({ slMapping: "destination" }, 12);
    const bad = { ...withControl, switch: { ...withControl.switch, controlVls: [4, 10] } };
    await expect(resolveScenario(bad)).rejects.toThrow(
      `switch.controlVls: 4 carries destination 4's data under host.slMapping "destination": control VLs must be ≥ 9 (the host count)`,
    );
    const fine = { ...withControl, switch: { ...withControl.switch, controlVls: [10] } };
    await expect(resolveScenario(fine)).resolves.toBeDefined();
  });
});
