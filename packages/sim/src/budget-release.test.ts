import { serializationPs } from "@cclab/core-des";
import { Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import type { BudgetStream } from "@cclab/traffic";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { BudgetRelease } from "./budget-release.js";

const BYTES = 4096;

/**
 * A stream from host 1 to host 0 earning a message every `periodPs`, until `untilPs`, holding
 * at most `limit` messages in the host.
 */
function stream(periodPs: number, untilPs: number, limit: number): BudgetStream {
  return {
    srcHost: 1,
    group: "hot",
    messageBytes: BYTES,
    queueLimitMessages: limit,
    budgetPs: (k) => ((k + 1) * periodPs < untilPs ? (k + 1) * periodPs : Number.POSITIVE_INFINITY),
    destination: () => 0,
  };
}

interface Outcome {
  readonly releases: number[];
  readonly injected: number[];
  readonly maxWaiting: number;
}

function run(
  periodPs: number,
  untilPs: number,
  limit: number,
  receiveRateGbps: number | null,
): Outcome {
  const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), {
    host: { receiveRateGbps },
  });
  const releases: number[] = [];
  const injected: number[] = [];
  let waiting = 0;
  let maxWaiting = 0;
  net.onMessageInjected(() => {
    injected.push(net.nowPs);
    waiting--;
  });
  const release = new BudgetRelease(net, [stream(periodPs, untilPs, limit)], (s, dst, now) => {
    releases.push(now);
    waiting++;
    maxWaiting = Math.max(maxWaiting, waiting);
    return net.addMessage(s.srcHost, { dstHost: dst, bytes: s.messageBytes, startPs: now });
  });
  net.run(untilPs);
  if (receiveRateGbps === null) expect(release.exhausted).toBe(true);
  return { releases, injected, maxWaiting };
}

describe("BudgetRelease", () => {
  it("an unblocked stream releases each message when its budget earns it", () => {
    const period = serializationPs(BYTES, 5); // 5 Gb/s on a 10 Gb/s link
    const out = run(period, 100 * period + 1, 4, null);
    expect(out.releases).toEqual(Array.from({ length: 100 }, (_, k) => (k + 1) * period));
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 8 }),
      fc.constantFrom(0.5, 1, 2),
      fc.integer({ min: 100, max: 300 }),
    ],
    { numRuns: 20 },
  )(
    "a blocked stream never exceeds its budget and holds at most `limit` messages",
    (limit, receiveGbps, count) => {
      const period = serializationPs(BYTES, 8); // offers 8 Gb/s, the receiver takes less
      const until = count * period + 1;
      const out = run(period, until, limit, receiveGbps);
      // By any release, no more messages than the budget has earned.
      out.releases.forEach((t, k) => {
        expect(t).toBeGreaterThanOrEqual((k + 1) * period);
      });
      // Released but not started: never more than the limit.
      for (let i = 0; i < out.releases.length; i++) {
        const started = out.injected.filter((t) => t <= out.releases[i]!).length;
        expect(i + 1 - started).toBeLessThanOrEqual(limit);
      }
      // Blocked, it earns more than it can send: fewer releases than budget by the end.
      expect(out.releases.length).toBeLessThan(count);
    },
  );
});
