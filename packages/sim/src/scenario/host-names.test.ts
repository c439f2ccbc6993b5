import { describe, expect, it } from "vitest";
import { ScenarioError } from "./issues.js";
import { resolveScenario } from "./resolve.js";

const BASE = {
  name: "host-names",
  topology: { kind: "single-switch", hosts: 4 },
  run: { durationUs: 20 },
};

describe("host names in traffic fields", () => {
  it("turns a pattern's dstHost name into its index, as hotspot and senders", async () => {
    const { scenario } = await resolveScenario({
      ...BASE,
      traffic: [
        { pattern: "on-off", dstHost: "H3", senders: ["H0", "H1"], onUs: 5, offUs: 5 },
        { pattern: "impulse", dstHost: "H2", senders: ["H0"], atNs: 0 },
      ],
    });
    expect(scenario.traffic[0]).toMatchObject({ dstHost: 3, senders: [0, 1] });
    expect(scenario.traffic[1]).toMatchObject({ dstHost: 2, senders: [0] });
  });

  it("names the path of a dstHost the topology does not have", async () => {
    const error = await resolveScenario({
      ...BASE,
      traffic: [{ pattern: "on-off", dstHost: "H9", onUs: 5, offUs: 5 }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).issues).toContainEqual(
      expect.objectContaining({ path: "traffic[0].dstHost" }),
    );
  });
});
