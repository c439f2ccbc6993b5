import type { Cable, FabricDescription } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { wiringOf } from "./wiring.js";

const base: FabricDescription = {
  name: "t",
  hosts: [{ name: "h0" }, { name: "h1" }],
  switches: [{ name: "s0", portCount: 2 }],
  cables: [
    {
      a: { kind: "host", index: 0 },
      b: { kind: "switch", index: 0, port: 0 },
      rateGbps: 10,
      latencyNs: 5,
    },
    {
      a: { kind: "switch", index: 0, port: 1 },
      b: { kind: "host", index: 1 },
      rateGbps: 10,
      latencyNs: 5,
    },
  ],
};

function withCable(cable: unknown): FabricDescription {
  return { ...base, cables: [base.cables[0]!, cable as Cable] };
}

describe("wiringOf", () => {
  it("indexes each port's far end and cable", () => {
    const w = wiringOf(base);
    expect(w.switchPorts[0]).toEqual([
      { kind: "host", index: 0, port: 0, cable: 0 },
      { kind: "host", index: 1, port: 0, cable: 1 },
    ]);
    expect(w.hostPeers[1]).toEqual({ kind: "switch", index: 0, port: 1, cable: 1 });
  });

  it("rejects bad cables, naming the field", () => {
    const h1 = { kind: "host", index: 1 };
    expect(() =>
      wiringOf(
        withCable({ a: { kind: "switch", index: 0, port: 2 }, b: h1, rateGbps: 1, latencyNs: 0 }),
      ),
    ).toThrow(/cables\[1\]\.a\.port: switch "s0" has ports 0..1, got 2/);
    expect(() =>
      wiringOf(
        withCable({ a: { kind: "switch", index: 0, port: 0 }, b: h1, rateGbps: 1, latencyNs: 0 }),
      ),
    ).toThrow(/cables\[1\]\.a: port 0 of switch "s0" is already cabled by cables\[0\]/);
    expect(() =>
      wiringOf(withCable({ a: { kind: "host", index: 0 }, b: h1, rateGbps: 1, latencyNs: 0 })),
    ).toThrow(/cables\[1\]\.a: host "h0" is already cabled by cables\[0\]/);
    expect(() =>
      wiringOf(withCable({ a: { kind: "host", index: 5 }, b: h1, rateGbps: 1, latencyNs: 0 })),
    ).toThrow(/cables\[1\]\.a\.index must be a host index in 0..1, got 5/);
    expect(() =>
      wiringOf(withCable({ a: { kind: "router", index: 0 }, b: h1, rateGbps: 1, latencyNs: 0 })),
    ).toThrow(TypeError);
    expect(() =>
      wiringOf(
        withCable({ a: { kind: "switch", index: 0, port: 1 }, b: h1, rateGbps: -3, latencyNs: 0 }),
      ),
    ).toThrow(/cables\[1\]\.rateGbps must be a finite rate > 0 Gb\/s, got -3/);
    expect(() =>
      wiringOf(
        withCable({ a: { kind: "switch", index: 0, port: 1 }, b: h1, rateGbps: 1, latencyNs: -1 }),
      ),
    ).toThrow(/cables\[1\]\.latencyNs/);
    expect(() => wiringOf(withCable({ a: h1, b: h1, rateGbps: 1, latencyNs: 0 }))).toThrow(
      /both ends are the same port/,
    );
  });

  it("rejects malformed switches and parts", () => {
    expect(() => wiringOf({ ...base, switches: [{ name: "s0", portCount: 0 }] })).toThrow(
      /switches\[0\]\.portCount must be an integer ≥ 1, got 0/,
    );
    expect(() =>
      wiringOf({ ...base, switches: [{ name: "s0", portCount: 2, level: -1 }] }),
    ).toThrow(/switches\[0\]\.level/);
    expect(() => wiringOf({ ...base, cables: undefined } as unknown as FabricDescription)).toThrow(
      /"cables" must be an array/,
    );
  });
});
