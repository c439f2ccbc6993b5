import { describe, expect, it } from "vitest";
import { paramDocs } from "../param-docs.js";
import { ScenarioError } from "./issues.js";
import { receiveRateSchedules } from "./receive-rates.js";
import { resolveScenario } from "./resolve.js";
import { scenarioSchema } from "./schema.js";

const BASE = {
  name: "receive-rates",
  topology: { kind: "single-switch", hosts: 4 },
  traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
  run: { durationUs: 20 },
};

const withRates = (receiveRates: unknown) => ({ ...BASE, host: { receiveRates } });

async function issuesOf(document: unknown) {
  try {
    await resolveScenario(document);
  } catch (error) {
    if (error instanceof ScenarioError) return error.issues;
    throw error;
  }
  return [];
}

describe("host.receiveRates", () => {
  it("takes host names or indices, fills atUs with 0, and keeps the entries as given", async () => {
    const { scenario } = await resolveScenario(
      withRates([
        { hosts: ["H1", 3], receiveRateGbps: 1 },
        { hosts: ["H1"], receiveRateGbps: 0.5, atUs: 500 },
        { hosts: [3], receiveRateGbps: null, atUs: 200 },
      ]),
    );
    expect(scenario.host.receiveRates).toEqual([
      { hosts: [1, 3], receiveRateGbps: 1, atUs: 0 },
      { hosts: [1], receiveRateGbps: 0.5, atUs: 500 },
      { hosts: [3], receiveRateGbps: null, atUs: 200 },
    ]);
    expect(scenario.host.receiveRateGbps).toBeNull();
  });

  it("is left out of a scenario that gives none", async () => {
    const { scenario } = await resolveScenario(BASE);
    expect(scenario.host).not.toHaveProperty("receiveRates");
  });

  const cases: [string, unknown, string, string][] = [
    [
      "an unknown host name",
      [{ hosts: [0] }, { hosts: ["H9"], receiveRateGbps: 1 }],
      "host.receiveRates[1].hosts[0]",
      '"H9" is not a host of this topology',
    ],
    [
      "a host index the topology does not have",
      [{ hosts: [0, 7], receiveRateGbps: 1 }],
      "host.receiveRates[0].hosts[1]",
      "7 is not a host (0..3)",
    ],
    [
      "a negative time",
      [{ hosts: [0], receiveRateGbps: 1, atUs: -5 }],
      "host.receiveRates[0].atUs",
      "must be a time ≥ 0 µs, got -5",
    ],
    [
      "two entries for one host at one time",
      [
        { hosts: ["H2"], receiveRateGbps: 1, atUs: 100 },
        { hosts: [0, 2], receiveRateGbps: 2, atUs: 100 },
      ],
      "host.receiveRates[1].hosts[1]",
      "host H2 already has a rate at 100 µs (host.receiveRates[0])",
    ],
    [
      "a host twice in one entry",
      [{ hosts: ["H1", 1], receiveRateGbps: 1 }],
      "host.receiveRates[0].hosts[1]",
      "host H1 already has a rate at 0 µs (host.receiveRates[0])",
    ],
    [
      "a zero rate",
      [{ hosts: [0], receiveRateGbps: 0 }],
      "host.receiveRates[0].receiveRateGbps",
      "must be a rate > 0 Gb/s, got 0",
    ],
    [
      "no rate",
      [{ hosts: [0], atUs: 10 }],
      "host.receiveRates[0].receiveRateGbps",
      "must be a rate > 0 Gb/s, got nothing",
    ],
    [
      "no hosts",
      [{ hosts: [], receiveRateGbps: 1 }],
      "host.receiveRates[0].hosts",
      "must list at least one host",
    ],
    [
      "an unknown key",
      [{ hosts: [0], receiveRateGbps: 1, atNs: 5 }],
      "host.receiveRates[0]",
      'unknown key "atNs"; allowed: hosts, receiveRateGbps, atUs',
    ],
    [
      "not a list",
      { hosts: [0], receiveRateGbps: 1 },
      "host.receiveRates",
      "must be a list of { hosts, receiveRateGbps, atUs }",
    ],
  ];
  it.each(cases)("rejects %s, naming the field", async (_what, receiveRates, path, says) => {
    const issues = await issuesOf(withRates(receiveRates));
    const issue = issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue!.message).toContain(says);
  });

  it("reports every problem at once, with the rest of the scenario's", async () => {
    const issues = await issuesOf({
      ...BASE,
      seed: -1,
      host: {
        receiveRates: [
          { hosts: ["H7", 9], receiveRateGbps: 1 },
          { hosts: [1], receiveRateGbps: 1, atUs: 3 },
          { hosts: [1], receiveRateGbps: 2, atUs: 3 },
        ],
      },
    });
    expect(issues.map((i) => i.path)).toEqual([
      "host.receiveRates[0].hosts[0]",
      "seed",
      "host.receiveRates[0].hosts[1]",
      "host.receiveRates[2].hosts[0]",
    ]);
  });

  it("documents each field for `cclab list`", () => {
    const rows = paramDocs(scenarioSchema).filter((r) => r.name.startsWith("host.receiveRates"));
    expect(rows.map((r) => [r.name, r.required])).toEqual([
      ["host.receiveRates", false],
      ["host.receiveRates[].hosts", true],
      ["host.receiveRates[].receiveRateGbps", true],
      ["host.receiveRates[].atUs", false],
    ]);
    for (const row of rows) expect(row.description).not.toBe("");
  });
});

describe("receiveRateSchedules", () => {
  it("gives each host its steps in time order, in ps", () => {
    const schedules = receiveRateSchedules(
      [
        { hosts: [2], receiveRateGbps: 0.5, atUs: 500 },
        { hosts: [2, 0], receiveRateGbps: 1, atUs: 0 },
        { hosts: [2], receiveRateGbps: null, atUs: 0.25 },
      ],
      4,
    );
    expect(schedules).toEqual([
      [{ atPs: 0, rateGbps: 1 }],
      undefined,
      [
        { atPs: 0, rateGbps: 1 },
        { atPs: 250_000, rateGbps: null },
        { atPs: 500_000_000, rateGbps: 0.5 },
      ],
      undefined,
    ]);
  });

  it("is undefined when no host has a rate of its own", () => {
    expect(receiveRateSchedules(undefined, 4)).toBeUndefined();
    expect(receiveRateSchedules([], 4)).toBeUndefined();
  });
});
