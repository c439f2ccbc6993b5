import { serializationPs, usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, shapeViolation, testContext } from "../test/context.js";
import { hotspot } from "./hotspot.js";
import { hotspotBackground } from "./hotspot-background.js";
import { meanBytes } from "./size.js";

describe("hotspot", () => {
  it("senders offer exactly their rate: one message per T from startNs, never more", () => {
    const ctx = testContext({ hostCount: 8, rateGbps: (h) => 10 * (h + 1), endPs: usToPs(100) });
    const params = hotspot.params.parse({ hotspot: 2, senders: [0, 5, 7], startNs: 1000 });
    const messages = drain(hotspot.create(params, ctx));
    expect(shapeViolation(messages, 8, 1_000_000, usToPs(100))).toBeUndefined();
    for (const src of [0, 5, 7]) {
      const mine = messages.filter((m) => m.srcHost === src);
      const periodPs = serializationPs(4096, 10 * (src + 1));
      // Message k at startNs + ceil(k·T): a greedy sender whose queue never runs dry.
      expect(mine.map((m) => m.startPs)).toEqual(
        mine.map((_, k) => 1_000_000 + serializationPs(k * 4096, 10 * (src + 1))),
      );
      expect(mine).toHaveLength(Math.ceil((usToPs(100) - 1_000_000) / periodPs));
      expect(mine.every((m) => m.dstHost === 2 && m.group === "hot" && m.bytes === 4096)).toBe(
        true,
      );
    }
  });

  it("queueLimitMessages: greedy senders released on demand, at their rate within the window, none after it", () => {
    const ctx = testContext({ hostCount: 8, endPs: usToPs(100) });
    const limited = hotspot.params.parse({
      hotspot: 2,
      senders: [0, 5],
      startNs: 1000,
      stopNs: 11_000,
      queueLimitMessages: 4,
    });
    expect(hotspot.budgetStreams!(hotspot.params.parse({ hotspot: 2 }), ctx)).toBeUndefined();
    const streams = hotspot.budgetStreams!(limited, ctx)!;
    expect(streams.map((s) => [s.srcHost, s.queueLimitMessages, s.group])).toEqual([
      [0, 4, "hot"],
      [5, 4, "hot"],
    ]);
    const s = streams[0]!;
    // Message k is earned at startNs + k·T (as the unlimited sender queues it), none after stopNs.
    const periodPs = serializationPs(4096, 100);
    expect([0, 1, 2].map((k) => s.budgetPs(k))).toEqual(
      [0, 1, 2].map((k) => 1_000_000 + serializationPs(k * 4096, 100)),
    );
    const last = Math.ceil(usToPs(10) / periodPs) - 1;
    expect(s.budgetPs(last)).toBeLessThan(usToPs(11));
    expect(s.budgetPs(last + 1)).toBe(Number.POSITIVE_INFINITY);
    // A message released at or after stopNs is dropped: the sender stops injecting then.
    expect(s.destination(3, usToPs(10))).toBe(2);
    expect(s.destination(3, usToPs(11))).toBeUndefined();
  });

  it("rateGbps overrides the link rate", () => {
    const ctx = testContext({ hostCount: 4, endPs: usToPs(10) });
    const params = hotspot.params.parse({ hotspot: 0, rateGbps: 8.192, messageBytes: 1024 });
    const messages = drain(hotspot.create(params, ctx));
    // 1024 B at 8.192 Gb/s: one message per µs, 10 per sender, from hosts 1..3.
    expect(messages).toHaveLength(30);
    expect(messages.slice(0, 3).map((m) => m.srcHost)).toEqual([1, 2, 3]);
    expect(messages[3]?.startPs).toBe(usToPs(1));
  });

  it("draws senderCount senders and the hot-spot from its seed", () => {
    const params = hotspot.params.parse({ senderCount: 40, stopNs: 1 });
    const pick = (seed: number) => {
      const messages = drain(hotspot.create(params, testContext({ hostCount: 256, seed })));
      return {
        senders: messages.map((m) => m.srcHost),
        hotspots: new Set(messages.map((m) => m.dstHost)),
      };
    };
    const a = pick(1);
    expect(a.senders).toHaveLength(40);
    expect(new Set(a.senders).size).toBe(40);
    expect(a.hotspots.size).toBe(1);
    expect(a.senders).not.toContain([...a.hotspots][0]);
    expect(pick(1)).toEqual(a);
    expect(pick(2)).not.toEqual(a);
  });

  it("picks a hot-spot outside the listed senders", () => {
    for (let seed = 0; seed < 20; seed++) {
      const params = hotspot.params.parse({ senders: [0, 1, 2], stopNs: 1 });
      const [m] = drain(hotspot.create(params, testContext({ hostCount: 4, seed })));
      expect(m?.dstHost).toBe(3);
    }
  });

  it("names every bad field", () => {
    const check = (raw: object, hostCount = 16) =>
      hotspot.check(hotspot.params.parse({ stopNs: 1, ...raw }), { hostCount });
    expect(check({ hotspot: 16 })).toEqual(["hotspot = 16 is not a host (0..15)"]);
    expect(check({ hotspot: 3, senders: [1, 3, 40] })).toEqual([
      "senders[2] = 40 is not a host (0..15)",
      "senders[1] = 3 is the hotspot",
    ]);
    expect(check({ senders: [1], senderCount: 1 })).toEqual([
      "give senders or senderCount, not both",
    ]);
    expect(check({ senderCount: 16 })).toEqual([
      "senderCount = 16 exceeds the 15 hosts besides the hotspot",
    ]);
    expect(check({ senders: [0, 1] }, 2)).toEqual([
      "senders include every host: none is left to be the hotspot",
    ]);
    expect(check({}, 1)).toEqual(["the fabric has 1 hosts; traffic needs at least 2"]);
  });
});

