/**
 * Message sizes from an empirical CDF in a scenario (`size: { kind: cdf, … }`): the built-in
 * WebSearch distribution validates and runs, and a bad list of points is refused before the
 * run with the path of the field that breaks the rule.
 */
import { describe, expect, it } from "vitest";
import {
  paramDocs,
  resolveScenario,
  ScenarioError,
  simulate,
  TRAFFIC_PATTERNS,
} from "../src/index.js";

const scenario = (size: unknown) => ({
  name: "cdf-sizes",
  seed: 3,
  topology: { kind: "single-switch", hosts: 8, rateGbps: 100, latencyNs: 500 },
  traffic: [{ pattern: "uniform", loadFraction: 0.5, size, stopNs: 100_000 }],
  run: { durationUs: 150 },
  metrics: { binUs: 10 },
});

async function issuesOf(document: unknown): Promise<{ path: string; message: string }[]> {
  try {
    await resolveScenario(document);
  } catch (error) {
    if (error instanceof ScenarioError) return [...error.issues];
    throw error;
  }
  return [];
}

describe("cdf message sizes in a scenario", () => {
  it("a uniform pattern with WebSearch sizes validates and runs", async () => {
    const document = scenario({ kind: "cdf", distribution: "websearch" });
    expect(await issuesOf(document)).toEqual([]);
    const { summary } = await simulate(document);
    const messages = summary.flows.reduce((s, f) => s + f.messages, 0);
    const offered = summary.flows.reduce((s, f) => s + f.offeredBytes, 0);
    // 8 hosts at 50 % of 100 Gb/s for 100 µs offer 5 MB on average: about 3 messages of mean
    // 1.7 MB (seed 3 draws 5, 5.6 MB), each 1 byte to 30 MB.
    expect(messages).toBeGreaterThan(0);
    expect(Number.isInteger(offered)).toBe(true);
    expect(offered).toBeGreaterThanOrEqual(messages);
    expect(offered).toBeLessThanOrEqual(messages * 30_000_000);
    expect(summary.flows.some((f) => f.completedMessages > 0)).toBe(true);
  });

  it("inline points run too", async () => {
    const document = scenario({
      kind: "cdf",
      points: [
        [1000, 0.5],
        [64_000, 1],
      ],
    });
    const { summary } = await simulate(document);
    expect(summary.flows.reduce((s, f) => s + f.messages, 0)).toBeGreaterThan(10);
  });

  it.each([
    [
      "sizes not increasing",
      [
        [1000, 0.2],
        [2000, 0.5],
        [1500, 1],
      ],
      "traffic[0].size.points[2][0]",
      "sizes must increase",
    ],
    [
      "fractions decreasing",
      [
        [1000, 0.5],
        [2000, 0.4],
        [3000, 1],
      ],
      "traffic[0].size.points[1][1]",
      "must not decrease",
    ],
    [
      "the last fraction not 1",
      [
        [1000, 0.5],
        [2000, 0.9],
      ],
      "traffic[0].size.points[1][1]",
      "exactly 1",
    ],
    [
      "a size of 0 bytes",
      [
        [0, 0],
        [2000, 1],
      ],
      "traffic[0].size.points[0][0]",
      "",
    ],
  ])("refuses points with %s, naming %s", async (_, points, path, says) => {
    const issues = await issuesOf(scenario({ kind: "cdf", points }));
    const issue = issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue!.message).toContain(says);
  });

  it("refuses an unknown built-in, naming the field", async () => {
    const issues = await issuesOf(scenario({ kind: "cdf", distribution: "cache" }));
    expect(issues.map((i) => i.path)).toContain("traffic[0].size.distribution");
  });

  it("`cclab list` shows the cdf variant and its keys (the rows it prints)", () => {
    const rows = new Map(paramDocs(TRAFFIC_PATTERNS.uniform!.params).map((d) => [d.name, d]));
    expect(rows.get("size.kind")?.type).toContain('"cdf"');
    expect(rows.get("size.kind")?.description).toContain("cdf: empirical CDF");
    expect(rows.get("size.distribution")?.type).toBe('"websearch" | "hadoop"');
    // A tuple shows its members, not "any[][]".
    expect(rows.get("size.points")?.type).toBe("[integer, number][]");
    expect(rows.get("size.points")?.description).toMatch(
      /^\(kind "cdf"\) \[bytes, cumulativeFraction\]/,
    );
  });
});
