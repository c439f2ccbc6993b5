/**
 * egress-occupancy.csv (docs/model.md, "What is measured"): the egress queue of each switch
 * output port and VL, from a packet's enqueue at its input until it starts on the output link.
 * Checked against the buffers it must agree with, and for leaving the run unchanged.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type SimulationResult, simulate } from "../src/index.js";
import { csvRows, runShipped } from "./helpers.js";

const SERIES = ["port-occupancy", "egress-occupancy"];
// Every packet of these scenarios: a 1000-byte message in one packet, with its 26-byte header.
const PACKET = 1026;

// Three senders at 5 Gb/s into one 10 Gb/s host port (the excess waits for port 0 of S0), and
// light uniform traffic through every output; it stops at 300 µs and the run drains.
const hotspot = (outputBufferBytes: number, series = SERIES) => ({
  name: "egress-hotspot",
  seed: 1,
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  switch: { outputBufferBytes, speedup: outputBufferBytes > 0 ? 2 : 1 },
  traffic: [
    {
      pattern: "hotspot",
      senders: [1, 2, 3],
      hotspot: 0,
      rateGbps: 5,
      messageBytes: 1000,
      stopNs: 300_000,
    },
    {
      pattern: "uniform",
      loadFraction: 0.1,
      size: { kind: "fixed", bytes: 1000 },
      stopNs: 300_000,
    },
  ],
  run: { untilComplete: true, durationUs: 5000 },
  metrics: { series, binUs: 50 },
});

/** Per switch and bin: summed mean bytes of `column` over the rows of `file` (0 if none). */
function perSwitchBin(result: SimulationResult, file: string, column: string) {
  const sums = new Map<string, number>();
  if (!result.files.has(file)) return sums;
  for (const r of csvRows(result, file)) {
    const key = `${r.switch} ${r.bin_start_us}`;
    sums.set(key, (sums.get(key) ?? 0) + +r[column]!);
  }
  return sums;
}

/**
 * Per switch and bin, buffered bytes (inputs + output buffers) − egress queue bytes: what the
 * buffers hold beyond the egress queues. That is, per output, the packet on its link (its
 * input or output buffer holds it until its last byte leaves) and, with output buffers, the
 * packet crossing into it (in both buffers until it has crossed). So it lies in
 * [0, k × ports × largest packet], k = 1 without output buffers and 2 with them.
 */
function bufferedBeyondEgress(result: SimulationResult): Map<string, number> {
  const input = perSwitchBin(result, "port-occupancy.csv", "mean_input_bytes");
  const output = perSwitchBin(result, "output-occupancy.csv", "mean_output_bytes");
  const egress = perSwitchBin(result, "egress-occupancy.csv", "mean_egress_bytes");
  const keys = new Set([...input.keys(), ...output.keys(), ...egress.keys()]);
  return new Map(
    [...keys].map((k) => [k, (input.get(k) ?? 0) + (output.get(k) ?? 0) - (egress.get(k) ?? 0)]),
  );
}

// Rows are rounded to 0.1 B: a sum over a switch's rows may be off by this much.
const ROUNDING = 1;

