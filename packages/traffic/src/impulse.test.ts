import { usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, shapeViolation, testContext } from "../test/context.js";
import { impulse } from "./impulse.js";

describe("impulse", () => {
  it("starts every sender's messages to one host at atNs (SRP Fig. 14, seed 000 L241)", () => {
    const params = impulse.params.parse({ atNs: 1_000_000, messages: 2, messageBytes: 2048 });
    expect(impulse.finite).toBe(true);
    const messages = drain(impulse.create(params, testContext({ hostCount: 256 })));
    expect(shapeViolation(messages, 256)).toBeUndefined();
    expect(messages).toHaveLength(255 * 2);
    const dst = messages[0]!.dstHost;
    expect(messages.every((m) => m.dstHost === dst && m.startPs === usToPs(1000))).toBe(true);
    expect(messages.every((m) => m.group === "impulse" && m.bytes === 2048)).toBe(true);
    // Sender by sender, in host order.
    const srcs = messages.map((m) => m.srcHost);
    expect(srcs).toEqual([...srcs].sort((a, b) => a - b));
    expect(new Set(srcs).size).toBe(255);
  });

  it("takes listed senders and destination, and nothing at or after the run's end", () => {
    const params = impulse.params.parse({ atNs: 50, senders: [4, 1], dstHost: 0 });
    const messages = drain(impulse.create(params, testContext({ hostCount: 8 })));
    expect(messages.map((m) => [m.srcHost, m.dstHost])).toEqual([
      [1, 0],
      [4, 0],
    ]);
    expect(drain(impulse.create(params, testContext({ hostCount: 8, endPs: 50_000 })))).toEqual([]);
  });

  it("names bad fields", () => {
    const params = impulse.params.parse({ atNs: 0, senders: [1, 1, 8], dstHost: 1 });
    expect(impulse.check(params, { hostCount: 8 })).toEqual([
      "senders[1] = 1 repeats senders[0]",
      "senders[2] = 8 is not a host (0..7)",
      "senders[0] = 1 is the dstHost",
      "senders[1] = 1 is the dstHost",
    ]);
    expect(impulse.params.safeParse({}).success).toBe(false);
  });
});
