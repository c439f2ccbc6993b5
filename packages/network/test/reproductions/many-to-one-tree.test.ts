/**
 * Gran thesis (seed 001), Paper II L1119–1127: all other nodes of a 4-ary 3-tree send to one
 * destination; with D-mod-k routing every down link carries traffic to a single destination,
 * and round-robin over input ports gives each active input an equal share. The paper derives
 * (analytically) 1/4 of the destination's link for each first-level neighbour, 1/4/4/4 = 1/64
 * for each second-level one and 1/4/4/48 = 1/768 for each of the 48 third-level ones (the
 * farthest: 1/(k^(2n−1) − k^(2n−2))). The shares 3/4 + 12/64 + 48/768 sum to 1.
 */
import { msToPs } from "@cclab/core-des";
import { karyNTree } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Network } from "../../src/index.js";

describe("many-to-one in a 4-ary 3-tree, D-mod-k, round-robin, no CC", () => {
  const topology = karyNTree({ k: 4, n: 3 });
  const { fabric } = topology;
  const leafOf = (host: number) => {
    const cable = fabric.cables.find(
      (c) =>
        (c.a.kind === "host" && c.a.index === host) || (c.b.kind === "host" && c.b.index === host),
    )!;
    const sw = cable.a.kind === "switch" ? cable.a : cable.b;
    return sw.kind === "switch" ? sw.index : -1;
  };
  const dst = 0;
  const net = new Network(topology, { switch: { queueing: "voq-port" } });
  const delivered = new Float64Array(fabric.hosts.length);
  const warmupPs = msToPs(2);
  net.onDelivery((packet, nowPs) => {
    if (nowPs >= warmupPs) {
      delivered[net.packets.srcHost[packet]!]! += net.packets.payloadBytes[packet]!;
    }
  });
  for (let src = 1; src < fabric.hosts.length; src++) {
    net.addMessage(src, { dstHost: dst, bytes: 1e9, startPs: 0 });
  }
  net.run(msToPs(30));
  const total = delivered.reduce((a, b) => a + b, 0);
  const share = (host: number) => delivered[host]! / total;
  // Groups by nearest common ancestor: same leaf, same 16-node subtree, the rest.
  const first = [1, 2, 3];
  const second = Array.from({ length: 12 }, (_, i) => 4 + i);
  const third = Array.from({ length: 48 }, (_, i) => 16 + i);

  it("numbers hosts so that these groups are the destination's leaf and subtree", () => {
    for (const h of first) expect(leafOf(h)).toBe(leafOf(dst));
    for (const h of [...second, ...third]) expect(leafOf(h)).not.toBe(leafOf(dst));
    expect(fabric.hosts).toHaveLength(64);
  });

  it("keeps the destination link busy", () => {
    const gbps = (total * 8000) / (net.nowPs - warmupPs);
    expect(gbps).toBeGreaterThan(0.97 * 40 * (2048 / 2074));
  });

  it("gives first-level neighbours 1/4, second-level 1/64, third-level 1/768 (±10 %)", () => {
    for (const h of first) expect(share(h) * 4).toBeCloseTo(1, 1);
    for (const h of second) expect(Math.abs(share(h) * 64 - 1)).toBeLessThan(0.1);
    for (const h of third) expect(Math.abs(share(h) * 768 - 1)).toBeLessThan(0.1);
  });
});
