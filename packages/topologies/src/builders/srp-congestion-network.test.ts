import { describe, expect, it } from "vitest";
import { hostByName } from "../host-by-name.js";
import { checkRouting } from "../routing/check-routing.js";
import { traceRoute } from "../routing/trace-route.js";
import { wiringOf } from "../wiring.js";
import { srpCongestionNetwork } from "./srp-congestion-network.js";

describe("srpCongestionNetwork (SRP paper Fig. 1)", () => {
  const net = srpCongestionNetwork();
  const { fabric, routing, hostIndex, cableIndex } = net;
  const wiring = wiringOf(fabric);

  /** Cables a packet from `src` to `dst` crosses, host links included. */
  function cablesOf(src: string, dst: string): number[] {
    const s = hostByName(fabric, src);
    const d = hostByName(fabric, dst);
    const hops = traceRoute(wiring, routing, s, d);
    return [
      wiring.hostPeers[s]!.cable,
      ...hops.map((h) => wiring.switchPorts[h.switchIndex]![h.outPort]!.cable),
    ];
  }

  it("has the paper's hosts, by name, and two routers", () => {
    expect(fabric.hosts.map((h) => h.name)).toEqual([
      "S0",
      "S1",
      "S2",
      "S3",
      "S4",
      "S5",
      "D0",
      "D1",
    ]);
    for (const [name, index] of Object.entries(hostIndex))
      expect(hostByName(fabric, name)).toBe(index);
    expect(fabric.switches).toEqual([
      { name: "R0", portCount: 4 },
      { name: "R1", portCount: 6 },
    ]);
    expect(fabric.cables).toHaveLength(9);
  });

  it("uses the SRP channel: 10 Gb/s, 32 ns (000 line 92), unless told otherwise", () => {
    expect(fabric.cables.every((c) => c.rateGbps === 10 && c.latencyNs === 32)).toBe(true);
    const fast = srpCongestionNetwork({ rateGbps: 40, latencyNs: 0 }).fabric;
    expect(fast.cables.every((c) => c.rateGbps === 40 && c.latencyNs === 0)).toBe(true);
  });

  it("puts S0, S1, S2 on L0, L1 on S0's path and L2 to D1 (000 line 38)", () => {
    const { L0, L1, L2 } = cableIndex;
    expect(cablesOf("S0", "D0")).toEqual([0, L0, L1]);
    for (const s of ["S1", "S2"]) expect(cablesOf(s, "D1")).toContain(L0);
    for (const s of ["S3", "S4", "S5"]) expect(cablesOf(s, "D1")).not.toContain(L0);
    for (const s of ["S1", "S2", "S3", "S4", "S5"]) expect(cablesOf(s, "D1").at(-1)).toBe(L2);
    expect(fabric.cables[L0]!.a).toEqual({ kind: "switch", index: 0, port: 3 });
    expect(fabric.cables[L2]!.b).toEqual({ kind: "host", index: hostIndex.D1 });
  });

  it("lets the five hot-spot flows reach L2 through four input ports, S1 and S2 sharing one", () => {
    // Per-input-port round-robin then gives S1 and S2 half the share of S3..S5 (000 line 38).
    const inPorts = ["S1", "S2", "S3", "S4", "S5"].map((s) => {
      const hops = traceRoute(wiring, routing, hostByName(fabric, s), hostIndex.D1);
      return hops.at(-1)!.inPort;
    });
    expect(inPorts).toEqual([0, 0, 1, 2, 3]);
  });

  it("routes every pair and checks its options", () => {
    expect(checkRouting(fabric, routing).maxHops).toBe(2);
    expect(() => srpCongestionNetwork({ rateGbps: -10 })).toThrow(
      /srpCongestionNetwork: option "rateGbps"/,
    );
    expect(() => srpCongestionNetwork({ hosts: 3 } as object)).toThrow(
      /unknown option "hosts" \(allowed: rateGbps, latencyNs\)/,
    );
  });
});
