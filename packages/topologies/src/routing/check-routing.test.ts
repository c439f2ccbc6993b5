import type { FabricDescription, ForwardingTable, Routing } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { srpCongestionNetwork } from "../builders/srp-congestion-network.js";
import { checkRouting, findRoutingProblem, RoutingError } from "./check-routing.js";

// h0 — s0 — s1 — h1: port 0 of each switch is its host, port 1 the other switch.
const pair: FabricDescription = {
  name: "pair",
  hosts: [{ name: "h0" }, { name: "h1" }],
  switches: [
    { name: "s0", portCount: 3 },
    { name: "s1", portCount: 2 },
  ],
  cables: [
    {
      a: { kind: "host", index: 0 },
      b: { kind: "switch", index: 0, port: 0 },
      rateGbps: 1,
      latencyNs: 0,
    },
    {
      a: { kind: "host", index: 1 },
      b: { kind: "switch", index: 1, port: 0 },
      rateGbps: 1,
      latencyNs: 0,
    },
    {
      a: { kind: "switch", index: 0, port: 1 },
      b: { kind: "switch", index: 1, port: 1 },
      rateGbps: 1,
      latencyNs: 0,
    },
  ],
};

function routing(s0: number[][], s1: number[][]): Routing {
  const table = (candidates: number[][]): ForwardingTable => ({ candidates, selection: "first" });
  return { name: "hand-made", tables: [table(s0), table(s1)] };
}

describe("checkRouting", () => {
  it("accepts a sound routing and reports the longest switch-to-host way", () => {
    expect(checkRouting(pair, routing([[0], [1]], [[1], [0]]))).toEqual({ maxHops: 2 });
    const srp = srpCongestionNetwork();
    expect(checkRouting(srp.fabric, srp.routing).maxHops).toBe(2);
  });

  it("names the switch and destination of an empty candidate list", () => {
    const r = routing([[0], []], [[1], [0]]);
    expect(() => checkRouting(pair, r)).toThrow(RoutingError);
    expect(() => checkRouting(pair, r)).toThrow(
      /switch "s0" \(index 0\), destination host "h1" \(index 1\): has no candidate port/,
    );
    const problem = findRoutingProblem(pair, r);
    expect(problem?.switchIndex).toBe(0);
    expect(problem?.hostIndex).toBe(1);
  });

  it("finds a loop behind any candidate, not only the first", () => {
    // s1's second candidate for h1 sends packets back to s0, which sends them to s1 again.
    const r = routing([[0], [1]], [[1], [0, 1]]);
    expect(() => checkRouting(pair, r)).toThrow(
      /destination host "h1".*loops back through port 1: s0 → s1 → s0/,
    );
  });

  it("rejects ports out of range, uncabled, or leading to another host", () => {
    expect(() => checkRouting(pair, routing([[0], [7]], [[1], [0]]))).toThrow(
      /lists port 7, outside 0..2/,
    );
    expect(() => checkRouting(pair, routing([[0], [2]], [[1], [0]]))).toThrow(
      /lists port 2, which is not cabled/,
    );
    expect(() => checkRouting(pair, routing([[0], [0]], [[1], [0]]))).toThrow(
      /destination host "h1".*lists port 0, which leads to host "h0" instead/,
    );
  });

  it("rejects tables of the wrong shape or selection", () => {
    expect(() => checkRouting(pair, { name: "x", tables: [] })).toThrow(
      /needs 2 tables \(one per switch\), got 0/,
    );
    const short = routing([[0]], [[1], [0]]);
    expect(() => checkRouting(pair, short)).toThrow(
      /switch "s0" \(index 0\): table needs 2 candidate lists/,
    );
    const bad = {
      name: "x",
      tables: [
        { candidates: [[0], [1]], selection: "adaptive" },
        routing([], [[1], [0]]).tables[1],
      ],
    };
    expect(() => checkRouting(pair, bad as unknown as Routing)).toThrow(
      /selection must be one of first, flow-hash, random/,
    );
  });

  it("passes a fabric without switches (nothing to route)", () => {
    const direct: FabricDescription = {
      name: "direct",
      hosts: [{ name: "a" }, { name: "b" }],
      switches: [],
      cables: [
        { a: { kind: "host", index: 0 }, b: { kind: "host", index: 1 }, rateGbps: 1, latencyNs: 0 },
      ],
    };
    expect(checkRouting(direct, { name: "none", tables: [] })).toEqual({ maxHops: 0 });
  });
});