describe("egress-occupancy.csv", () => {
  it("holds the hot output's queue, near zero at the light outputs", async () => {
    const result = await simulate(hotspot(0));
    expect(result.summary.status).toBe("complete");
    const rows = csvRows(result, "egress-occupancy.csv");
    expect(Object.keys(rows[0]!)).toEqual([
      "bin_start_us",
      "switch",
      "port",
      "vl",
      "mean_egress_bytes",
      "max_egress_bytes",
      "port_name",
      "peer",
    ]);
    expect([rows[0]!.port_name, rows[0]!.peer]).toEqual(["S0.p0", "H0"]);
    const hot = rows.filter((r) => r.port === "0" && r.vl === "0");
    // 5 Gb/s of excess from 0 to 300 µs: about 31 kB per 50 µs bin, then it drains at 10 Gb/s.
    for (const r of hot.filter((r) => +r.bin_start_us! >= 100 && +r.bin_start_us! < 300)) {
      expect(+r.mean_egress_bytes!).toBeGreaterThan(60_000);
    }
    // At most what the senders' three input buffers (32 KiB per port and VL) hold.
    const peak = Math.max(...hot.map((r) => +r.max_egress_bytes!));
    expect(peak).toBeGreaterThan(85_000);
    expect(peak).toBeLessThanOrEqual(3 * 32768);
    for (const r of rows)
      expect(+r.max_egress_bytes!).toBeGreaterThanOrEqual(+r.mean_egress_bytes!);
    const light = rows.filter((r) => r.port !== "0");
    expect(new Set(light.map((r) => r.port))).toEqual(new Set(["1", "2", "3"]));
    for (const r of light) expect(+r.mean_egress_bytes!).toBeLessThan(PACKET / 2);
    // Every bin up to the end, the last one partial.
    expect(hot).toHaveLength(Math.ceil(result.summary.simulatedUs / 50));
  });

  it("agrees with the input buffers: they hold the egress queues and the packets on the links", async () => {
    const result = await simulate(hotspot(0));
    const beyond = bufferedBeyondEgress(result);
    for (const [, bytes] of beyond) {
      expect(bytes).toBeGreaterThanOrEqual(-ROUNDING);
      expect(bytes).toBeLessThanOrEqual(4 * PACKET + ROUNDING);
    }
    // Exactly: over the run, what the inputs hold beyond the queue is each packet for its time
    // on the link, ser(1026 B at 10 Gb/s) = 820.8 ns (equal link rates: no packet waits for
    // its tail), and every packet crossed the switch once.
    const binPs = 50e6;
    const endPs = result.summary.simulatedUs * 1e6;
    let area = 0;
    for (const [key, bytes] of beyond) {
      const start = +key.split(" ")[1]! * 1e6;
      area += bytes * (Math.min(start + binPs, endPs) - start);
    }
    const packets = result.summary.totals.completedMessages;
    expect(packets).toBe(result.summary.totals.messages);
    expect(area / (packets * PACKET * 820_800)).toBeCloseTo(1, 4);
  });

  it("with output buffers, counts what waits there: the buffers hold it plus what crosses and leaves", async () => {
    const result = await simulate(hotspot(65536));
    for (const [, bytes] of bufferedBeyondEgress(result)) {
      expect(bytes).toBeGreaterThanOrEqual(-ROUNDING);
      expect(bytes).toBeLessThanOrEqual(2 * 4 * PACKET + ROUNDING);
    }
    // The hot output's queue is its full output buffer and more at the inputs.
    const hot = csvRows(result, "egress-occupancy.csv").filter(
      (r) => r.port === "0" && +r.bin_start_us! >= 150 && +r.bin_start_us! < 300,
    );
    for (const r of hot) expect(+r.mean_egress_bytes!).toBeGreaterThan(100_000);
  });

  it("is written only when asked for", async () => {
    const result = await simulate(hotspot(0, ["port-occupancy"]));
    expect(result.files.has("egress-occupancy.csv")).toBe(false);
    const { metrics: _, ...rest } = hotspot(0);
    const byDefault = await simulate({ ...rest, metrics: { binUs: 50 } });
    expect(byDefault.files.has("egress-occupancy.csv")).toBe(false);
    expect(byDefault.files.has("port-occupancy.csv")).toBe(true);
  });

  test.prop(
    [
      fc.record({
        seed: fc.integer({ min: 1, max: 1000 }),
        fatTree: fc.boolean(),
        pfc: fc.boolean(),
        outputBufferBytes: fc.constantFrom(0, 8192, 65536),
        load: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        binUs: fc.constantFrom(2, 5, 10),
      }),
    ],
    { numRuns: 16 },
  )("buffers hold the egress queues and at most the packets leaving, in every bin", async (p) => {
    const hosts = p.fatTree ? 6 : 4;
    const result = await simulate({
      name: "egress-random",
      seed: p.seed,
      topology: p.fatTree
        ? {
            kind: "two-level-fat-tree",
            leaves: 3,
            spines: 2,
            hostsPerLeaf: 2,
            routing: "ecmp",
            rateGbps: 10,
            latencyNs: 100,
          }
        : { kind: "single-switch", hosts, rateGbps: 10, latencyNs: 100 },
      flowControl: p.pfc ? "pfc" : "credit",
      switch: {
        outputBufferBytes: p.outputBufferBytes,
        speedup: p.outputBufferBytes > 0 ? 2 : 1,
        ...(p.pfc
          ? {
              buffer: { model: "partitioned", bytesPerPortVl: 65536 },
              pfc: { xoffBytes: 20_000, xonBytes: 10_000 },
            }
          : {}),
      },
      traffic: [
        { pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, stopNs: 30_000 },
        {
          pattern: "uniform",
          loadFraction: p.load,
          size: { kind: "uniform", minBytes: 100, maxBytes: 6000 },
          stopNs: 30_000,
        },
      ],
      run: { durationUs: 40 },
      metrics: { series: SERIES, binUs: p.binUs },
    });
    // The largest packet: a 2048-byte MTU (the host default) with its 26-byte header.
    const ports = p.fatTree ? 4 : hosts;
    const k = p.outputBufferBytes > 0 ? 2 : 1;
    expect(csvRows(result, "egress-occupancy.csv").length).toBeGreaterThan(0);
    const beyond = bufferedBeyondEgress(result);
    for (const [, bytes] of beyond) {
      expect(bytes).toBeGreaterThanOrEqual(-ROUNDING);
      expect(bytes).toBeLessThanOrEqual(k * ports * 2074 + ROUNDING);
    }
  });
});

describe("a run with the egress meter", () => {
  const withAndWithout = async (run: (series: string[]) => Promise<SimulationResult>) => {
    const base = ["flow-throughput", "host-throughput", "port-occupancy", "flow-control", "cc"];
    const a = await run(base);
    const b = await run([...base, "egress-occupancy"]);
    expect(JSON.stringify(b.summary)).toBe(JSON.stringify(a.summary));
    expect(b.run.events).toBe(a.run.events);
    const files = new Map(b.files);
    expect(files.delete("egress-occupancy.csv")).toBe(true);
    expect([...files]).toEqual([...a.files]);
  };

  it("is the same run without CC, with and without output buffers", async () => {
    await withAndWithout((series) => simulate(hotspot(0, series)));
    await withAndWithout((series) => simulate(hotspot(65536, series)));
  });

  it("is the same run beside DCQCN's switch part (PFC) and InfiniBand CC's (credits)", async () => {
    await withAndWithout((series) =>
      runShipped("dcqcn/incast-4.yaml", [
        "run.durationUs=300",
        "run.warmupUs=0",
        "metrics.binUs=20",
        `metrics.series=[${series.join(",")}]`,
      ]),
    );
    await withAndWithout((series) =>
      runShipped("gran-thesis/paper3-scenario2-cc.yaml", [
        "run.durationUs=600",
        "traffic[0].flows[1].startNs=100000",
        "traffic[0].flows[2].startNs=200000",
        "metrics.binUs=50",
        `metrics.series=[${series.join(",")}]`,
      ]),
    );
  });
});
