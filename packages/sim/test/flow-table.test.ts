import { describe, expect, it } from "vitest";
import { simulate, textSummary } from "../src/index.js";
import { csvRows } from "./helpers.js";

// Hot-spot traffic on 8 hosts plus uniform background: two groups, `hot` and `uniform`.
const scenario = (flowTable: boolean) => ({
  name: "flow-table",
  seed: 3,
  topology: { kind: "single-switch", hosts: 8, rateGbps: 10, latencyNs: 100 },
  traffic: [
    { pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, rateGbps: 5 },
    { pattern: "uniform", loadFraction: 0.3, size: { kind: "fixed", bytes: 4096 } },
  ],
  run: { durationUs: 300, warmupUs: 50 },
  metrics: { series: [], flowTable },
});

describe("metrics.flowTable", () => {
  it("false leaves flows[] empty and changes no other figure", async () => {
    const full = await simulate(scenario(true));
    const lean = await simulate(scenario(false));
    expect(full.summary.flows.length).toBeGreaterThan(10);
    expect(lean.summary.flows).toEqual([]);
    const { flows: _f, ...fullRest } = full.summary;
    const { flows: _l, ...leanRest } = lean.summary;
    expect(leanRest).toEqual(fullRest);
    expect(textSummary(lean.summary)).toContain("metrics.flowTable");
  });
});

describe("hosts[].receiveGbpsByGroup", () => {
  it("splits each host's receive rate by the groups of the flows it came from", async () => {
    const { summary } = await simulate(scenario(true));
    for (const [i, host] of summary.hosts.entries()) {
      const parts = Object.values(host.receiveGbpsByGroup);
      const sum = parts.reduce((a, b) => a + b, 0);
      // Each part is rounded on its own (6 decimals).
      expect(Math.abs(sum - host.receiveGbps)).toBeLessThan(1e-5 * (parts.length + 1));
      const fromFlows = summary.flows.filter((f) => f.dst === i);
      for (const group of Object.keys(host.receiveGbpsByGroup)) {
        expect(fromFlows.some((f) => f.group === group)).toBe(true);
      }
    }
    expect(summary.hosts[0]!.receiveGbpsByGroup.hot).toBeGreaterThan(0);
    expect(summary.hosts[5]!.receiveGbpsByGroup.hot).toBeUndefined();
  });
});

describe("host-throughput.csv", () => {
  it("holds each host's received payload per bin and group, the summary's rates over the window", async () => {
    const result = await simulate({
      ...scenario(false),
      metrics: { series: ["host-throughput"], binUs: 50, flowTable: false },
    });
    const rows = csvRows(result, "host-throughput.csv");
    expect(rows.length).toBeGreaterThan(0);
    // Bins of 50 µs from 0: the window [50, 300) µs is bins 1..5, all 50 µs wide.
    for (const host of result.summary.hosts) {
      for (const [group, gbps] of Object.entries(host.receiveGbpsByGroup)) {
        const inWindow = rows.filter(
          (r) => r.host === host.name && r.group === group && Number(r.bin_start_us) >= 50,
        );
        const mean = inWindow.reduce((s, r) => s + Number(r.gbps), 0) / inWindow.length;
        expect(inWindow.length).toBe(5);
        expect(mean).toBeCloseTo(gbps, 4);
      }
    }
  });
});
