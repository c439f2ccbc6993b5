import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { PortMap, resolveScenario, type SimulationResult, simulate } from "../src/index.js";
import { csvRows, runShipped } from "./helpers.js";

const TOPOLOGIES = fc.oneof(
  fc.record({
    kind: fc.constant("parking-lot"),
    switches: fc.integer({ min: 1, max: 4 }),
    hostsPerSwitch: fc.integer({ min: 2, max: 4 }),
  }),
  fc.record({ kind: fc.constant("single-switch"), hosts: fc.integer({ min: 2, max: 9 }) }),
  fc.record({
    kind: fc.constant("kary-n-tree"),
    k: fc.integer({ min: 2, max: 3 }),
    n: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant("two-level-fat-tree"),
    leaves: fc.integer({ min: 2, max: 4 }),
    spines: fc.integer({ min: 1, max: 3 }),
    hostsPerLeaf: fc.integer({ min: 1, max: 4 }),
  }),
);

describe("the port map", () => {
  test.prop([TOPOLOGIES], { numRuns: 40 })(
    "names every port once, and a cabled port's peer leads back to it",
    async (topology) => {
      const { topology: built } = await resolveScenario({
        name: "map",
        topology: { ...topology, rateGbps: 10, latencyNs: 100 },
        traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
        run: { durationUs: 10 },
      });
      const { fabric } = built;
      const map = new PortMap(fabric);
      const ports = fabric.switches.reduce((n, s) => n + s.portCount, 0) + fabric.hosts.length;
      expect(map.entries).toHaveLength(ports);
      expect(new Set(map.entries.map((e) => e.name)).size).toBe(ports);
      for (const e of map.entries) {
        expect(e.name).toBe(`${e.device}.p${e.port}`);
        expect(e.label).toBe(`${e.name} → ${e.peer}`);
        if (e.peer === "-") continue;
        // A host's peer is named by the host alone (its only port), a switch port by its name.
        const back = map.find(e.peer) ?? map.find(`${e.peer}.p0`);
        expect(back, e.name).toBeDefined();
        expect([e.name, e.device]).toContain(back!.peer);
      }
      const cabled = map.entries.filter((e) => e.peer !== "-").length;
      expect(cabled).toBe(2 * fabric.cables.length);
    },
  );
});

/** Sums each port and VL's blocked time over the bins of flow-control.csv, µs. */
function blockedFromSeries(r: SimulationResult, binUs: number, endUs: number) {
  const rows = csvRows(r, "flow-control.csv");
  const bins = Math.ceil(endUs / binUs);
  const perPort = new Map<string, { bins: Set<string>; us: number }>();
  for (const row of rows) {
    const key = `${row.port_name}/${row.vl}`;
    const width = Math.min(binUs, endUs - Number(row.bin_start_us));
    const entry = perPort.get(key) ?? { bins: new Set<string>(), us: 0 };
    entry.bins.add(row.bin_start_us!);
    entry.us += Number(row.blocked_fraction) * width;
    perPort.set(key, entry);
    expect(Number(row.blocked_fraction)).toBeGreaterThanOrEqual(0);
    expect(Number(row.blocked_fraction)).toBeLessThanOrEqual(1 + 1e-9);
  }
  for (const [key, { bins: seen }] of perPort) expect(seen.size, key).toBe(bins);
  return perPort;
}

function checkAgainstPorts(r: SimulationResult, binUs: number): void {
  const endUs = r.summary.simulatedUs;
  const series = blockedFromSeries(r, binUs, endUs);
  const ports = csvRows(r, "ports.csv");
  const hostCount = r.summary.hosts.length;
  expect(ports.filter((p) => p.device!.startsWith("H") && p.vl === "0")).toHaveLength(hostCount);
  let blockedPorts = 0;
  for (const p of ports) {
    const key = `${p.port_name}/${p.vl}`;
    expect(p.port_name).toBe(`${p.device}.p${p.port}`);
    const blocked = Number(p.blocked_us);
    if (blocked === 0) {
      expect(series.has(key), key).toBe(false);
      continue;
    }
    blockedPorts++;
    // Every bin holds the blocked time of its own width: the bins add up to the total.
    expect(series.get(key)?.us ?? 0, key).toBeCloseTo(blocked, 3);
  }
  expect(blockedPorts).toBe(series.size);
  expect(blockedPorts).toBeGreaterThan(0);
}

describe("flow-control.csv", () => {
  it("has every bin of each blocked port, zeros included, adding up to ports.csv's blocked time (credits)", async () => {
    const r = await runShipped("gran-thesis/parking-lot-no-cc.yaml", [
      "run.durationUs=2430",
      "metrics.binUs=50",
    ]);
    checkAgainstPorts(r, 50);
    // The hosts that send into the congested link are blocked too: host ports are named.
    const ports = new Set(csvRows(r, "flow-control.csv").map((row) => row.port_name));
    expect(ports).toContain("H1.p0");
    expect(csvRows(r, "flow-control.csv")[0]).toHaveProperty("peer");
  });

  it("does the same under PFC, with a run end that is not a bin edge", async () => {
    const r = await simulate({
      name: "pfc-incast",
      topology: { kind: "single-switch", hosts: 4, rateGbps: 25, latencyNs: 100 },
      flowControl: "pfc",
      switch: { pfc: { xoffBytes: 16384, xonBytes: 8192 } },
      traffic: [{ pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, rateGbps: 20 }],
      run: { durationUs: 333 },
      metrics: { binUs: 20 },
    });
    checkAgainstPorts(r, 20);
  });
});
