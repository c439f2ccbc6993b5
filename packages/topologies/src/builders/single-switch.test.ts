import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { singleSwitch } from "./single-switch.js";

describe("singleSwitch", () => {
  it("puts host i on port i of one switch", () => {
    const { fabric, routing } = singleSwitch({ hosts: 5, rateGbps: 25, latencyNs: 10 });
    expect(fabric.switches).toEqual([{ name: "S0", portCount: 5 }]);
    expect(fabric.hosts.map((h) => h.name)).toEqual(["H0", "H1", "H2", "H3", "H4"]);
    expect(routing.tables[0]!.candidates).toEqual([[0], [1], [2], [3], [4]]);
    expect(fabric.cables.every((c) => c.rateGbps === 25 && c.latencyNs === 10)).toBe(true);
    expect(checkRouting(fabric, routing).maxHops).toBe(1);
  });

  it("builds Paper II's seven-host switch with the thesis's names (001 line 1037)", () => {
    const names = ["H1", "H2", "H3", "H4", "H5", "H6", "H7"];
    const { fabric } = singleSwitch({ hosts: 7, hostNames: names });
    expect(fabric.hosts.map((h) => h.name)).toEqual(names);
    expect(fabric.cables[0]).toMatchObject({ rateGbps: 100, latencyNs: 1000 });
  });

  it("checks its options", () => {
    expect(() => singleSwitch({ hosts: 0 })).toThrow(
      /singleSwitch: option "hosts" must be an integer in 1..4096, got 0/,
    );
    expect(() => singleSwitch({} as { hosts: number })).toThrow(/option "hosts" is required/);
    expect(() => singleSwitch({ hosts: 2, hostNames: ["a"] })).toThrow(
      /"hostNames" must hold 2 names/,
    );
  });
});
