import { usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, shapeViolation, testContext } from "../test/context.js";
import {
  type CongestionTreesParams,
  congestionTreesLayout,
  movingTrees,
  silentTrees,
  windyTrees,
} from "./congestion-trees.js";
import type { TrafficMessage } from "./types.js";

const count = <T>(items: readonly T[], item: T) => items.filter((x) => x === item).length;

/** Groups messages by sender and group: each such stream has its own budget. */
function streams(messages: readonly TrafficMessage[]): Map<string, TrafficMessage[]> {
  const out = new Map<string, TrafficMessage[]>();
  for (const m of messages) {
    const key = `${m.srcHost}/${m.group}`;
    const stream = out.get(key);
    if (stream === undefined) out.set(key, [m]);
    else stream.push(m);
  }
  return out;
}

/** What a hot message from `host` should go to at `startPs` (see the file's header). */
function expectedHotspot(
  layout: ReturnType<typeof congestionTreesLayout>,
  host: number,
  fromPs: number,
  startPs: number,
): number | undefined {
  const epoch = Number.isFinite(layout.lifetimePs)
    ? Math.floor((startPs - fromPs) / layout.lifetimePs)
    : 0;
  const hotspots = layout.hotspotsAt(epoch);
  const subset = layout.subsets[host]!;
  if (hotspots[subset] !== host) return hotspots[subset];
  return hotspots.length > 1 ? hotspots[(subset + 1) % hotspots.length] : undefined;
}

const full = (p: Partial<CongestionTreesParams>): CongestionTreesParams => ({
  hotspots: 8,
  contributorFraction: 0.8,
  windyFraction: 0,
  hotFraction: 1,
  messageBytes: 4096,
  startNs: 0,
  ...p,
});

describe("congestion trees: who does what", () => {
  it("splits Paper IV's 648 nodes 80 % C / 20 % V, or x % B and the rest 80/20 (L1762, L1770)", () => {
    const rng = testContext().rng;
    const silent = congestionTreesLayout(full({}), 648, rng);
    expect(count(silent.roles, "contributor")).toBe(518);
    expect(count(silent.roles, "victim")).toBe(130);
    const windy = congestionTreesLayout(full({ windyFraction: 0.25, hotFraction: 0.6 }), 648, rng);
    expect(count(windy.roles, "windy")).toBe(162);
    expect(count(windy.roles, "contributor")).toBe(389);
    expect(count(windy.roles, "victim")).toBe(97);
    // Contributors are evenly divided into one subset per hotspot (L1766, L1770).
    const sizes = Array.from({ length: 8 }, (_, i) => count(windy.subsets, i));
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(count(windy.subsets, -1)).toBe(97);
    const hotspots = windy.hotspotsAt(0);
    expect(new Set(hotspots).size).toBe(8);
    expect(hotspots.every((h) => h >= 0 && h < 648)).toBe(true);
    expect(windy.hotspotsAt(0)).toEqual(hotspots);
  });

  it("is a function of the seed and entry only", () => {
    const layout = (seed: number) => congestionTreesLayout(full({}), 64, testContext({ seed }).rng);
    expect(layout(1).roles).toEqual(layout(1).roles);
    expect(layout(1).hotspotsAt(3)).toEqual(layout(1).hotspotsAt(3));
    expect(layout(1).roles).not.toEqual(layout(2).roles);
  });
});