describe("hotspot-background", () => {
  it("runs uniform background on every host that is not a hot-spot sender", () => {
    const hostCount = 16;
    const endPs = usToPs(400);
    const ctx = testContext({ hostCount, rateGbps: 10, endPs });
    const params = hotspotBackground.params.parse({
      hotspot: 0,
      senders: [1, 2, 3, 4],
      loadFraction: 0.4,
      size: { kind: "fixed", bytes: 2048 },
    });
    const messages = drain(hotspotBackground.create(params, ctx));
    expect(shapeViolation(messages, hostCount, 0, endPs)).toBeUndefined();
    const hot = messages.filter((m) => m.group === "hot");
    const background = messages.filter((m) => m.group === "background");
    expect(hot.length + background.length).toBe(messages.length);
    expect(new Set(hot.map((m) => m.srcHost))).toEqual(new Set([1, 2, 3, 4]));
    expect(new Set(hot.map((m) => m.dstHost))).toEqual(new Set([0]));
    const backgroundSenders = new Set(background.map((m) => m.srcHost));
    expect([...backgroundSenders].sort((a, b) => a - b)).toEqual([
      0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ]);
    // 12 hosts of Poisson arrivals, fixed size: N ~ Poisson(n), within 5 standard deviations.
    const n = (12 * 0.4 * 10 * endPs) / (8000 * meanBytes(params.size));
    expect(Math.abs(background.length - n)).toBeLessThanOrEqual(5 * Math.sqrt(n));
    expect(hot).toHaveLength(4 * Math.ceil(endPs / serializationPs(4096, 10)));
  });

  it("uses the same hot-spot and senders as hotspot for the same seed", () => {
    const ctx = () => testContext({ hostCount: 64, seed: 9, endPs: usToPs(5) });
    const hot = drain(hotspot.create(hotspot.params.parse({ senderCount: 10 }), ctx()));
    const both = drain(
      hotspotBackground.create(
        hotspotBackground.params.parse({ senderCount: 10, loadFraction: 0.2 }),
        ctx(),
      ),
    );
    expect(both.filter((m) => m.group === "hot")).toEqual(hot);
  });
});
