import { Scheduler, serializationPs } from "@cclab/core-des";
import { LinkSet, Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { Hca } from "./hca.js";
import { type HcaConfig, resolveHcaConfig } from "./hca-config.js";
import { registerHcaEvents } from "./hca-setup.js";
import { ReceiveRate, type ReceiveRateStep } from "./receive-rate.js";

const LINK_GBPS = 10;
const PACKET_BYTES = 2048 + 26;
const US = 1_000_000;

// Host 0 sends to host 1, back to back at 10 Gb/s, 100 ns, credits; host 1 receives with
// `receiver`'s settings. Returns the times host 1 consumed each packet.
function pair(receiver: Partial<HcaConfig>) {
  const scheduler = new Scheduler();
  const packets = new Packets();
  const links = new LinkSet(scheduler, packets, 1, "credit");
  const hosts: Hca[] = [];
  const kinds = registerHcaEvents(scheduler, hosts);
  let nextId = 0;
  for (const index of [0, 1]) {
    hosts.push(
      new Hca({
        index,
        name: `H${index}`,
        hostCount: 2,
        vlCount: 1,
        config: resolveHcaConfig(index === 1 ? receiver : {}),
        discipline: "credit",
        scheduler,
        packets,
        links,
        kinds,
        nextMessageId: () => nextId++,
      }),
    );
  }
  const [a, b] = hosts as [Hca, Hca];
  const ab = links.add(LINK_GBPS, 100_000);
  const ba = links.add(LINK_GBPS, 100_000);
  a.attach(ab, ba);
  b.attach(ba, ab);
  a.uplinkFlow.credits.fill(b.inputCreditBlocks());
  b.uplinkFlow.credits.fill(a.inputCreditBlocks());
  ab.connect(a, 0, b, 0, b.receiveTiming());
  ba.connect(b, 0, a, 0, a.receiveTiming());
  const consumedPs: number[] = [];
  b.onDelivery((_packet, nowPs) => consumedPs.push(nowPs));
  return { scheduler, a, b, consumedPs };
}

// Payload throughput of the packets consumed in [fromPs, toPs), Gb/s: from the first's
// consumption to the last's, so no partial packet blurs it.
function throughputGbps(consumedPs: readonly number[], fromPs: number, toPs: number): number {
  const inWindow = consumedPs.filter((t) => t >= fromPs && t < toPs);
  const spanPs = inWindow.at(-1)! - inWindow[0]!;
  return ((inWindow.length - 1) * 2048 * 8) / (spanPs / 1000);
}

describe("ReceiveRate", () => {
  it("gives the base rate until the first step, then each step's rate from its time on", () => {
    const steps: ReceiveRateStep[] = [
      { atPs: 100, rateGbps: 5 },
      { atPs: 200, rateGbps: null },
      { atPs: 300, rateGbps: 2 },
    ];
    const rate = new ReceiveRate(null, steps);
    const seen: (number | null)[] = [];
    for (const t of [0, 99, 100, 150, 200, 299, 300, 1e9]) {
      if (t >= rate.nextChangePs) rate.advance(t);
      seen.push(rate.rateGbps);
    }
    expect(seen).toEqual([null, null, 5, 5, null, null, 2, 2]);
    expect(rate.nextChangePs).toBe(Number.POSITIVE_INFINITY);
  });

  it("skips steps passed unseen, and never changes without steps", () => {
    const rate = new ReceiveRate(7, [
      { atPs: 10, rateGbps: 1 },
      { atPs: 20, rateGbps: 3 },
    ]);
    rate.advance(25);
    expect(rate.rateGbps).toBe(3);
    const fixed = new ReceiveRate(4, []);
    expect(fixed.nextChangePs).toBe(Number.POSITIVE_INFINITY);
    expect(fixed.rateGbps).toBe(4);
  });
});

describe("resolveHcaConfig's receiveRateSchedule", () => {
  const bad: [unknown, RegExp][] = [
    [{ atPs: 1 }, /must be a list of \{ atPs, rateGbps \} steps/],
    [[null], /receiveRateSchedule\[0\] must be \{ atPs, rateGbps \}/],
    [[{ atPs: -1, rateGbps: 1 }], /receiveRateSchedule\[0\]\.atPs must be a whole number of ps/],
    [[{ atPs: 1.5, rateGbps: 1 }], /receiveRateSchedule\[0\]\.atPs must be a whole number/],
    [
      [
        { atPs: 10, rateGbps: 1 },
        { atPs: 10, rateGbps: 2 },
      ],
      /receiveRateSchedule\[1\]\.atPs must be later than the step before \(10 ps\)/,
    ],
    [
      [
        { atPs: 10, rateGbps: 1 },
        { atPs: 5, rateGbps: 2 },
      ],
      /receiveRateSchedule\[1\]\.atPs must be later/,
    ],
    [
      [{ atPs: 0, rateGbps: 0 }],
      /receiveRateSchedule\[0\]\.rateGbps must be a rate > 0 Gb\/s or null/,
    ],
    [[{ atPs: 0, rateGbps: Number.NaN }], /rateGbps must be a rate > 0/],
  ];
  it.each(bad)("rejects %j, naming the step's field", (schedule, message) => {
    expect(() =>
      resolveHcaConfig({ receiveRateSchedule: schedule as readonly ReceiveRateStep[] }, "host H3"),
    ).toThrow(message);
  });

  it("takes steps in increasing time order, null rates included", () => {
    const receiveRateSchedule = [
      { atPs: 0, rateGbps: 1 },
      { atPs: 5, rateGbps: null },
    ];
    expect(resolveHcaConfig({ receiveRateSchedule }).receiveRateSchedule).toEqual(
      receiveRateSchedule,
    );
  });
});

describe("a host whose receive rate changes", () => {
  it("consumes at 4 Gb/s, then at 2 from the step on; the packet in service keeps its rate", () => {
    const stepPs = 100 * US;
    const { scheduler, a, consumedPs } = pair({
      receiveRateGbps: 4,
      receiveRateSchedule: [{ atPs: stepPs, rateGbps: 2 }],
    });
    a.addMessage({ dstHost: 1, bytes: 200 * 2048, startPs: 0 });
    scheduler.run({ untilPs: 250 * US });
    // Backlogged: each service starts as the one before ends, at the rate in force then.
    for (let i = 1; i < consumedPs.length; i++) {
      const startPs = consumedPs[i - 1]!;
      const rate = startPs >= stepPs ? 2 : 4;
      expect(consumedPs[i]! - startPs).toBe(serializationPs(PACKET_BYTES, rate));
    }
    const straddling = consumedPs.findIndex((t) => t >= stepPs);
    expect(consumedPs[straddling]! - consumedPs[straddling - 1]!).toBe(
      serializationPs(PACKET_BYTES, 4),
    );
    const payload = 2048 / PACKET_BYTES;
    expect(throughputGbps(consumedPs, 10 * US, stepPs)).toBeCloseTo(4 * payload, 6);
    expect(throughputGbps(consumedPs, stepPs + 10 * US, 250 * US)).toBeCloseTo(2 * payload, 6);
  });

  it("turned to null, consumes the queued packets at once when the one in service ends", () => {
    const stepPs = 50 * US;
    const { scheduler, a, b, consumedPs } = pair({
      receiveRateGbps: 1,
      receiveRateSchedule: [{ atPs: stepPs, rateGbps: null }],
    });
    a.addMessage({ dstHost: 1, bytes: 100 * 2048, startPs: 0 });
    scheduler.run();
    expect(b.messagesCompleted).toBe(1);
    const first = consumedPs.findIndex((t) => t >= stepPs);
    const endPs = consumedPs[first]!;
    // The packet in service at the step finishes at 1 Gb/s; the receive buffer's others follow.
    expect(endPs - consumedPs[first - 1]!).toBe(serializationPs(PACKET_BYTES, 1));
    const atOnce = consumedPs.filter((t) => t === endPs).length;
    expect(atOnce).toBeGreaterThan(5);
    // Then each is consumed as it arrives: the link's pace, once the freed credits bring more.
    const gaps = new Set(
      consumedPs.slice(first + atOnce + 1).map((t, i) => t - consumedPs[first + atOnce + i]!),
    );
    expect(gaps).toEqual(new Set([serializationPs(PACKET_BYTES, LINK_GBPS)]));
  });

  it("consumes at once until a step gives it a rate", () => {
    const stepPs = 20 * US;
    const { scheduler, a, consumedPs } = pair({
      receiveRateSchedule: [{ atPs: stepPs, rateGbps: 5 }],
    });
    a.addMessage({ dstHost: 1, bytes: 100 * 2048, startPs: 0 });
    scheduler.run();
    const gaps = consumedPs
      .slice(1)
      .map((t, i) => ({ at: consumedPs[i]!, gap: t - consumedPs[i]! }));
    const before = new Set(gaps.filter((g) => g.at + g.gap < stepPs).map((g) => g.gap));
    const after = new Set(gaps.filter((g) => g.at >= stepPs + 10 * US).map((g) => g.gap));
    expect(before).toEqual(new Set([serializationPs(PACKET_BYTES, LINK_GBPS)]));
    expect(after).toEqual(new Set([serializationPs(PACKET_BYTES, 5)]));
  });
});
