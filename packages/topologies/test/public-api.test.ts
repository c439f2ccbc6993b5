import * as topologies from "@cclab/topologies";
import { describe, expect, it } from "vitest";

describe("@cclab/topologies public API", () => {
  it("resolves by package name to the sources and exports each part", () => {
    expect(Object.keys(topologies).sort()).toEqual(
      expect.arrayContaining([
        "checkRouting",
        "dModK",
        "ecmpHashed",
        "findRoutingProblem",
        "foldedClos648",
        "fromFile",
        "genericTopology",
        "hostByName",
        "karyNTree",
        "ncaRandomUp",
        "parkingLot",
        "RoutingError",
        "routingByName",
        "shortestPath",
        "singleSwitch",
        "SRP_FAT_TREE_256",
        "srpCongestionNetwork",
        "switchByName",
        "traceRoute",
        "twoLevelFatTree",
        "twoSwitchTestbed",
        "UNIFORM256_LEAF_SPINE",
        "wiringOf",
      ]),
    );
  });

  it("builds the SRP scenario by the paper's names and routes it", () => {
    const { fabric, routing } = topologies.srpCongestionNetwork();
    const s0 = topologies.hostByName(fabric, "S0");
    const d0 = topologies.hostByName(fabric, "D0");
    expect(topologies.checkRouting(fabric, routing).maxHops).toBe(2);
    const hops = topologies.traceRoute(topologies.wiringOf(fabric), routing, s0, d0);
    expect(hops.map((h) => fabric.switches[h.switchIndex]!.name)).toEqual(["R0", "R1"]);
  });

  it("swaps the routing of a tree and reads a topology from JSON text", () => {
    const { fabric } = topologies.karyNTree({ k: 2, n: 3 });
    for (const route of [
      topologies.dModK,
      topologies.ncaRandomUp,
      topologies.ecmpHashed,
      topologies.shortestPath,
    ]) {
      topologies.checkRouting(fabric, route(fabric));
    }
    const t = topologies.fromFile(
      '{"nodes":[{"kind":"switch","name":"s"},{"kind":"host","name":"a"},{"kind":"host","name":"b"}],"links":[{"a":"a","b":"s"},{"a":"b","b":"s"}]}',
    );
    expect(t.routing.tables[0]!.candidates).toEqual([[0], [1]]);
  });
});
