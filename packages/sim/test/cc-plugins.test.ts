import { fileURLToPath } from "node:url";
import { PRESETS as DCQCN_PRESETS } from "@cclab/cc-dcqcn";
import { PRESETS as IB_PRESETS } from "@cclab/cc-infiniband";
import { describe, expect, it } from "vitest";
import {
  ccPlugins,
  paramDocs,
  prepare,
  resolveScenario,
  ScenarioError,
  simulate,
} from "../src/index.js";

const TOY = fileURLToPath(new URL("./fixtures/toy-plugins.ts", import.meta.url));

const scenario = (cc: unknown) => ({
  name: "plugins",
  plugins: [TOY],
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: 1, dst: 0, group: "slow" },
        { src: 2, dst: 3, group: "fast" },
      ],
    },
  ],
  run: { durationUs: 400, warmupUs: 100 },
  cc,
});

describe("CC plugins from the scenario's plugins list", () => {
  it("registers what a module exports, with its parameters for cclab list", async () => {
    await resolveScenario(scenario(undefined));
    expect([...ccPlugins().keys()]).toEqual(expect.arrayContaining(["toy-gap", "toy-mark"]));
    expect(paramDocs(ccPlugins().get("toy-gap")!.params)).toEqual([
      { name: "gapUs", type: "number", required: false, default: "2", description: "gap, µs" },
    ]);
  });

  it("runs a switch plugin everywhere and a host plugin only on its group", async () => {
    const result = await simulate(
      scenario({
        switch: { plugin: "toy-mark" },
        hosts: [{ hosts: [1], plugin: "toy-gap", params: { gapUs: 4 } }],
      }),
    );
    const rate = (group: string) => result.summary.groups.find((g) => g.name === group)!.meanGbps;
    // One 2074-byte packet (2048 payload) every 4 µs: 4.096 Gb/s of payload. The mean is over
    // the flow's active time in the window, which holds one packet more than its gaps (about
    // 75 of them here: +1.3 % at most).
    const slow = rate("slow");
    expect(slow).toBeGreaterThanOrEqual((2048 * 8) / 4000);
    expect(slow).toBeLessThan(((2048 * 8) / 4000) * 1.014);
    // Host 2 runs no sender part: line rate, 10 Gb/s × 2048/2074.
    expect(rate("fast")).toBeCloseTo(10 * (2048 / 2074), 1);
    expect(result.summary.totals.marks.fecn).toBeGreaterThan(0);
  });

  it("rejects unknown plugins, bad parameters and a host in two groups", async () => {
    const error = await resolveScenario(
      scenario({
        switch: { plugin: "nope" },
        hosts: [
          { hosts: [1, 2], plugin: "toy-gap", params: { gapUs: -1 } },
          { hosts: [2, 9], plugin: "toy-gap" },
        ],
      }),
    ).then(prepare, (e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    const paths = (error as ScenarioError).issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(["cc.switch.plugin", "cc.hosts[0].params.gapUs", "cc.hosts[1].hosts"]),
    );
    expect((error as ScenarioError).message).toContain("host 2 is already in cc.hosts[0]");
    expect((error as ScenarioError).message).toContain("9 is not a host (0..3)");
  });

  it("reports a module that cannot be imported", async () => {
    const error = await resolveScenario({
      ...scenario(undefined),
      plugins: ["./no/such/module.js"],
    }).catch((e: unknown) => e);
    expect((error as ScenarioError).issues[0]).toMatchObject({ path: "plugins[0]" });
  });
});

describe("built-in plugins' parameters", () => {
  // A resolved scenario holds each plugin's resolved parameters, and rerunning it must give
  // them back unchanged: the parameter schema accepts its own output (JSON round trip).
  it("accept their own resolved parameters, for every preset", () => {
    for (const name of ["infiniband", "dcqcn"]) {
      const plugin = ccPlugins().get(name)!;
      for (const preset of presetNames(name)) {
        const resolved = plugin.params.parse({ preset });
        const again = plugin.params.parse(JSON.parse(JSON.stringify(resolved)));
        expect(again, `${name} ${preset}`).toEqual(resolved);
      }
      const explicit =
        name === "infiniband" ? { thresholdHighBytes: 9000, thresholdLowBytes: 4000 } : {};
      const resolved = plugin.params.parse(explicit);
      expect(plugin.params.parse(JSON.parse(JSON.stringify(resolved)))).toEqual(resolved);
    }
  });
});

function presetNames(plugin: string): string[] {
  return Object.keys(plugin === "infiniband" ? IB_PRESETS : DCQCN_PRESETS);
}
