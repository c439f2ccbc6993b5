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

describe("flows[].deliveredPackets and marks", () => {
  it("count each flow's data packets and its marked ones, adding up to the run's totals", async () => {
    // The hot spot with DCQCN's RED marking: the hot flows get CE, CNPs carry no mark.
    const { summary } = await simulate({
      ...scenario(true),
      cc: {
        switch: { plugin: "dcqcn", params: { kminBytes: 1000, kmaxBytes: 4000, pmax: 1 } },
        hosts: [{ plugin: "dcqcn" }],
      },
    });
    const flows = summary.flows;
    const sum = (f: (x: (typeof flows)[number]) => number) => flows.reduce((s, x) => s + f(x), 0);
    // Packets of at most the 2048-byte default MTU; a completed message delivered one or more.
    for (const f of flows) {
      expect(f.deliveredPackets).toBeGreaterThanOrEqual(f.completedMessages);
      expect(f.deliveredPackets).toBeGreaterThanOrEqual(Math.ceil(f.deliveredBytes / 2048));
    }
    expect(sum((f) => f.marks.ecnCe)).toBe(summary.totals.marks.ecnCe);
    expect(sum((f) => f.marks.ecnCe)).toBeGreaterThan(0);
    expect(sum((f) => f.marks.fecn + f.marks.ecnUe)).toBe(0);
    const hot = flows.filter((f) => f.group === "hot");
    expect(sum((f) => (f.group === "hot" ? f.marks.ecnCe : 0))).toBeGreaterThan(
      hot.reduce((s, f) => s + f.deliveredPackets, 0) * 0.01,
    );
    for (const f of flows) expect(f.marks.ecnCe).toBeLessThanOrEqual(f.deliveredPackets);
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

describe("flows[].mctUs", () => {
  it("summarises each flow's messages created after warm-up, as messages.csv lists them", async () => {
    const result = await simulate({
      ...scenario(true),
      metrics: { series: [], flowTable: true },
    });
    const rows = csvRows(result, "messages.csv");
    const byFlow = new Map<string, number[]>();
    for (const row of rows) {
      if (Number(row.start_us) < 50) continue;
      const list = byFlow.get(row.flow!) ?? [];
      list.push(Number(row.fct_us));
      byFlow.set(row.flow!, list);
    }
    const counts = new Set<number>();
    for (const flow of result.summary.flows) {
      const fcts = (byFlow.get(String(flow.id)) ?? []).sort((a, b) => a - b);
      if (fcts.length === 0) {
        expect(flow.mctUs).toBeNull();
        continue;
      }
      counts.add(Math.min(fcts.length, 3));
      const rank = (q: number) => fcts[Math.max(0, Math.ceil(q * fcts.length) - 1)]!;
      expect(flow.mctUs!.count).toBe(fcts.length);
      expect(flow.mctUs!.max).toBeCloseTo(fcts.at(-1)!, 5);
      expect(flow.mctUs!.p50).toBeCloseTo(rank(0.5), 5);
      expect(flow.mctUs!.p99).toBeCloseTo(rank(0.99), 5);
      const mean = fcts.reduce((a, b) => a + b, 0) / fcts.length;
      expect(flow.mctUs!.mean).toBeCloseTo(mean, 4);
    }
    // Flows of one message, of two, and of more: each way a flow keeps its times.
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });
});
