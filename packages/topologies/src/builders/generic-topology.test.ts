import { describe, expect, it } from "vitest";
import { hostByName } from "../host-by-name.js";
import { checkRouting, RoutingError } from "../routing/check-routing.js";
import { wiringOf } from "../wiring.js";
import { fromFile, type GenericTopologySpec, genericTopology } from "./generic-topology.js";

const spec: GenericTopologySpec = {
  name: "dumbbell",
  rateGbps: 25,
  latencyNs: 50,
  nodes: [
    { kind: "switch", name: "left" },
    { kind: "switch", name: "right", ports: 8 },
    { kind: "host", name: "a" },
    { kind: "host", name: "b" },
    { kind: "host", name: "c" },
  ],
  links: [
    { a: "a", b: "left" },
    { a: "b", b: { node: "left", port: 0 } },
    { a: { node: "left" }, b: { node: "right", port: 7 }, rateGbps: 50 },
    { a: { node: "c", port: 0 }, b: "right", latencyNs: 0 },
  ],
};

/** `spec` with some of its parts replaced, typed loosely to feed it mistakes. */
function variant(change: Record<string, unknown>): GenericTopologySpec {
  return { ...spec, ...change } as GenericTopologySpec;
}

function withLink(index: number, link: unknown): GenericTopologySpec {
  const links: unknown[] = [...spec.links];
  links[index] = link;
  return variant({ links });
}

