import { describe, expect, it } from "vitest";
import { srpCongestionNetwork } from "./builders/srp-congestion-network.js";
import { hostByName, switchByName } from "./host-by-name.js";

describe("hostByName / switchByName", () => {
  const { fabric } = srpCongestionNetwork();

  it("finds hosts and switches by name", () => {
    expect(hostByName(fabric, "S0")).toBe(0);
    expect(hostByName(fabric, "D1")).toBe(7);
    expect(switchByName(fabric, "R1")).toBe(1);
  });

  it("names the missing name, the fabric and some of its hosts", () => {
    expect(() => hostByName(fabric, "S9")).toThrow(RangeError);
    expect(() => hostByName(fabric, "S9")).toThrow(
      /no host named "S9" in fabric "SRP congestion network \(Fig. 1\)" \(hosts: S0, S1, S2, S3, S4, S5, D0, D1\)/,
    );
    expect(() => switchByName(fabric, "R2")).toThrow(/no switch named "R2".*switches: R0, R1/);
    expect(() => hostByName({ name: "empty", hosts: [], switches: [], cables: [] }, "x")).toThrow(
      /it has no hosts/,
    );
  });
});
