import { describe, expect, it } from "vitest";
import type { PortRow } from "../data/types.js";
import { hostsOf, layoutTopology } from "./topology-layout.js";

const port = (name: string, peer: string): PortRow => ({
  device: name.split(".")[0]!,
  port: Number(name.split(".p")[1]),
  name,
  peer,
  vl: 0,
  bytesForwarded: 0,
  meanInputBytes: 0,
  maxInputBytes: 0,
  blockedUs: 0,
});

// A two-level tree with hosts not named H…: leaves L1, L2 under spine T, hosts a, b, c.
const ports = [
  port("L1.p0", "a"),
  port("L1.p1", "b"),
  port("L1.p2", "T.p0"),
  port("L2.p0", "c"),
  port("L2.p1", "T.p1"),
  port("T.p0", "L1.p2"),
  port("T.p1", "L2.p1"),
  port("a.p0", "L1.p0"),
  port("b.p0", "L1.p1"),
  port("c.p0", "L2.p0"),
];

describe("layoutTopology", () => {
  it("finds hosts by the bare peer names switch ports give them", () => {
    expect([...hostsOf(ports)].sort()).toEqual(["a", "b", "c"]);
  });

  it("puts hosts at the bottom, leaves above, the spine on top; one cable per pair of ports", () => {
    const layout = layoutTopology(ports, 600);
    const at = Object.fromEntries(layout.nodes.map((n) => [n.name, n]));
    expect(at.a!.kind).toBe("host");
    expect(at.T!.kind).toBe("switch");
    expect(at.a!.y).toBeGreaterThan(at.L1!.y);
    expect(at.L1!.y).toBeGreaterThan(at.T!.y);
    expect(at.L1!.x).toBeLessThan(at.L2!.x);
    expect(at.c!.x).toBeGreaterThan(at.b!.x); // c under L2, right of L1's hosts
    expect(layout.cables).toHaveLength(5);
    for (const n of layout.nodes) expect(n.x).toBeLessThanOrEqual(600);
  });
});
