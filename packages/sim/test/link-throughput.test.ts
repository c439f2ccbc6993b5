import { describe, expect, it } from "vitest";
import { type SimulationResult, simulate } from "../src/index.js";
import { csvRows } from "./helpers.js";

const BASE = ["flow-throughput", "host-throughput", "port-occupancy", "flow-control", "cc"];
/** The largest packet on the wire: a 2048-byte MTU (the host default) with its 26-byte header. */
const MAX_PACKET_BYTES = 2074;

/** Three senders into one host under InfiniBand CC (CNPs too), 10.5 bins of 10 µs. */
const hotspot = (series: readonly string[]) => ({
  name: "link-throughput-hotspot",
  seed: 3,
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  traffic: [
    { pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, messageBytes: 4096 },
    { pattern: "uniform", loadFraction: 0.2, size: { kind: "fixed", bytes: 1000 } },
  ],
  cc: { switch: { plugin: "infiniband" }, hosts: [{ plugin: "infiniband" }] },
  run: { durationUs: 105 },
  metrics: { series, binUs: 10 },
});

/** One host sending to the other at its line rate: its uplink is never idle. */
const twoHosts = {
  name: "link-throughput-two-hosts",
  seed: 1,
  topology: { kind: "single-switch", hosts: 2, rateGbps: 10, latencyNs: 100 },
  traffic: [{ pattern: "hotspot", senders: [1], hotspot: 0, messageBytes: 65536 }],
  run: { durationUs: 205 },
  metrics: { series: ["link-throughput"], binUs: 20 },
};

/** Each port's Gb/s per bin, by port name, in bin order. */
function perPort(result: SimulationResult): Map<string, number[]> {
  const ports = new Map<string, number[]>();
  for (const row of csvRows(result, "link-throughput.csv")) {
    const list = ports.get(row.port_name!) ?? [];
    list.push(+row.gbps!);
    ports.set(row.port_name!, list);
  }
  return ports;
}

/** Bytes each port sent over the run (ports.csv repeats them per VL). */
function bytesForwarded(result: SimulationResult): Map<string, number> {
  return new Map(csvRows(result, "ports.csv").map((r) => [r.port_name!, +r.bytes_forwarded!]));
}

describe("link-throughput.csv", () => {
  it("adds up, over the bins, to what each port sent (ports.csv), every bin of every sender", async () => {
    const result = await simulate(hotspot([...BASE, "link-throughput"]));
    const endUs = result.summary.simulatedUs;
    expect(endUs).toBe(105);
    const widths = [...Array.from({ length: 10 }, () => 10), 5]; // the last bin is half a bin
    const series = perPort(result);
    const sent = bytesForwarded(result);
    // Every port that sent has a row per bin, zeros included; the others have none.
    const senders = [...sent].filter(([, b]) => b > 0).map(([name]) => name);
    expect([...series.keys()].sort()).toEqual(senders.sort());
    expect(senders).toEqual(expect.arrayContaining(["S0.p0", "H1.p0", "H0.p0"])); // H0: CNPs
    for (const [name, gbps] of series) {
      expect(gbps, name).toHaveLength(widths.length);
      const bytes = gbps.reduce((s, g, i) => s + (g * widths[i]! * 1000) / 8, 0);
      expect(bytes, name).toBeCloseTo(sent.get(name)!, 0);
    }
    const [first] = csvRows(result, "link-throughput.csv");
    expect(Object.keys(first!)).toEqual([
      "bin_start_us",
      "device",
      "port",
      "gbps",
      "port_name",
      "peer",
    ]);
    expect(csvRows(result, "link-throughput.csv").find((r) => r.port_name === "S0.p0")).toEqual(
      expect.objectContaining({ device: "S0", port: "0", peer: "H0" }),
    );
  });

  it("reads a saturated host uplink at its line rate in every full bin", async () => {
    const result = await simulate(twoHosts);
    const uplink = perPort(result).get("H1.p0")!;
    expect(uplink).toHaveLength(11);
    // A packet counts whole in the bin it starts in: a full bin is within one packet of the rate.
    const packetGbps = (MAX_PACKET_BYTES * 8) / (20 * 1000);
    for (const g of uplink.slice(0, 10)) expect(Math.abs(g - 10)).toBeLessThanOrEqual(packetGbps);
    const mean = uplink.slice(0, 10).reduce((s, g) => s + g, 0) / 10;
    expect(mean).toBeGreaterThan(9.9);
    expect(mean).toBeLessThanOrEqual(10 + packetGbps / 10);
  });

  it("changes no other result: the summary (but its event count) and every other file", async () => {
    const without = await simulate(hotspot(BASE));
    const withIt = await simulate(hotspot([...BASE, "link-throughput"]));
    const { eventsProcessed: a, ...rest } = withIt.summary;
    const { eventsProcessed: b, ...restWithout } = without.summary;
    expect(JSON.stringify(rest)).toBe(JSON.stringify(restWithout));
    // Its only trace in the summary: a sample at each of the 10 bin edges before the end.
    expect(a - b).toBe(10);
    const files = new Map(withIt.files);
    expect(files.delete("link-throughput.csv")).toBe(true);
    expect([...files]).toEqual([...without.files]);
  });

  it("is not written by default", async () => {
    const { metrics: _, ...scenario } = hotspot([]);
    const result = await simulate(scenario);
    expect(result.files.has("link-throughput.csv")).toBe(false);
    expect(result.scenario.metrics.series).not.toContain("link-throughput");
  });
});
