import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { wiringOf } from "../wiring.js";
import { parkingLot } from "./parking-lot.js";

describe("parkingLot", () => {
  it("chains the switches with the documented ports", () => {
    const { fabric, routing } = parkingLot({ switches: 3, hostsPerSwitch: 2 });
    const w = wiringOf(fabric);
    expect(fabric.switches.map((s) => [s.name, s.portCount])).toEqual([
      ["S0", 4],
      ["S1", 4],
      ["S2", 4],
    ]);
    expect(w.hostPeers[3]).toMatchObject({ kind: "switch", index: 1, port: 1 });
    expect(w.switchPorts[1]![2]).toMatchObject({ kind: "switch", index: 0, port: 3 });
    expect(w.switchPorts[1]![3]).toMatchObject({ kind: "switch", index: 2, port: 2 });
    expect(w.switchPorts[0]![2]).toBeUndefined();
    expect(w.switchPorts[2]![3]).toBeUndefined();
    expect(checkRouting(fabric, routing).maxHops).toBe(3);
  });

  it("takes a host count per switch and a trunk rate", () => {
    const { fabric, routing } = parkingLot({
      switches: 3,
      hostsPerSwitch: [10, 0, 10],
      interSwitchRateGbps: 20,
      rateGbps: 10,
    });
    expect(fabric.hosts).toHaveLength(20);
    expect(fabric.switches[1]!.portCount).toBe(2);
    const trunks = fabric.cables.filter((c) => c.a.kind === "switch" && c.b.kind === "switch");
    expect(trunks.map((c) => c.rateGbps)).toEqual([20, 20]);
    checkRouting(fabric, routing);
  });

  it("checks its options", () => {
    expect(() => parkingLot({ switches: 0, hostsPerSwitch: 1 })).toThrow(/option "switches"/);
    expect(() => parkingLot({ switches: 2, hostsPerSwitch: [1] })).toThrow(
      /one count per switch \(2\), got 1/,
    );
    expect(() => parkingLot({ switches: 2, hostsPerSwitch: [1, -1] })).toThrow(
      /"hostsPerSwitch\[1\]"/,
    );
    expect(() => parkingLot({ switches: 2, hostsPerSwitch: 0 })).toThrow(/at least one host/);
    expect(() => parkingLot({ switches: 1024, hostsPerSwitch: 1024 })).toThrow(
      /forwarding tables would hold/,
    );
    expect(() => parkingLot({ switches: 2, hostsPerSwitch: "2" as unknown as number })).toThrow(
      TypeError,
    );
  });
});
