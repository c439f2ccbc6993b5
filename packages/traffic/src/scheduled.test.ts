import { serializationPs, usToPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { drain, shapeViolation, testContext } from "../test/context.js";
import { isFinitePattern } from "./pattern.js";
import { scheduled } from "./scheduled.js";

describe("scheduled", () => {
  it("adds one greedy flow at a time, as in the parking lot (Paper II, L1037–1101)", () => {
    // H1→H4 steady, then H2, H3, H6, H7 → H5 one after another (µs instead of seconds).
    const h = { H1: 0, H2: 1, H3: 2, H4: 3, H5: 4, H6: 5, H7: 6 };
    const params = scheduled.params.parse({
      flows: [
        { src: h.H1, dst: h.H4 },
        { src: h.H2, dst: h.H5, startNs: 10_000 },
        { src: h.H3, dst: h.H5, startNs: 20_000 },
        { src: h.H6, dst: h.H5, startNs: 30_000 },
        { src: h.H7, dst: h.H5, startNs: 40_000 },
      ],
    });
    expect(isFinitePattern(scheduled, params)).toBe(false);
    const endPs = usToPs(50);
    const messages = drain(
      scheduled.create(params, testContext({ hostCount: 7, rateGbps: 16, endPs })),
    );
    expect(shapeViolation(messages, 7, 0, endPs)).toBeUndefined();
    const periodPs = serializationPs(65_536, 16); // 64 KiB messages at the 16 Gb/s link rate
    params.flows.forEach((f) => {
      const mine = messages.filter((m) => m.srcHost === f.src);
      const fromPs = f.startNs * 1000;
      expect(mine[0]?.startPs).toBe(fromPs);
      expect(mine).toHaveLength(Math.ceil((endPs - fromPs) / periodPs));
      expect(mine.every((m) => m.dstHost === f.dst && m.bytes === 65_536)).toBe(true);
    });
  });

  it("ends a flow at stopNs or after totalBytes, the last message carrying the remainder", () => {
    const params = scheduled.params.parse({
      flows: [
        { src: 0, dst: 1, stopNs: 10_000, rateGbps: 8.192, messageBytes: 1024, sl: 2, group: "a" },
        { src: 1, dst: 0, totalBytes: 10_000, messageBytes: 4096 },
      ],
    });
    expect(isFinitePattern(scheduled, params)).toBe(true);
    const messages = drain(scheduled.create(params, testContext({ hostCount: 2 })));
    const a = messages.filter((m) => m.srcHost === 0);
    expect(a).toHaveLength(10); // one 1 KiB message per µs for 10 µs
    expect(a.every((m) => m.sl === 2 && m.group === "a")).toBe(true);
    const b = messages.filter((m) => m.srcHost === 1);
    expect(b.map((m) => m.bytes)).toEqual([4096, 4096, 1808]);
    expect(b.every((m) => m.sl === undefined && m.group === undefined)).toBe(true);
  });

  it("stops at the run's end even without a stop", () => {
    const params = scheduled.params.parse({ flows: [{ src: 0, dst: 1 }] });
    const messages = drain(scheduled.create(params, testContext({ endPs: usToPs(1) })));
    expect(messages).toHaveLength(Math.ceil(usToPs(1) / serializationPs(65_536, 100)));
    expect(() => scheduled.create(params, testContext())).toThrow(
      /never ends by itself: give every flow a stopNs or a totalBytes/,
    );
  });

  it("names every bad flow field", () => {
    const params = scheduled.params.parse({
      flows: [
        { src: 0, dst: 1 },
        { src: 2, dst: 2 },
        { src: 300, dst: 1, startNs: 5, stopNs: 5 },
      ],
    });
    expect(scheduled.check(params, { hostCount: 256 })).toEqual([
      "flows[1]: src and dst are both host 2",
      "flows[2].src = 300 is not a host (0..255)",
      "flows[2].stopNs = 5 must be after startNs = 5",
    ]);
    const withSl = scheduled.params.parse({
      flows: [
        { src: 0, dst: 1, sl: 1 },
        { src: 1, dst: 0, sl: 2 },
      ],
    });
    expect(scheduled.check(withSl, { hostCount: 4, slCount: 2 })).toEqual([
      "flows[1].sl = 2 is not a service level of this fabric (0..1; switch.vlCount sets how many)",
    ]);
    expect(scheduled.check(withSl, { hostCount: 4 })).toEqual([]);
    expect(scheduled.params.safeParse({ flows: [] }).success).toBe(false);
    expect(scheduled.params.safeParse({ flows: [{ src: 0, dst: 1, size: 1 }] }).success).toBe(
      false,
    );
  });
});
