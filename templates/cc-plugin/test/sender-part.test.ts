import { usToPs } from "@cclab/core-des";
import { testHostContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { createSenderPart, ECHO_KIND, params, SCHEME } from "../src/index.js";

describe("sender part", () => {
  it("cuts a flow's rate on an echo and raises it a step per period", () => {
    let asked = 0;
    const host = testHostContext({ gatesChanged: () => asked++ });
    const p = params.parse({ increaseStepGbps: 10, increasePeriodUs: 5 });
    const part = createSenderPart(p, host);
    const gate = part.openFlow({ flowId: 7, srcHost: 0, dstHost: 3, sl: 0 });
    const { packets, scheduler } = host;

    // At line rate (100 Gb/s) a 2000-byte packet takes 160 ns: the next may start then.
    gate.onSent?.(packets.create({ sizeBytes: 2000, flowId: 7 }));
    expect(gate.nextSendPs(0)).toBe(160_000);

    // Two echoes at once: one cut (at most one per period), the gap doubles.
    for (let i = 0; i < 2; i++) {
      part.onControl?.(packets.create({ kind: ECHO_KIND, sizeBytes: 64, flowId: 7 }));
    }
    expect(gate.nextSendPs(0)).toBe(320_000);

    // Each period adds 10 Gb/s and tells the host to ask its gates again, until line rate.
    scheduler.runUntil(usToPs(5));
    expect(asked).toBe(1);
    scheduler.runUntilEmpty();
    expect(part.counters?.()).toEqual({
      [`${SCHEME}.echoesReceived`]: 2,
      [`${SCHEME}.rateCuts`]: 1,
      [`${SCHEME}.rateIncreases`]: 5,
    });
    expect(gate.nextSendPs(0)).toBe(160_000);
  });
});
