import type { FabricDescription } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { genericTopology } from "../builders/generic-topology.js";
import { checkRouting } from "./check-routing.js";
import { shortestPath } from "./shortest-path.js";

// A ring of four switches, one host each: s0 — s1 — s2 — s3 — s0.
const ring = genericTopology({
  nodes: [
    ...[0, 1, 2, 3].map((i) => ({ kind: "switch" as const, name: `s${i}` })),
    ...[0, 1, 2, 3].map((i) => ({ kind: "host" as const, name: `h${i}` })),
  ],
  links: [
    ...[0, 1, 2, 3].map((i) => ({ a: `h${i}`, b: { node: `s${i}`, port: 0 } })),
    ...[0, 1, 2, 3].map((i) => ({ a: `s${i}`, b: `s${(i + 1) % 4}` })),
  ],
}).fabric;

describe("shortestPath", () => {
  it("lists every port one link closer, ascending", () => {
    const r = shortestPath(ring);
    expect(r.name).toBe("shortest-path");
    // s0: port 0 = h0, port 1 = s1, port 2 = s3. h2 sits opposite, two ways round.
    expect(r.tables[0]!.candidates[2]).toEqual([1, 2]);
    expect(r.tables[0]!.candidates[1]).toEqual([1]);
    expect(r.tables[0]!.candidates[0]).toEqual([0]);
    expect(r.tables[0]!.selection).toBe("first");
    expect(checkRouting(ring, r).maxHops).toBe(3);
  });

  it("takes a selection, and rejects unknown options", () => {
    expect(shortestPath(ring, { selection: "flow-hash" }).tables[2]!.selection).toBe("flow-hash");
    expect(() => shortestPath(ring, { selection: "adaptive" as "first" })).toThrow(
      /"selection" must be one of/,
    );
    expect(() => shortestPath(ring, { name: "x" } as object)).toThrow(/unknown option "name"/);
  });

  it("leaves unreachable hosts without candidates", () => {
    const split: FabricDescription = {
      name: "split",
      hosts: [{ name: "a" }, { name: "b" }],
      switches: [
        { name: "s", portCount: 1 },
        { name: "t", portCount: 1 },
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
      ],
    };
    const r = shortestPath(split);
    expect(r.tables[0]!.candidates[1]).toEqual([]);
    expect(() => checkRouting(split, r)).toThrow(
      /switch "t".*destination host "a".*no candidate port/,
    );
  });
});