describe("genericTopology", () => {
  it("builds hosts and switches in spec order, explicit ports first, then the lowest free ones", () => {
    const { fabric, routing } = genericTopology(spec);
    expect(fabric.name).toBe("dumbbell");
    expect(fabric.hosts.map((h) => h.name)).toEqual(["a", "b", "c"]);
    expect(fabric.switches).toEqual([
      { name: "left", portCount: 3 },
      { name: "right", portCount: 8 },
    ]);
    const w = wiringOf(fabric);
    expect(w.hostPeers[hostByName(fabric, "b")]).toMatchObject({ index: 0, port: 0 });
    expect(w.hostPeers[hostByName(fabric, "a")]).toMatchObject({ index: 0, port: 1 });
    expect(w.switchPorts[0]![2]).toMatchObject({ kind: "switch", index: 1, port: 7 });
    expect(w.hostPeers[2]).toMatchObject({ index: 1, port: 0 });
    expect(fabric.cables.map((c) => [c.rateGbps, c.latencyNs])).toEqual([
      [25, 50],
      [25, 50],
      [50, 50],
      [25, 0],
    ]);
    expect(routing.name).toBe("shortest-path");
    expect(checkRouting(fabric, routing).maxHops).toBe(2);
  });

  it("routes by name, with levels for the tree routings", () => {
    const tree = genericTopology({
      routing: "d-mod-k",
      nodes: [
        { kind: "switch", name: "leaf0", level: 0 },
        { kind: "switch", name: "leaf1", level: 0 },
        { kind: "switch", name: "spine", level: 1 },
        { kind: "host", name: "x" },
        { kind: "host", name: "y" },
      ],
      links: [
        { a: "x", b: "leaf0" },
        { a: "y", b: "leaf1" },
        { a: "leaf0", b: "spine" },
        { a: "leaf1", b: "spine" },
      ],
    });
    expect(tree.routing.name).toBe("d-mod-k");
    expect(genericTopology(variant({ selection: "random" })).routing.tables[0]!.selection).toBe(
      "random",
    );
    expect(() => genericTopology(variant({ routing: "d-mod-k" }))).toThrow(
      /nodes\[0\]\.level: routing "d-mod-k" needs a level on every switch/,
    );
    expect(() => genericTopology(variant({ routing: "ecmp", selection: "first" }))).toThrow(
      /"selection" applies to routing "shortest-path" only/,
    );
  });

  it("rejects unknown keys at every level, naming the field", () => {
    expect(() => genericTopology(variant({ switches: [] }))).toThrow(
      /genericTopology: spec: unknown key "switches" \(allowed: name, rateGbps/,
    );
    const nodes = [...spec.nodes];
    nodes[2] = {
      kind: "host",
      name: "a",
      ports: 1,
    } as unknown as GenericTopologySpec["nodes"][number];
    expect(() => genericTopology(variant({ nodes }))).toThrow(
      /nodes\[2\]: unknown key "ports" \(allowed: kind, name\)/,
    );
    expect(() => genericTopology(withLink(0, { a: "a", b: "left", speed: 3 }))).toThrow(
      /links\[0\]: unknown key "speed"/,
    );
    expect(() => genericTopology(withLink(0, { a: { node: "a", prot: 0 }, b: "left" }))).toThrow(
      /links\[0\]\.a: unknown key "prot" \(allowed: node, port\)/,
    );
    expect(() => genericTopology(withLink(0, { a: 5, b: "left" }))).toThrow(TypeError);
  });

  it("rejects unknown node names and bad nodes", () => {
    expect(() => genericTopology(withLink(0, { a: "zz", b: "left" }))).toThrow(
      /links\[0\]\.a: unknown node "zz"/,
    );
    expect(() => genericTopology(withLink(0, { a: "a", b: { node: "lft" } }))).toThrow(
      /links\[0\]\.b\.node: unknown node "lft"/,
    );
    const dup = [...spec.nodes, { kind: "host", name: "left" }];
    expect(() => genericTopology(variant({ nodes: dup }))).toThrow(
      /nodes\[5\]\.name: duplicate name "left" \(also nodes\[0\]\)/,
    );
    const router = [...spec.nodes, { kind: "router", name: "r" }];
    expect(() => genericTopology(variant({ nodes: router }))).toThrow(
      /nodes\[5\]\.kind must be "host" or "switch"/,
    );
    const lonely = [...spec.nodes, { kind: "host", name: "d" }];
    expect(() => genericTopology(variant({ nodes: lonely }))).toThrow(
      /nodes\[5\]: host "d" has no link/,
    );
    expect(() => genericTopology(variant({ nodes: "many" }))).toThrow(/"nodes" must be an array/);
    expect(() => genericTopology(variant({ nodes: spec.nodes.slice(0, 2), links: [] }))).toThrow(
      /at least one host/,
    );
  });

  it("rejects ports out of range and ports used twice", () => {
    expect(() =>
      genericTopology(withLink(2, { a: "left", b: { node: "right", port: 8 } })),
    ).toThrow(/links\[2\]\.b\.port: switch "right" has ports 0..7, got 8/);
    expect(() =>
      genericTopology(withLink(2, { a: "left", b: { node: "right", port: -1 } })),
    ).toThrow(/links\[2\]\.b\.port must be an integer/);
    expect(() => genericTopology(withLink(0, { a: "a", b: { node: "left", port: 0 } }))).toThrow(
      /links\[1\]\.b: port 0 of switch "left" is already used by links\[0\]/,
    );
    expect(() => genericTopology(withLink(0, { a: { node: "a", port: 1 }, b: "left" }))).toThrow(
      /links\[0\]\.a\.port: host "a" has only port 0, got 1/,
    );
    expect(() => genericTopology(withLink(3, { a: "b", b: "right" }))).toThrow(
      /links\[3\]\.a: host "b" is already linked by links\[1\] \(a host has one port\)/,
    );
    const full = variant({
      nodes: [
        ...spec.nodes.slice(0, 1),
        { kind: "switch", name: "right", ports: 1 },
        ...spec.nodes.slice(2),
      ],
      links: [
        ...spec.links.slice(0, 2),
        { a: "left", b: { node: "right", port: 0 } },
        spec.links[3],
      ],
    });
    expect(() => genericTopology(full)).toThrow(
      /links\[3\]\.b: switch "right" has no free port left \(ports: 1\)/,
    );
    expect(() => genericTopology(withLink(2, { a: "left", b: "left" }))).toThrow(
      /links\[2\]: both ends are node "left"/,
    );
  });

  it("rejects negative or zero rates and negative latencies", () => {
    expect(() => genericTopology(variant({ rateGbps: -1 }))).toThrow(
      /option "rateGbps" must be a finite rate > 0 Gb\/s, got -1/,
    );
    expect(() => genericTopology(withLink(2, { a: "left", b: "right", rateGbps: 0 }))).toThrow(
      /"links\[2\]\.rateGbps"/,
    );
    expect(() => genericTopology(withLink(2, { a: "left", b: "right", latencyNs: -5 }))).toThrow(
      /"links\[2\]\.latencyNs" must be a finite latency ≥ 0 ns/,
    );
  });

  it("refuses a graph that does not connect every host to every switch", () => {
    const island = variant({
      nodes: [...spec.nodes, { kind: "switch", name: "island" }, { kind: "host", name: "z" }],
      links: [...spec.links, { a: "z", b: "island" }],
    });
    expect(() => genericTopology(island)).toThrow(RoutingError);
    expect(() => genericTopology(island)).toThrow(
      /genericTopology: not every host can be reached from every switch/,
    );
  });
});

describe("fromFile", () => {
  it("reads a spec from JSON text", () => {
    const t = fromFile(JSON.stringify(spec));
    expect(t.fabric).toEqual(genericTopology(spec).fabric);
  });

  it("reports invalid JSON and non-text input", () => {
    expect(() => fromFile("{ nodes: [")).toThrow(SyntaxError);
    expect(() => fromFile("{ nodes: [")).toThrow(/fromFile: not valid JSON/);
    expect(() => fromFile(spec as unknown as string)).toThrow(
      /fromFile: expects the file's text as a string/,
    );
    expect(() => fromFile("[]")).toThrow(/genericTopology: spec must be an object, got an array/);
  });
});
