/**
 * The packet trace (docs/model.md, "Packet trace"): a packet's hops in time order at the times
 * of the timing model, filters that keep exactly the rows they name, the row bound, the
 * filters' errors, drops, and a run that is the same with a trace as without.
 */
import { serializationPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import {
  registerCcPlugin,
  type SimulationResult,
  simulate,
  type TraceOptions,
  TraceOptionsError,
} from "../src/index.js";
import { speculativePlugin } from "./fixtures/trace-drop-plugin.js";

type Row = Record<string, string>;

function traceRows(result: SimulationResult): { rows: Row[]; comments: string[] } {
  const text = result.files.get("trace.csv");
  if (text === undefined) throw new Error("no trace.csv in the result");
  const [header, ...lines] = text.trimEnd().split("\n");
  const keys = header!.split(",");
  return {
    rows: lines
      .filter((l) => !l.startsWith("#"))
      .map((l) => Object.fromEntries(l.split(",").map((cell, i) => [keys[i]!, cell]))),
    comments: lines.filter((l) => l.startsWith("#")),
  };
}

// Rows without the trace's own packet numbers, which count the rows a trace keeps.
const withoutSerial = (rows: Row[]) => rows.map(({ packet: _, ...rest }) => rest);

/** H0 on S0.p0, S0.p2 cabled to S1.p1, H1 on S1.p0; 100 Gb/s, 1 µs links; one message. */
const TWO_SWITCHES = {
  name: "trace-two-switches",
  topology: { kind: "parking-lot", switches: 2, hostsPerSwitch: 1 },
  traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1, totalBytes: 1000 }] }],
  run: { untilComplete: true },
};

/** Two flows share S0.p3 → S1.p2; DCQCN with low thresholds marks and sends CNPs back. */
const SHARED_LINK = {
  name: "trace-shared-link",
  topology: { kind: "parking-lot", switches: 2, hostsPerSwitch: 2 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: "H0", dst: "H2" },
        { src: "H1", dst: "H3" },
      ],
    },
  ],
  run: { durationUs: 30 },
  cc: {
    switch: { plugin: "dcqcn", params: { preset: "paper", kminBytes: 2000, kmaxBytes: 4000 } },
    hosts: [{ plugin: "dcqcn", params: { preset: "paper" } }],
  },
};

