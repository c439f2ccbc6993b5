import { describe, expect, it } from "vitest";
import { simulate } from "../src/index.js";

/**
 * `switch.arbitration` (docs/model.md, "Arbitration"): two senders share one 10 Gb/s output,
 * one arriving at 40 Gb/s and one at 10 Gb/s, with buffers so large that flow control never
 * holds them within the run. Round-robin serves the two inputs alike (5 and 5 Gb/s);
 * oldest-first serves the output's packets in arrival order, so each gets its share of the
 * arrivals (8 and 2 Gb/s), as an output-queued FIFO would.
 */
async function shares(arbitration: "round-robin" | "oldest-first") {
  const result = await simulate({
    name: `arbitration-${arbitration}`,
    topology: {
      kind: "generic",
      spec: {
        name: "two-into-one",
        rateGbps: 10,
        latencyNs: 100,
        nodes: [
          { kind: "switch", name: "S" },
          { kind: "host", name: "Fast" },
          { kind: "host", name: "Slow" },
          { kind: "host", name: "D" },
        ],
        links: [
          { a: "Fast", b: "S", rateGbps: 40 },
          { a: "Slow", b: "S" },
          { a: "D", b: "S" },
        ],
      },
    },
    flowControl: "pfc",
    switch: {
      arbitration,
      buffer: { model: "partitioned", bytesPerPortVl: 4 << 20 },
      pfc: { xoffBytes: 3 << 20, xonBytes: 3 << 20 },
    },
    host: { mtuBytes: 1000, receiveBufferBytes: 4 << 20 },
    traffic: [
      {
        pattern: "scheduled",
        flows: [
          { src: "Fast", dst: "D", group: "fast", messageBytes: 1 << 20 },
          { src: "Slow", dst: "D", group: "slow", messageBytes: 1 << 20 },
        ],
      },
    ],
    run: { durationUs: 60, warmupUs: 10 },
    metrics: { series: [] },
  });
  const gbps = (group: string) => result.summary.flows.find((f) => f.group === group)!.windowGbps;
  return { fast: gbps("fast"), slow: gbps("slow"), result };
}

describe("switch arbitration", () => {
  it("round-robin gives two backlogged inputs equal shares of an output", async () => {
    const { fast, slow, result } = await shares("round-robin");
    expect(result.summary.totals.pauseFrames).toBe(0);
    expect(fast + slow).toBeGreaterThan(9.5);
    expect(fast / slow).toBeGreaterThan(0.9);
    expect(fast / slow).toBeLessThan(1.1);
  });

  it("oldest-first serves an output in arrival order: shares follow the arrival rates (4:1)", async () => {
    const { fast, slow, result } = await shares("oldest-first");
    expect(result.summary.totals.pauseFrames).toBe(0);
    expect(fast + slow).toBeGreaterThan(9.5);
    // Equal shares (1:1) is the round-robin answer; 4:1 is the arrival ratio.
    expect(fast / slow).toBeGreaterThan(3.5);
    expect(fast / slow).toBeLessThan(4.5);
  });
});
