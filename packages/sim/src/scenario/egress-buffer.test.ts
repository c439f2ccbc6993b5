import { describe, expect, it } from "vitest";
import { paramDocs } from "../param-docs.js";
import { prepare, simulate } from "../simulate.js";
import { ScenarioError } from "./issues.js";
import { resolveScenario } from "./resolve.js";
import { scenarioSchema } from "./schema.js";

const BASE = {
  name: "egress-buffer",
  topology: { kind: "single-switch", hosts: 4 },
  traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
  run: { durationUs: 20 },
};

const withEgress = (egressBuffer: unknown) => ({ ...BASE, host: { egressBuffer } });

// The issues `cclab validate` reports: the schema's, then the devices' when the network is built.
async function issuesOf(document: unknown) {
  try {
    prepare(await resolveScenario(document));
  } catch (error) {
    if (error instanceof ScenarioError) return error.issues;
    throw error;
  }
  return [];
}

describe("host.egressBuffer", () => {
  it("is null by default, and the resolved scenario says so", async () => {
    const { scenario } = await resolveScenario(BASE);
    expect(scenario.host.egressBuffer).toBeNull();
    expect(prepare(await resolveScenario(BASE)).hosts[0]!.egressBuffer).toBeUndefined();
  });

  it("gives every host the FIFOs of the resolved scenario", async () => {
    const slides = { bytes: 150_000, xoffBytes: 140_000, xonBytes: 130_000 };
    const resolved = await resolveScenario(withEgress(slides));
    expect(resolved.scenario.host.egressBuffer).toEqual(slides);
    const network = prepare(resolved);
    for (const host of network.hosts) expect(host.egressBuffer?.config).toEqual(slides);
  });

  const cases: [string, unknown, string, string][] = [
    [
      "a fraction of a byte",
      { bytes: 10_000.5, xoffBytes: 8000, xonBytes: 4000 },
      "host.egressBuffer.bytes",
      "must be a whole number of bytes ≥ 1, got 10000.5",
    ],
    [
      "a negative low watermark",
      { bytes: 10_000, xoffBytes: 8000, xonBytes: -1 },
      "host.egressBuffer.xonBytes",
      "must be a whole number of bytes ≥ 0, got -1",
    ],
    [
      "a missing high watermark",
      { bytes: 10_000, xonBytes: 4000 },
      "host.egressBuffer.xoffBytes",
      "got nothing",
    ],
    [
      "an unknown key",
      { bytes: 10_000, xoffBytes: 8000, xonBytes: 4000, xoffKB: 8 },
      "host.egressBuffer",
      'unknown key "xoffKB"; allowed: bytes, xoffBytes, xonBytes',
    ],
    ["a number", 150_000, "host.egressBuffer", "must be an object with keys bytes"],
    [
      "a buffer smaller than a packet",
      { bytes: 2000, xoffBytes: 1500, xonBytes: 500 },
      "host.egressBuffer.bytes",
      "(2000) must hold one full packet (mtuBytes + headerBytes = 2074)",
    ],
    [
      "a high watermark above the size",
      { bytes: 10_000, xoffBytes: 12_000, xonBytes: 4000 },
      "host.egressBuffer.xoffBytes",
      "(12000) must be ≤ bytes (10000)",
    ],
    [
      "a low watermark at the high one",
      { bytes: 10_000, xoffBytes: 8000, xonBytes: 8000 },
      "host.egressBuffer.xonBytes",
      "(8000) must be < xoffBytes (8000)",
    ],
  ];
  it.each(cases)("rejects %s, naming the field", async (_what, egressBuffer, path, says) => {
    const issues = await issuesOf(withEgress(egressBuffer));
    const issue = issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue!.message).toContain(says);
  });

  it("documents each field for `cclab list`", () => {
    const rows = paramDocs(scenarioSchema).filter((r) => r.name.startsWith("host.egressBuffer"));
    expect(rows.map((r) => [r.name, r.required, r.default])).toEqual([
      ["host.egressBuffer", false, "null"],
      ["host.egressBuffer.bytes", true, undefined],
      ["host.egressBuffer.xoffBytes", true, undefined],
      ["host.egressBuffer.xonBytes", true, undefined],
    ]);
    for (const row of rows) expect(row.description).not.toBe("");
  });
});

// H1 sends to H0, a slow receiver that pauses the switch, and to the fast H3, over one 10 Gb/s
// single switch with PFC: the switch pauses H1, whose egress FIFO then fills with packets of
// both flows up to its high watermark.
const pausedSender = (egressBuffer: unknown) => ({
  name: "paused-sender",
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  flowControl: "pfc",
  switch: {
    buffer: { model: "partitioned", bytesPerPortVl: 20_000 },
    pfc: { xoffBytes: 10_000, xonBytes: 5000 },
  },
  host: { egressBuffer, receiveRates: [{ hosts: ["H0"], receiveRateGbps: 1 }] },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: "H1", dst: "H0", group: "to-slow" },
        { src: "H1", dst: "H3", group: "to-fast" },
      ],
    },
  ],
  run: { durationUs: 300, warmupUs: 50 },
  metrics: { series: [] },
});

describe("a host with an egress buffer in a run", () => {
  it("reports its FIFOs in summary.json and records the buffer in the resolved scenario", async () => {
    const egressBuffer = { bytes: 20_000, xoffBytes: 16_000, xonBytes: 12_000 };
    const result = await simulate(pausedSender(egressBuffer));
    expect(result.scenario.host.egressBuffer).toEqual(egressBuffer);
    const h1 = result.summary.hosts[1]!.egressBuffer!;
    expect(h1.xoffEvents).toBeGreaterThan(0);
    expect(h1.xoffUs).toBeGreaterThan(0);
    expect(h1.peakBytes).toBeGreaterThan(egressBuffer.xoffBytes);
    expect(h1.peakBytes).toBeLessThanOrEqual(egressBuffer.bytes);
    // Every host has one; H0 sends nothing.
    expect(result.summary.hosts[0]!.egressBuffer).toEqual({
      peakBytes: 0,
      xoffUs: 0,
      xoffEvents: 0,
    });
    const without = await simulate(pausedSender(null));
    expect(without.summary.hosts[1]).not.toHaveProperty("egressBuffer");
  });
});
