import { describe, expect, it } from "vitest";
import { simulate } from "../src/index.js";
import { csvRows } from "./helpers.js";

// Three senders at 5 Gb/s into one 10 Gb/s host port: the excess waits for port 0 of S0. Light
// uniform traffic passes through the other outputs.
const scenario = (outputBufferBytes: number) => ({
  name: "output-occupancy",
  seed: 1,
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  switch: { outputBufferBytes, speedup: outputBufferBytes > 0 ? 2 : 1 },
  traffic: [
    { pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, rateGbps: 5 },
    { pattern: "uniform", loadFraction: 0.1, size: { kind: "fixed", bytes: 1000 } },
  ],
  run: { durationUs: 400 },
  metrics: { series: ["port-occupancy"], binUs: 50 },
});

describe("output-occupancy.csv", () => {
  it("holds the output buffers' mean bytes per bin: full at the hot spot, within their size", async () => {
    const result = await simulate(scenario(65536));
    const rows = csvRows(result, "output-occupancy.csv");
    const hot = rows.filter((r) => r.switch === "S0" && r.port === "0" && r.vl === "0");
    expect(hot).toHaveLength(8);
    for (const r of rows) expect(+r.mean_output_bytes!).toBeLessThanOrEqual(65536);
    // 5 Gb/s of excess fills 64 KiB in about 105 µs: from then on the buffer stays near full
    // (a packet leaves, the next crosses in at twice the link rate).
    for (const r of hot.slice(3)) expect(+r.mean_output_bytes!).toBeGreaterThan(60_000);
    // Only the hot spot's output ever holds more than the packet crossing through it.
    const cold = rows.filter((r) => r.port !== "0");
    expect(new Set(cold.map((r) => r.port))).toEqual(new Set(["1", "2", "3"]));
    for (const r of cold) expect(+r.mean_output_bytes!).toBeLessThan(4096);
  });

  it("is not written without output buffers", async () => {
    const result = await simulate(scenario(0));
    expect(result.files.has("port-occupancy.csv")).toBe(true);
    expect(result.files.has("output-occupancy.csv")).toBe(false);
  });
});