describe("packet trace", () => {
  it("records a packet's hops in order, at the times of the timing model", async () => {
    const result = await simulate(TWO_SWITCHES, { trace: {} });
    const { rows, comments } = traceRows(result);
    expect(comments).toEqual([]);
    expect(rows.map((r) => `${r.event} ${r.device}.p${r.port}`)).toEqual([
      "inject H0.p0",
      "enqueue S0.p0",
      "transmit S0.p2",
      "enqueue S1.p1",
      "transmit S1.p0",
      "deliver H1.p0",
    ]);
    expect(new Set(rows.map((r) => r.packet))).toEqual(new Set(["1"]));
    const size = 1000 + 26; // payload + host header (docs/model.md, "Hosts")
    expect(rows[0]).toMatchObject({ src: "H0", dst: "H1", kind: "data", vl: "0" });
    expect(rows[0]).toMatchObject({ size_bytes: `${size}`, payload_bytes: "1000", seq: "0" });
    // docs/model.md, "A packet on a link": a VCT switch gets it after the latency, its 64-byte
    // header and the routing latency; an idle output starts it at once; the host gets it when
    // its last byte arrives.
    const latencyPs = 1_000_000;
    const hopPs = latencyPs + serializationPs(64, 100) + 100_000;
    const times = rows.map((r) => Number(r.time_ps));
    expect(times).toEqual([
      0,
      hopPs,
      hopPs,
      2 * hopPs,
      2 * hopPs,
      2 * hopPs + serializationPs(size, 100) + latencyPs,
    ]);
  });

  it("leaves the run as it is: the same summary and series with and without a trace", async () => {
    const plain = await simulate(SHARED_LINK);
    const traced = await simulate(SHARED_LINK, { trace: {} });
    expect(traced.summary).toEqual(plain.summary);
    expect(JSON.stringify(traced.summary)).toBe(JSON.stringify(plain.summary));
    const files = new Map(traced.files);
    files.delete("trace.csv");
    expect(files).toEqual(plain.files);
    expect(plain.files.has("trace.csv")).toBe(false);
    expect(plain.run.trace).toBeUndefined();
    expect(traced.summary.totals.ccCounters.cnpSent).toBeGreaterThan(0);
  });

  it("keeps exactly the events each filter names", async () => {
    const full = traceRows(await simulate(SHARED_LINK, { trace: {} })).rows;
    const kinds = new Set(full.map((r) => r.kind));
    expect(kinds).toEqual(new Set(["data", "cnp"]));
    const times = full.map((r) => Number(r.time_ps));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    // DCQCN's gates make data ECN-capable as it starts (onSent): the inject row shows it.
    const injects = full.filter((r) => r.event === "inject" && r.kind === "data");
    expect(injects.length).toBeGreaterThan(0);
    expect(injects.every((r) => r.ecn === "ect")).toBe(true);
    expect(full.some((r) => r.ecn === "ce")).toBe(true);
    // Flow ids: (src × 4 + dst) × 2 VLs (DCQCN adds a control lane) + SL.
    const h1h3 = String((1 * 4 + 3) * 2);
    const cases: [TraceOptions, (r: Row) => boolean][] = [
      [{ flows: [4] }, (r) => r.flow === "4"],
      [{ flows: ["H1->H3"] }, (r) => r.flow === h1h3],
      [{ ports: ["S0.p3"] }, (r) => r.device === "S0" && r.port === "3"],
      [
        { ports: ["H0", "S1.p0"] },
        (r) => r.device === "H0" || (r.device === "S1" && r.port === "0"),
      ],
      [{ fromUs: 5, toUs: 6 }, (r) => Number(r.time_ps) >= 5e6 && Number(r.time_ps) < 6e6],
      [{ kinds: ["cnp"] }, (r) => r.kind === "cnp"],
      [
        { flows: [4], kinds: ["data"], ports: ["S1.p0"] },
        (r) => r.flow === "4" && r.kind === "data" && r.device === "S1" && r.port === "0",
      ],
    ];
    for (const [options, keep] of cases) {
      const { rows } = traceRows(await simulate(SHARED_LINK, { trace: options }));
      const expected = full.filter(keep);
      expect(expected.length, JSON.stringify(options)).toBeGreaterThan(0);
      expect(withoutSerial(rows), JSON.stringify(options)).toEqual(withoutSerial(expected));
    }
    // A CNP travels on the flow it answers, from its data's destination back to its source.
    const cnps = full.filter((r) => r.kind === "cnp" && r.flow === h1h3);
    expect(cnps.length).toBeGreaterThan(0);
    expect(cnps.every((r) => r.src === "H3" && r.dst === "H1")).toBe(true);
  });

  it("stops at maxRows and says so in the file and in run.trace", async () => {
    const full = traceRows(await simulate(SHARED_LINK, { trace: {} })).rows;
    const cut = await simulate(SHARED_LINK, { trace: { maxRows: 25 } });
    const { rows, comments } = traceRows(cut);
    expect(rows).toHaveLength(25);
    expect(rows).toEqual(full.slice(0, 25));
    expect(cut.files.get("trace.csv")!.trimEnd().split("\n").at(-1)).toMatch(/^# truncated: /);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toContain(`${full.length - 25} later matching events were not written`);
    expect(cut.run.trace).toEqual({
      file: "trace.csv",
      rows: 25,
      maxRows: 25,
      truncated: true,
      omittedRows: full.length - 25,
    });
    // A bound the trace just reaches cuts nothing.
    const exact = await simulate(SHARED_LINK, { trace: { maxRows: full.length } });
    expect(exact.run.trace).toMatchObject({ rows: full.length, truncated: false, omittedRows: 0 });
    expect(traceRows(exact).comments).toEqual([]);
  });

  it("rejects bad filters before the run, every one with its option", async () => {
    const error = await simulate(TWO_SWITCHES, {
      trace: {
        flows: ["H9->H0", "H0->H0", "x", -1],
        ports: ["S7.p1", "S0.p9", "H0.p1", "S0:1"],
        kinds: ["cpn", "x-mine"],
        fromUs: -1,
        toUs: Number.NaN,
        maxRows: 0,
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TraceOptionsError);
    const issues = (error as TraceOptionsError).issues;
    const says = (option: string) =>
      issues.filter((i) => i.option === option).map((i) => i.message);
    expect(says("flows")).toEqual([
      expect.stringContaining('no host named "H9" (hosts: H0, H1)'),
      expect.stringContaining("two different hosts"),
      expect.stringContaining("neither a flow id"),
      expect.stringContaining("-1 is not a flow id"),
    ]);
    expect(says("ports")).toEqual([
      expect.stringContaining('no device named "S7" (switches: S0, S1; hosts: H0, H1)'),
      expect.stringContaining("S0 has ports p0..p2"),
      expect.stringContaining("a host has one port, H0.p0"),
      expect.stringContaining("is not a port"),
    ]);
    expect(says("kinds")).toEqual([expect.stringContaining("data, ack, nack, cnp")]);
    expect(says("fromUs")).toEqual(["must be a time ≥ 0 µs, got -1"]);
    expect(says("toUs")).toEqual(["must be a time > 0 µs, got NaN"]);
    expect(says("maxRows")).toEqual(["must be a whole number of rows ≥ 1, got 0"]);
    // Flow ids are checked against the built network (its VLs include the CC lanes).
    const flows = await simulate(TWO_SWITCHES, { trace: { flows: [1, 0, 4] } }).catch(
      (e: unknown) => e,
    );
    expect((flows as TraceOptionsError).issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^0 is not a flow of this fabric/),
      expect.stringMatching(/^4 is not a flow of this fabric/),
    ]);
  });

  it("records the drops a scheme makes, and the packet's second trip", async () => {
    registerCcPlugin(speculativePlugin);
    const scenario = {
      name: "trace-drops",
      topology: { kind: "single-switch", hosts: 3, rateGbps: 10, latencyNs: 10 },
      traffic: [
        {
          pattern: "scheduled",
          flows: [
            { src: 0, dst: 2, totalBytes: 60_000, messageBytes: 20_000 },
            { src: 1, dst: 2, totalBytes: 60_000, messageBytes: 20_000 },
          ],
        },
      ],
      run: { untilComplete: true },
      cc: {
        switch: { plugin: speculativePlugin.name, params: {} },
        hosts: [{ plugin: speculativePlugin.name, params: {} }],
      },
    };
    const plain = await simulate(scenario);
    const traced = await simulate(scenario, { trace: {} });
    expect(traced.summary).toEqual(plain.summary);
    const { rows } = traceRows(traced);
    const drops = rows.filter((r) => r.event === "drop");
    expect(drops.length).toBe(traced.summary.totals.dataDrops);
    expect(drops.length).toBeGreaterThan(0);
    for (const drop of drops) {
      expect(drop).toMatchObject({ device: "S0", kind: "data" });
      const later = rows.filter(
        (r) => r.packet === drop.packet && Number(r.time_ps) >= Number(drop.time_ps),
      );
      expect(later.map((r) => r.event)).toContain("inject"); // sent again by its source
      expect(later.filter((r) => r.event === "deliver")).toHaveLength(1);
    }
  });
});
