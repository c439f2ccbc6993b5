import { serializationPs } from "@cclab/core-des";
import { Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { responseFunction } from "./response.js";
import { Source, type SourceRules } from "./source.js";

const rules = (windowPackets: number | null): SourceRules => ({
  response: responseFunction("fimd", { m: 2, minRate: 0.1, maxRate: 10 }),
  minRateGbps: 0.1,
  maxRateGbps: 10,
  windowPackets,
});

function setup(windowPackets: number | null) {
  const packets = new Packets(16);
  let now = 0;
  const source = new Source(rules(windowPackets), packets, () => now);
  const send = (atPs: number) => {
    now = atPs;
    const p = packets.create({ kind: "data", sizeBytes: 2048 });
    source.onSent(p);
    packets.free(p);
  };
  return { source, send };
}

describe("Source: rate control with a window limit (seed 002 L248–258)", () => {
  it("starts at R_max; a window of one closes after a packet and opens on its ACK", () => {
    const { source, send } = setup(1);
    expect(source.rateGbps).toBe(10);
    expect(source.windowOpen()).toBe(true);
    expect(source.nextSendPs(0)).toBe(0);
    send(0);
    expect(source.windowOpen()).toBe(false);
    source.acknowledged(false);
    expect(source.windowOpen()).toBe(true);
  });

  it("spaces packet starts by one packet time at the current rate", () => {
    const { source, send } = setup(null);
    send(1000);
    expect(source.nextSendPs(1000)).toBe(1000 + serializationPs(2048, 10));
    source.acknowledged(true); // 10 → 5 Gb/s
    expect(source.rateGbps).toBe(5);
    expect(source.nextSendPs(1000)).toBe(1000 + serializationPs(2048, 5));
    expect(source.windowOpen()).toBe(true);
  });

  it("keeps the rate within [R_min, R_max]", () => {
    const { source } = setup(null);
    for (let i = 0; i < 20; i++) source.acknowledged(true);
    expect(source.rateGbps).toBe(0.1);
    expect(source.decreases).toBe(20);
    for (let i = 0; i < 2000; i++) source.acknowledged(false);
    expect(source.rateGbps).toBe(10);
  });
});
