import { describe, expect, it } from "vitest";
import { srpCongestionNetwork } from "../builders/srp-congestion-network.js";
import { wiringOf } from "../wiring.js";
import { traceRoute } from "./trace-route.js";

describe("traceRoute", () => {
  const srp = srpCongestionNetwork();
  const wiring = wiringOf(srp.fabric);
  const { S0, S3, D0, D1 } = srp.hostIndex;

  it("lists the switches with their in and out ports", () => {
    expect(traceRoute(wiring, srp.routing, S0, D0)).toEqual([
      { switchIndex: 0, inPort: 0, outPort: 3 },
      { switchIndex: 1, inPort: 0, outPort: 4 },
    ]);
    expect(traceRoute(wiring, srp.routing, S3, D1)).toEqual([
      { switchIndex: 1, inPort: 1, outPort: 5 },
    ]);
  });

  it("uses the chooser and reports broken routes", () => {
    expect(() => traceRoute(wiring, srp.routing, S0, 99)).toThrow(
      /dst must be a host index in 0..7/,
    );
    const stuck = {
      name: "x",
      tables: srp.routing.tables.map((t) => ({ ...t, candidates: t.candidates.map(() => []) })),
    };
    expect(() => traceRoute(wiring, stuck, S0, D0)).toThrow(
      /switch "R0" has no candidate port for "D0"/,
    );
    expect(() => traceRoute(wiring, srp.routing, S0, D0, () => 2)).toThrow(
      /revisits switch "R0"|ends at host/,
    );
    const bounce = {
      name: "x",
      tables: srp.routing.tables.map((t, s) => ({
        ...t,
        candidates: t.candidates.map(() => [s === 0 ? 3 : 0]),
      })),
    };
    expect(() => traceRoute(wiring, bounce, S0, D0)).toThrow(/revisits switch "R0"/);
  });
});
