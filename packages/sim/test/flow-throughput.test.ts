import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type SimulationResult, simulate } from "../src/index.js";
import { runShipped } from "./helpers.js";

/** One packet's bits over the window, Gb/s: what a link may add for the packet under way. */
const onePacketGbps = (r: SimulationResult, packetBytes: number) => {
  const windowNs = (r.summary.windowUs.to - r.summary.windowUs.from) * 1000;
  return (packetBytes * 8) / windowNs;
};

/**
 * The per-flow figures are consistent with the links they cross: the flows out of a host sum
 * to no more than its link's rate (plus the one packet under way when the window opened), so
 * do the flows into a host, and all flows sum to the window total.
 */
function checkFlows(r: SimulationResult, rateGbps: number, packetBytes: number): void {
  const flows = r.summary.flows;
  const sum = flows.reduce((s, f) => s + f.windowGbps, 0);
  // Each flow's figure is rounded to 1e-6 Gb/s.
  expect(Math.abs(sum - r.summary.totals.windowGbps)).toBeLessThanOrEqual(
    1e-6 * (flows.length + 1),
  );
  const slack = onePacketGbps(r, packetBytes) + 1e-6 * flows.length;
  const out = new Map<number, number>();
  const into = new Map<number, number>();
  for (const f of flows) {
    expect(f.windowGbps).toBeLessThanOrEqual(rateGbps + slack);
    out.set(f.src, (out.get(f.src) ?? 0) + f.windowGbps);
    into.set(f.dst, (into.get(f.dst) ?? 0) + f.windowGbps);
  }
  for (const total of [...out.values(), ...into.values()]) {
    expect(total).toBeLessThanOrEqual(rateGbps + slack);
  }
}

describe("per-flow throughput", () => {
  test.prop(
    [
      fc.integer({ min: 3, max: 6 }),
      fc.constantFrom(10, 25, 100),
      fc.constantFrom("credit", "pfc"),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.integer({ min: 0, max: 80 }),
      fc.boolean(),
    ],
    { numRuns: 12 },
  )(
    "sums to the window total, and no link carries more than its rate",
    async (hosts, rateGbps, flowControl, load, warmupUs, incast) => {
      const r = await simulate({
        name: "prop",
        topology: { kind: "single-switch", hosts, rateGbps, latencyNs: 100 },
        flowControl,
        ...(flowControl === "pfc" ? { switch: { pfc: { xoffBytes: 16384, xonBytes: 8192 } } } : {}),
        traffic: [
          incast
            ? {
                pattern: "hotspot",
                hotspot: 0,
                senders: Array.from({ length: hosts - 1 }, (_, i) => i + 1),
              }
            : { pattern: "uniform", loadFraction: load },
        ],
        run: { durationUs: 200 + warmupUs, warmupUs },
      });
      checkFlows(r, rateGbps, 2048 + 26);
    },
  );

  it("the demo's flows (the parking lot) sum to the window total, none above its links", async () => {
    const r = await runShipped("gran-thesis/parking-lot-no-cc.yaml");
    // 16 Gb/s host links (Gran testbed); the S1–S2 link is twice that.
    checkFlows(r, 16, 2048 + 26);
    expect(r.summary.flows.every((f) => f.windowGbps <= 16)).toBe(true);
  });

  it("uniform256's flows (200 µs of it) sum to the window total, none above its links", async () => {
    const r = await runShipped("bench/uniform256.yaml", [
      "run.untilComplete=false",
      "run.durationUs=200",
      "run.warmupUs=50",
    ]);
    checkFlows(r, 100, 1000 + 26);
  }, 120_000);
});
