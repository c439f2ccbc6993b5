/**
 * Every shipped scenario runs from its file and gives its published figures (scenarios/README.md).
 * The no-CC reproductions check the same numbers as packages/network/test/reproductions, now
 * through the scenario file, the traffic generators and the runner.
 */
import { describe, expect, it } from "vitest";
import { csvRows, meanGbps, runShipped } from "./helpers.js";

/**
 * A share within ±4 % of its theoretical value: round-robin shares are exact in theory, and
 * ±4 % tells 1/6 from 1/5 and 1/7 (a tolerance of ±0.05 would take all three).
 */
function expectShare(actual: number, share: number): void {
  expect(Math.abs(actual - share) / share).toBeLessThanOrEqual(0.04);
}

describe("gran-thesis/parking-lot-no-cc.yaml", async () => {
  const result = await runShipped("gran-thesis/parking-lot-no-cc.yaml");
  const flows = [
    ["H1", "H4"],
    ["H2", "H5"],
    ["H3", "H5"],
    ["H6", "H5"],
    ["H7", "H5"],
  ] as const;
  // Mean over the second half of each 1 ms stage.
  const rates = flows.map((_, stage) =>
    flows.map(([s, d]) => meanGbps(result, s, d, stage * 1000 + 500, (stage + 1) * 1000)),
  );
  const h5 = 13 * (2048 / (2048 + 26));

  it("runs F1 alone and with F2 at the host cap", () => {
    expect(rates[0]![0]).toBeCloseTo(h5, 0);
    expect(rates[1]![0]).toBeCloseTo(h5, 0);
    expect(rates[1]![1]).toBeCloseTo(h5, 0);
  });

  it("makes F1 a victim: ≈ 1/2, 1/4, 1/6 of the H5 link as F3, F4, F5 join", () => {
    expectShare(rates[2]![0]! / h5, 1 / 2);
    expectShare(rates[3]![0]! / h5, 1 / 4);
    expectShare(rates[4]![0]! / h5, 1 / 6);
  });

  it("ends with F4, F5 ≈ 1/3 and F2, F3 ≈ 1/6 of the H5 link", () => {
    const last = rates[4]!;
    const total = last[1]! + last[2]! + last[3]! + last[4]!;
    expect(total).toBeGreaterThan(0.97 * h5);
    expectShare(last[3]! / total, 1 / 3);
    expectShare(last[4]! / total, 1 / 3);
    expectShare(last[1]! / total, 1 / 6);
    expectShare(last[2]! / total, 1 / 6);
  });

  it("reports the run in the summary, flows in id order with their groups", () => {
    expect(result.summary.status).toBe("time-reached");
    expect(result.summary.flows.map((f) => f.group)).toEqual([
      "victim",
      "contributors",
      "contributors",
      "contributors",
      "contributors",
    ]);
  });
});

describe("srp/fig1-no-cc.yaml", async () => {
  const result = await runShipped("srp/fig1-no-cc.yaml");
  const rate = (src: string) => result.summary.flows.find((f) => f.srcName === src)!.windowGbps;

  it("keeps L2 (to D1) fully used", () => {
    const toD1 = ["S1", "S2", "S3", "S4", "S5"].reduce((sum, s) => sum + rate(s), 0);
    expect(toD1).toBeGreaterThan(0.98 * 10);
  });

  it("gives S1 and S2 half the throughput of S3..S5", () => {
    const far = (rate("S3") + rate("S4") + rate("S5")) / 3;
    expect(far).toBeCloseTo(2.5, 1);
    // Half, within ±4 % (a third or two thirds of it would be far outside).
    for (const s of ["S1", "S2"]) expect(Math.abs(rate(s) / far / 0.5 - 1)).toBeLessThan(0.04);
  });

  it("holds S0 far below the bandwidth left free on its path", () => {
    const free = 10 - rate("S1") - rate("S2");
    expect(free).toBeGreaterThan(7);
    expect(rate("S0")).toBeLessThan(0.25 * free);
    expect(rate("S0")).toBeGreaterThan(0);
  });
});

describe("trees/many-to-one-4ary3.yaml (at 12 of 30 ms)", async () => {
  const result = await runShipped("trees/many-to-one-4ary3.yaml", ["run.durationUs=12000"]);
  const flows = result.summary.flows;
  const total = flows.reduce((s, f) => s + f.windowGbps, 0);
  const share = (src: number) => flows.find((f) => f.src === src)!.windowGbps / total;

  it("keeps the destination link busy", () => {
    expect(total).toBeGreaterThan(0.97 * 40 * (2048 / 2074));
  });

  it("gives 1/4, 1/64 and 1/768 by distance (round-robin worst case, ±10 %)", () => {
    for (const h of [1, 2, 3]) expect(Math.abs(share(h) * 4 - 1)).toBeLessThan(0.1);
    for (let h = 4; h < 16; h++) expect(Math.abs(share(h) * 64 - 1)).toBeLessThan(0.1);
    for (let h = 16; h < 64; h++) expect(Math.abs(share(h) * 768 - 1)).toBeLessThan(0.1);
  });
});

describe("bench/uniform256.yaml (first 60 µs)", async () => {
  const result = await runShipped("bench/uniform256.yaml", ["run.durationUs=60"]);
  const s = result.summary;

  it("stops at the cap with the later flows still running, lossless", () => {
    expect(s.status).toBe("incomplete");
    expect(s.totals.dataDrops).toBe(0);
    expect(s.totals.deliveredBytes).toBeLessThanOrEqual(s.totals.offeredBytes);
    expect(s.totals.completedMessages).toBeGreaterThan(100);
  });

  it("never completes a message faster than alone on the idle fabric", () => {
    const slowdowns = csvRows(result, "messages.csv").map((m) => Number(m.slowdown));
    expect(slowdowns.length).toBe(s.totals.completedMessages);
    // messages.csv rounds to 6 decimals: a message exactly at its ideal time reads 1.
    expect(Math.min(...slowdowns)).toBeGreaterThanOrEqual(1);
    expect(s.fct!.slowdown.p50).toBeGreaterThanOrEqual(1);
    expect(s.fct!.slowdown.max).toBeLessThan(20);
  });
});

describe("bench/uniform256-dcqcn.yaml (first 100 µs)", async () => {
  const result = await runShipped("bench/uniform256-dcqcn.yaml", ["run.durationUs=100"]);
  const s = result.summary;
  const cc = s.totals.ccCounters;

  it("marks at the switches and cuts the senders' rates, lossless", () => {
    expect(s.totals.dataDrops).toBe(0);
    expect(cc.ceMarked).toBeGreaterThan(0);
    expect(cc.rateCuts).toBeGreaterThan(0);
    // nic preset: an ACK for every data packet that arrived (all 1000-byte payloads), of
    // which those still in flight at the cap have not reached their senders.
    expect(cc.acksSent).toBe(s.totals.deliveredBytes / 1000);
    expect(s.totals.controlPackets.ack).toBeGreaterThan(0);
    expect(s.totals.controlPackets.ack).toBeLessThanOrEqual(cc.acksSent!);
    expect(cc.ceReceived).toBeLessThanOrEqual(cc.ceMarked!);
    expect(s.totals.marks.ecnCe).toBe(cc.ceReceived);
  });

  it("never completes a message faster than alone on the idle fabric", () => {
    const slowdowns = csvRows(result, "messages.csv").map((m) => Number(m.slowdown));
    expect(s.totals.completedMessages).toBeGreaterThan(0);
    expect(slowdowns.length).toBe(s.totals.completedMessages);
    expect(Math.min(...slowdowns)).toBeGreaterThanOrEqual(1);
  });
});
