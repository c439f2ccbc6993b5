import { describe, expect, it } from "vitest";
import type { PortRow, RunDetail, SeriesData } from "../../data/types.js";
import type { PageContext } from "../main.js";
import { utilisationInWindow, utilisationOfRun } from "./topology-values.js";

// Two VLs: ports.csv repeats each port's bytes (the link's, every VL together) on both rows.
const row = (name: string, peer: string, vl: number, bytes: number, rate?: number): PortRow => ({
  device: name.split(".")[0]!,
  port: Number(name.split(".p")[1]),
  name,
  peer,
  vl,
  bytesForwarded: bytes,
  meanInputBytes: 0,
  maxInputBytes: 0,
  blockedUs: 0,
  ...(rate === undefined ? {} : { rateGbps: rate }),
});

const detail = (rated: boolean): RunDetail => ({
  entry: {
    id: "r0",
    label: "run",
    path: "run",
    scenario: "s",
    seed: 1,
    status: "time-reached",
    simulatedUs: 200,
  },
  facts: [],
  tables: [],
  summaryText: "",
  series: [],
  // 125,000 B in 200 µs: 5 Gb/s, half of a 10 Gb/s link.
  ports: [0, 1].flatMap((vl) => [
    row("S0.p0", "H0", vl, 125_000, rated ? 10 : undefined),
    row("H0.p0", "S0.p0", vl, 0, rated ? 10 : undefined),
  ]),
});

/** A page context whose source answers link-throughput with two 100 µs bins. */
const context = (data: SeriesData) =>
  ({ source: { series: async () => data } }) as unknown as PageContext;

const bins: SeriesData = {
  name: "link-throughput",
  x: [0, 100],
  lines: [{ key: "S0.p0", y: [2, 8] }],
  full: true,
};

describe("link utilisation on the topology", () => {
  it("over the whole run counts a port's bytes once, not once per VL row", () => {
    expect(utilisationOfRun(detail(true)).values.get("S0.p0")).toBeCloseTo(50, 9);
    expect(utilisationOfRun(detail(false)).values.get("S0.p0")).toBeCloseTo(5, 9);
  });

  it("over a window is the mean Gb/s of the bins starting in it, over the link's rate", async () => {
    const ctx = context(bins);
    const all = await utilisationInWindow(ctx, detail(true), 0, 200);
    expect(all.values.get("S0.p0")).toBeCloseTo(50, 9); // the whole run's, as above
    expect(all.unit).toBe("%");
    const second = await utilisationInWindow(ctx, detail(true), 100, 200);
    expect(second.values.get("S0.p0")).toBeCloseTo(80, 9);
    const unrated = await utilisationInWindow(ctx, detail(false), 0, 100);
    expect(unrated.values.get("S0.p0")).toBe(2);
    expect(unrated.unit).toBe("Gb/s");
  });
});
