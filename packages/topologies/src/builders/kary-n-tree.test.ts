import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { wiringOf } from "../wiring.js";
import { karyNTree } from "./kary-n-tree.js";

describe("karyNTree", () => {
  it.each([
    [3, 64, 48],
    [4, 256, 256],
    [5, 1024, 1280],
  ])(
    "4-ary %i-tree has %i hosts and %i switches (001 Table 1, lines 2335–2340)",
    (n, hosts, switches) => {
      const { fabric, routing } = karyNTree({ k: 4, n });
      expect(fabric.name).toBe(`4-ary ${n}-tree`);
      expect(fabric.hosts).toHaveLength(hosts);
      expect(fabric.switches).toHaveLength(switches);
      expect(fabric.switches.every((s) => s.portCount === 8)).toBe(true);
      expect(fabric.cables).toHaveLength(hosts + (n - 1) * 4 ** (n - 1) * 4);
      expect(routing.name).toBe("d-mod-k");
      expect(checkRouting(fabric, routing).maxHops).toBe(2 * n - 1);
    },
  );

  it("cables adjacent levels whose labels differ only in digit l, top up ports left free", () => {
    const k = 3;
    const n = 3;
    const { fabric } = karyNTree({ k, n });
    const w = wiringOf(fabric);
    const perLevel = k ** (n - 1);
    const digits = (a: number) => [a % k, Math.floor(a / k) % k];
    for (let s = 0; s < fabric.switches.length; s++) {
      const l = Math.floor(s / perLevel);
      expect(fabric.switches[s]!.level).toBe(l);
      for (let u = 0; u < k; u++) {
        const peer = w.switchPorts[s]![k + u];
        if (l === n - 1) {
          expect(peer).toBeUndefined();
          continue;
        }
        expect(peer?.kind).toBe("switch");
        const parent = peer!.index - (l + 1) * perLevel;
        const [mine, theirs] = [digits(s - l * perLevel), digits(parent)];
        mine.forEach((x, i) => {
          if (i !== l) expect(theirs[i]).toBe(x);
        });
        expect(theirs[l]).toBe(u);
        expect(peer!.port).toBe(mine[l]);
      }
    }
    // Host h on leaf floor(h / k), port h mod k.
    expect(w.hostPeers[7]).toMatchObject({ index: 2, port: 1 });
  });

  it("uses Paper VI's link (40 Gb/s, 6 ns; 001 line 2333) and other routings on request", () => {
    const t = karyNTree({ k: 2, n: 2, routing: "nca-random", rateGbps: 10 });
    expect(t.fabric.cables[0]).toMatchObject({ rateGbps: 10, latencyNs: 6 });
    expect(t.routing.name).toBe("nca-random");
    expect(karyNTree({ k: 2, n: 2 }).fabric.cables[0]).toMatchObject({
      rateGbps: 40,
      latencyNs: 6,
    });
    const single = karyNTree({ k: 3, n: 1 });
    expect(single.fabric.switches).toHaveLength(1);
    checkRouting(single.fabric, single.routing);
  });

  it("checks its options", () => {
    expect(() => karyNTree({ k: 1, n: 3 })).toThrow(
      /karyNTree: option "k" must be an integer in 2..65536, got 1/,
    );
    expect(() => karyNTree({ k: 4, n: 0 })).toThrow(/option "n"/);
    // Within the host limit, but 524 288 switches × 65 536 hosts of tables: refused up front.
    expect(() => karyNTree({ k: 2, n: 16 })).toThrow(
      /karyNTree: forwarding tables would hold 524288 switches × 65536 hosts/,
    );
    expect(() => karyNTree({ k: 16, n: 5 })).toThrow(
      /k\^n = 1048576 hosts, above the limit of 65536/,
    );
    expect(() => karyNTree({ k: 2, n: 2, routing: "ospf" as "ecmp" })).toThrow(
      /option "routing" must be one of/,
    );
  });
});
