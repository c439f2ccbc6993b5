import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { traceRoute } from "../routing/trace-route.js";
import { wiringOf } from "../wiring.js";
import { twoSwitchTestbed } from "./two-switch-testbed.js";

describe("twoSwitchTestbed (Gran Papers I–III)", () => {
  const tb = twoSwitchTestbed();
  const { fabric, routing, hostIndex } = tb;
  const wiring = wiringOf(fabric);

  it("puts H1–H3 on S1 and H4–H7 on S2", () => {
    expect(fabric.hosts.map((h) => h.name)).toEqual(["H1", "H2", "H3", "H4", "H5", "H6", "H7"]);
    expect(fabric.switches.map((s) => s.name)).toEqual(["S1", "S2"]);
    const switchOf = fabric.hosts.map((_, h) => fabric.switches[wiring.hostPeers[h]!.index]!.name);
    expect(switchOf).toEqual(["S1", "S1", "S1", "S2", "S2", "S2", "S2"]);
    expect(hostIndex.H5).toBe(4);
  });

  it("gives the switch-to-switch cable twice the host link rate by default (001 lines 848, 1109)", () => {
    expect(fabric.cables[tb.interSwitchCable]!.rateGbps).toBe(32);
    expect(
      fabric.cables.filter((_, c) => c !== tb.interSwitchCable).every((c) => c.rateGbps === 16),
    ).toBe(true);
    const signalling = twoSwitchTestbed({ rateGbps: 20 });
    expect(signalling.fabric.cables[signalling.interSwitchCable]!.rateGbps).toBe(40);
    const even = twoSwitchTestbed({ interSwitchRateGbps: 16, interSwitchLatencyNs: 100 });
    expect(even.fabric.cables[even.interSwitchCable]).toMatchObject({
      rateGbps: 16,
      latencyNs: 100,
    });
  });

  it("shapes scenario 1: F1–F3 share the trunk, F2–F5 reach H5 through three input ports (001 lines 1307, 1348–1354)", () => {
    const flows = [
      ["H1", "H4"],
      ["H2", "H5"],
      ["H3", "H5"],
      ["H6", "H5"],
      ["H7", "H5"],
    ] as const;
    const routes = flows.map(([s, d]) => traceRoute(wiring, routing, hostIndex[s], hostIndex[d]));
    expect(routes.map((r) => r.length)).toEqual([2, 2, 2, 1, 1]);
    const intoH5 = new Set(routes.slice(1).map((r) => r.at(-1)!.inPort));
    expect(intoH5.size).toBe(3);
    expect(checkRouting(fabric, routing).maxHops).toBe(2);
  });

  it("checks its options", () => {
    expect(() => twoSwitchTestbed({ interSwitchRateGbps: 0 })).toThrow(
      /option "interSwitchRateGbps" must be a finite rate > 0/,
    );
    expect(() => twoSwitchTestbed({ latencyNs: Number.NaN })).toThrow(TypeError);
  });
});
