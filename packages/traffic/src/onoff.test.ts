import { usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, offeredGbps, shapeViolation, testContext } from "../test/context.js";
import { onOff } from "./onoff.js";

describe("on-off", () => {
  it("with fixed, synchronized periods sends at the rate during on periods only", () => {
    const endPs = usToPs(100);
    const params = onOff.params.parse({
      onUs: 2,
      offUs: 3,
      durations: "fixed",
      synchronized: true,
      rateGbps: 8.192,
      messageBytes: 256, // one message per 250 ns at 8.192 Gb/s
      startNs: 1000,
    });
    const messages = drain(onOff.create(params, testContext({ hostCount: 4, endPs })));
    expect(shapeViolation(messages, 4, usToPs(1), endPs)).toBeUndefined();
    for (const m of messages) {
      const intoCyclePs = (m.startPs - usToPs(1)) % usToPs(5);
      expect(intoCyclePs).toBeLessThan(usToPs(2));
      expect(intoCyclePs % 250_000).toBe(0);
    }
    // 99 µs from startNs: 19 full cycles + 4 µs (2 on) → 40 µs on, 4 messages per µs.
    for (let h = 0; h < 4; h++) {
      expect(messages.filter((m) => m.srcHost === h)).toHaveLength(160);
    }
  });

  it("offers rate × on/(on + off) on average with exponential periods", () => {
    const hostCount = 16;
    const onUs = 4;
    const offUs = 12;
    const endPs = usToPs(20_000);
    const rateGbps = 40;
    const messageBytes = 16_384;
    const ctx = testContext({ hostCount, rateGbps, endPs });
    const params = onOff.params.parse({ onUs, offUs, messageBytes });
    const messages = drain(onOff.create(params, ctx));
    expect(shapeViolation(messages, hostCount, 0, endPs)).toBeUndefined();
    // Each sender starts in its stationary state, so its on fraction over T has mean
    // f = on/(on + off) and, by the delta method over n = T/(on + off) cycles of
    // exponential periods, standard deviation √2·on·off/((on + off)²·√n); over 16
    // independent senders, that divided by 4. Allow 5 of those, plus one message per sender
    // for the last message of the run.
    const f = onUs / (onUs + offUs);
    const n = 20_000 / (onUs + offUs);
    const sd =
      (Math.SQRT2 * onUs * offUs) / ((onUs + offUs) ** 2 * Math.sqrt(n) * Math.sqrt(hostCount));
    const perSender = offeredGbps(messages, endPs) / hostCount;
    const slack = (messageBytes * 8000) / endPs;
    expect(Math.abs(perSender - rateGbps * f)).toBeLessThanOrEqual(rateGbps * 5 * sd + slack);
  });

  it("sends each burst to one random destination, or all to dstHost", () => {
    const endPs = usToPs(200);
    const params = onOff.params.parse({
      onUs: 1,
      offUs: 4,
      durations: "fixed",
      synchronized: true,
      messageBytes: 1250, // 100 ns at 100 Gb/s: 10 messages per burst
    });
    const messages = drain(onOff.create(params, testContext({ hostCount: 8, endPs })));
    const bursts = new Map<string, Set<number>>();
    for (const m of messages) {
      const key = `${m.srcHost}/${Math.floor(m.startPs / usToPs(5))}`;
      bursts.set(key, (bursts.get(key) ?? new Set()).add(m.dstHost));
    }
    expect(bursts.size).toBe(8 * 40);
    expect([...bursts.values()].every((dsts) => dsts.size === 1)).toBe(true);
    expect(new Set([...bursts.values()].map((d) => [...d][0])).size).toBe(8);

    const toOne = drain(
      onOff.create(
        onOff.params.parse({ onUs: 1, offUs: 1, dstHost: 3, stopNs: 10_000 }),
        testContext({ hostCount: 8 }),
      ),
    );
    expect(new Set(toOne.map((m) => m.dstHost))).toEqual(new Set([3]));
    expect(new Set(toOne.map((m) => m.srcHost))).toEqual(new Set([0, 1, 2, 4, 5, 6, 7]));
  });

  it("unsynchronized senders start at different points of their cycles", () => {
    const params = onOff.params.parse({ onUs: 1, offUs: 9, durations: "fixed", stopNs: 10_000 });
    const messages = drain(onOff.create(params, testContext({ hostCount: 16 })));
    const first = new Set(
      Array.from({ length: 16 }, (_, h) => messages.find((m) => m.srcHost === h)?.startPs),
    );
    expect(first.size).toBeGreaterThan(8);
  });

  it("names bad fields", () => {
    const params = onOff.params.parse({ onUs: 1, offUs: 1, dstHost: 2, senders: [2, 9] });
    expect(onOff.check(params, { hostCount: 8 })).toEqual([
      "senders[1] = 9 is not a host (0..7)",
      "senders[0] = 2 is the dstHost",
    ]);
    expect(onOff.params.safeParse({ onUs: 1 }).success).toBe(false);
    expect(onOff.params.safeParse({ onUs: 1, offUs: 1, durations: "pareto" }).success).toBe(false);
  });
});