describe("congestion trees: traffic", () => {
  it("keeps every node's hot and cold streams within their own time budgets (L1724)", () => {
    const hostCount = 32;
    const fromPs = usToPs(1);
    const endPs = usToPs(201);
    const injectionGbps = 13.5;
    const ctx = testContext({ hostCount, rateGbps: 20, endPs });
    const params = windyTrees.params.parse({
      hotspots: 4,
      windyFraction: 0.5,
      hotFraction: 0.6,
      injectionGbps,
      startNs: 1000,
    });
    const messages = drain(windyTrees.create(params, ctx));
    expect(shapeViolation(messages, hostCount, fromPs, endPs)).toBeUndefined();
    const layout = congestionTreesLayout(params, hostCount, ctx.rng);
    for (const [key, stream] of streams(messages)) {
      const [host, group] = [Number(key.split("/")[0]), key.split("/")[1]];
      const role = layout.roles[host]!;
      const share = group === "hot" ? (role === "windy" ? 0.6 : 1) : role === "windy" ? 0.4 : 1;
      const rateBytesPerPs = (share * injectionGbps) / 8000;
      // Never ahead of the budget (up to the 1e-9 relative binary noise serializationPs
      // absorbs), and released as soon as the budget has earned it.
      const early = stream.filter(
        (m, j) => (j + 1) * 4096 > rateBytesPerPs * (m.startPs - fromPs) * (1 + 1e-9),
      );
      const late = stream.filter(
        (m, j) => (j + 1) * 4096 <= rateBytesPerPs * (m.startPs - 1 - fromPs) - 1e-6,
      );
      expect({ key, early, late }).toEqual({ key, early: [], late: [] });
      // And the stream ran until the run's end: the next message would fall at or past it.
      expect((stream.length + 1) * 4096).toBeGreaterThan(rateBytesPerPs * (endPs - 1 - fromPs));
    }
    // Who sends what where.
    const misplaced = messages.filter((m) => {
      const role = layout.roles[m.srcHost]!;
      return m.group === "hot"
        ? role === "victim" || m.dstHost !== expectedHotspot(layout, m.srcHost, fromPs, m.startPs)
        : m.group !== (role === "victim" ? "victim" : "cold") || role === "contributor";
    });
    expect(misplaced).toEqual([]);
    // Uniform traffic reaches hotspots and non-hotspots alike (L1710).
    const uniformDsts = new Set(messages.filter((m) => m.group !== "hot").map((m) => m.dstHost));
    expect(uniformDsts.size).toBe(hostCount);
  });

  it("offers on demand (budget streams) the messages the open-loop source offers", () => {
    const hostCount = 24;
    const endPs = usToPs(80);
    const input = { hotspots: 3, windyFraction: 0.5, hotFraction: 0.6, lifetimeUs: 20 };
    const key = (m: { srcHost: number; dstHost: number; startPs: number; group?: string }) =>
      `${m.startPs} ${m.srcHost}>${m.dstHost} ${m.group}`;
    const open = drain(
      movingTrees.create(
        movingTrees.params.parse({ ...input, queueLimitMessages: null }),
        testContext({ hostCount, endPs }),
      ),
    );
    const params = movingTrees.params.parse(input);
    expect(params.queueLimitMessages).toBe(8);
    expect(
      movingTrees.budgetStreams!(
        movingTrees.params.parse({ ...input, queueLimitMessages: null }),
        testContext({ hostCount, endPs }),
      ),
    ).toBeUndefined();
    const streams = movingTrees.budgetStreams!(params, testContext({ hostCount, endPs }))!;
    expect(streams.every((s) => s.queueLimitMessages === 8)).toBe(true);
    // Take every message the moment its budget earns it, as an unblocked host would.
    const onDemand: string[] = [];
    for (const stream of streams) {
      for (let k = 0; stream.budgetPs(k) !== Number.POSITIVE_INFINITY; k++) {
        const at = stream.budgetPs(k);
        const dstHost = stream.destination(k, at);
        if (dstHost === undefined) continue;
        onDemand.push(key({ srcHost: stream.srcHost, dstHost, startPs: at, group: stream.group }));
      }
    }
    expect(open.length).toBeGreaterThan(100);
    expect(onDemand.sort()).toEqual(open.map(key).sort());
  });

  it("moves every hotspot each lifetime, with its subset following it (L1722)", () => {
    const hostCount = 24;
    const ctx = testContext({ hostCount, endPs: usToPs(100) });
    const params = movingTrees.params.parse({ hotspots: 3, lifetimeUs: 10 });
    const messages = drain(movingTrees.create(params, ctx));
    const layout = congestionTreesLayout(params, hostCount, ctx.rng);
    expect(layout.lifetimePs).toBe(usToPs(10));
    const hot = messages.filter((m) => m.group === "hot");
    expect(
      hot.filter((m) => m.dstHost !== expectedHotspot(layout, m.srcHost, 0, m.startPs)),
    ).toEqual([]);
    const perEpoch = Array.from({ length: 10 }, (_, e) =>
      [
        ...new Set(
          hot.filter((m) => Math.floor(m.startPs / usToPs(10)) === e).map((m) => m.dstHost),
        ),
      ].sort(),
    );
    expect(new Set(perEpoch.map((s) => s.join())).size).toBeGreaterThan(5);
    expect(perEpoch.every((s) => s.length <= 3 + 1)).toBe(true);
  });

  it("never sends a node's hot traffic to itself", () => {
    // Every node is a contributor and 8 of 10 nodes are hotspots: over a few seeds, some
    // nodes are their own subset's hotspot.
    let own = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const ctx = testContext({ hostCount: 10, seed, endPs: usToPs(20) });
      const params = silentTrees.params.parse({ contributorFraction: 1 });
      const messages = drain(silentTrees.create(params, ctx));
      expect(shapeViolation(messages, 10)).toBeUndefined();
      const layout = congestionTreesLayout(full({ contributorFraction: 1 }), 10, ctx.rng);
      for (const [i, h] of layout.hotspotsAt(0).entries()) {
        if (layout.subsets[h] !== i) continue;
        own++;
        const sent = messages.filter((m) => m.srcHost === h);
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.every((m) => m.dstHost === layout.hotspotsAt(0)[(i + 1) % 8])).toBe(true);
      }
    }
    expect(own).toBeGreaterThan(0);
    const ctx = testContext({ hostCount: 10, endPs: usToPs(20) });
    // With a single hotspot, the hotspot itself sends no hot traffic.
    const single = drain(
      silentTrees.create(silentTrees.params.parse({ hotspots: 1, contributorFraction: 1 }), ctx),
    );
    const dst = new Set(single.map((m) => m.dstHost));
    expect(dst.size).toBe(1);
    expect(single.some((m) => dst.has(m.srcHost))).toBe(false);
    expect(new Set(single.map((m) => m.srcHost)).size).toBe(9);
  });

  it("offers Paper IV's 13.5 Gb/s per node on a 648-node fabric (L1762)", () => {
    const endPs = usToPs(20);
    const ctx = testContext({ hostCount: 648, rateGbps: 20, endPs });
    const params = silentTrees.params.parse({ injectionGbps: 13.5 });
    const messages = drain(silentTrees.create(params, ctx));
    // Each node's one stream offers floor(13.5 Gb/s × 20 µs / 4 KiB) = 8 messages.
    expect(messages).toHaveLength(648 * 8);
    expect(
      count(
        messages.map((m) => m.group),
        "hot",
      ),
    ).toBe(518 * 8);
    expect(new Set(messages.filter((m) => m.group === "hot").map((m) => m.dstHost)).size).toBe(8);
  });

  it("without hot traffic, only the V nodes send: Paper IV's no-hotspot baseline (L1743–1747)", () => {
    const ctx = testContext({ hostCount: 648, rateGbps: 20, endPs: usToPs(20) });
    const params = silentTrees.params.parse({ injectionGbps: 13.5, hotTraffic: false });
    const messages = drain(silentTrees.create(params, ctx));
    expect(messages).toHaveLength(130 * 8);
    expect(messages.every((m) => m.group === "victim")).toBe(true);
    expect(new Set(messages.map((m) => m.dstHost)).size).toBeGreaterThan(400);
  });

  it("has the parameters of its kind of forest, and names bad ones", () => {
    expect(silentTrees.params.safeParse({ windyFraction: 0.5 }).success).toBe(false);
    expect(windyTrees.params.safeParse({ lifetimeUs: 5 }).success).toBe(false);
    expect(movingTrees.params.parse({})).toMatchObject({
      hotspots: 8,
      lifetimeUs: 1000,
      windyFraction: 0,
      contributorFraction: 0.8,
      messageBytes: 4096,
    });
    expect(silentTrees.check(silentTrees.params.parse({ hotspots: 9 }), { hostCount: 8 })).toEqual([
      "hotspots = 9 exceeds the 8 hosts",
    ]);
    expect(() => windyTrees.create(windyTrees.params.parse({}), testContext())).toThrow(
      /never ends by itself/,
    );
  });
});
