import { usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, shapeViolation, testContext } from "../test/context.js";
import { isFinitePattern } from "./pattern.js";
import { type MessageSize, meanBytes, meanSquareBytes } from "./size.js";
import type { TrafficMessage } from "./types.js";
import { uniform } from "./uniform.js";

const SIZES: MessageSize[] = [
  { kind: "fixed", bytes: 4096 },
  { kind: "bimodal", smallBytes: 256, largeBytes: 16_384, largeFraction: 0.2 },
  { kind: "uniform", minBytes: 64, maxBytes: 8192 },
  { kind: "cdf", distribution: "hadoop" },
  {
    kind: "cdf",
    points: [
      [64, 0.1],
      [1000, 0.5],
      [2000, 0.5],
      [16_384, 1],
    ],
  },
];

/** Hosts alternate between 25 and 100 Gb/s links: loads are fractions of each one's own. */
const rateOf = (h: number) => (h % 2 === 0 ? 25 : 100);

const bySender = (messages: readonly TrafficMessage[], hostCount: number) => {
  const bytes = new Array<number>(hostCount).fill(0);
  for (const m of messages) bytes[m.srcHost]! += m.bytes;
  return bytes;
};

describe("uniform", () => {
  it.each(SIZES)("offers loadFraction of each host's own link on average ($kind sizes)", (size) => {
    const hostCount = 16;
    const loadFraction = 0.4;
    const endPs = usToPs(300);
    const ctx = testContext({ hostCount, rateGbps: rateOf, endPs });
    const messages = drain(uniform.create(uniform.params.parse({ loadFraction, size }), ctx));
    expect(shapeViolation(messages, hostCount, 0, endPs)).toBeUndefined();
    bySender(messages, hostCount).forEach((bytes, h) => {
      // Poisson arrivals over T: N ~ Poisson(n) with n = load·rate·T/(8000·E[S]), and the
      // offered bytes, a compound Poisson sum, have mean n·E[S] and variance n·E[S²].
      // Each host is within 5 of those standard deviations.
      const n = (loadFraction * rateOf(h) * endPs) / (8000 * meanBytes(size));
      const sd = Math.sqrt(n * meanSquareBytes(size));
      expect(Math.abs(bytes - n * meanBytes(size))).toBeLessThanOrEqual(5 * sd);
    });
  });

  it("sends to every other host alike and never to itself", () => {
    const hostCount = 8;
    const ctx = testContext({ hostCount, endPs: usToPs(2000) });
    const messages = drain(uniform.create(uniform.params.parse({ loadFraction: 0.5 }), ctx));
    expect(shapeViolation(messages, hostCount)).toBeUndefined();
    const fromZero = messages.filter((m) => m.srcHost === 0);
    const counts = new Array<number>(hostCount).fill(0);
    for (const m of fromZero) counts[m.dstHost]!++;
    expect(counts[0]).toBe(0);
    // Each of the 7 others: binomial(N, 1/7), within 5 standard deviations.
    const n = fromZero.length;
    const p = 1 / (hostCount - 1);
    for (const c of counts.slice(1)) {
      expect(Math.abs(c - n * p)).toBeLessThanOrEqual(5 * Math.sqrt(n * p * (1 - p)));
    }
  });

  it("keeps to its window and senders, and ends at stopNs by itself", () => {
    const ctx = testContext({ hostCount: 8 });
    const params = uniform.params.parse({
      loadFraction: 1,
      senders: [1, 5],
      startNs: 10_000,
      stopNs: 30_000,
    });
    expect(isFinitePattern(uniform, params)).toBe(true);
    expect(isFinitePattern(uniform, { ...params, stopNs: undefined })).toBe(false);
    const messages = drain(uniform.create(params, ctx));
    expect(messages.length).toBeGreaterThan(0);
    expect(shapeViolation(messages, 8, 10_000_000, 30_000_000)).toBeUndefined();
    expect(new Set(messages.map((m) => m.srcHost))).toEqual(new Set([1, 5]));
    expect(messages.every((m) => m.group === undefined && m.sl === undefined)).toBe(true);
  });

  it("gives each host its own stream: a host's messages do not depend on the other senders", () => {
    const ctx = () => testContext({ hostCount: 32, endPs: usToPs(50) });
    const all = drain(uniform.create(uniform.params.parse({ loadFraction: 0.3 }), ctx()));
    const one = drain(
      uniform.create(uniform.params.parse({ loadFraction: 0.3, senders: [7] }), ctx()),
    );
    expect(one.length).toBeGreaterThan(0);
    expect(all.filter((m) => m.srcHost === 7)).toEqual(one);
  });

  it("is the same for the same seed and entry, different for another seed or entry", () => {
    const run = (seed: number, entry: string) =>
      drain(
        uniform.create(
          uniform.params.parse({ loadFraction: 0.5 }),
          testContext({ seed, entry, endPs: usToPs(20) }),
        ),
      );
    expect(run(5, "traffic/0")).toEqual(run(5, "traffic/0"));
    expect(run(5, "traffic/0")).not.toEqual(run(6, "traffic/0"));
    expect(run(5, "traffic/0")).not.toEqual(run(5, "traffic/1"));
  });

  it("refuses to run forever and names bad hosts", () => {
    const params = uniform.params.parse({ loadFraction: 0.5 });
    expect(() => uniform.create(params, testContext())).toThrow(/never ends by itself: set stopNs/);
    const bad = uniform.params.parse({ loadFraction: 0.5, senders: [0, 3, 3, 300], stopNs: 5 });
    expect(uniform.check(bad, { hostCount: 256 })).toEqual([
      "senders[2] = 3 repeats senders[1]",
      "senders[3] = 300 is not a host (0..255)",
    ]);
    expect(() => uniform.create(bad, testContext({ hostCount: 256 }))).toThrow(RangeError);
    expect(uniform.check({ ...params, startNs: 10, stopNs: 10 }, { hostCount: 4 })).toEqual([
      "stopNs = 10 must be after startNs = 10",
    ]);
    expect(uniform.params.safeParse({ loadFraction: 1.5 }).success).toBe(false);
    expect(uniform.params.safeParse({ loadFraction: 0.5, load: 1 }).success).toBe(false);
  });
});
