import { serializationPs } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { creditBlocks, PortFlowState, pfcHeadroomBytes } from "./flow-control.js";

describe("credits", () => {
  it("counts 64-byte blocks, rounding up", () => {
    expect(creditBlocks(1)).toBe(1);
    expect(creditBlocks(64)).toBe(1);
    expect(creditBlocks(65)).toBe(2);
    expect(creditBlocks(2074)).toBe(33);
  });

  it("lets a packet start only with enough credits for all of it, and takes them", () => {
    const state = PortFlowState.create("credit", 2, 33);
    expect(state.canSend(0, 2074)).toBe(true);
    state.consume(0, 2074);
    expect(state.credits[0]).toBe(0);
    expect(state.canSend(0, 1)).toBe(false);
    expect(state.canSend(1, 2074)).toBe(true);
  });
});

describe("PFC state", () => {
  it("blocks a paused priority only", () => {
    const state = PortFlowState.create("pfc", 2, 0);
    state.paused[1] = 1;
    expect(state.canSend(0, 9000)).toBe(true);
    expect(state.canSend(1, 64)).toBe(false);
  });

  it("accumulates blocked time and counts ON→OFF transitions once per period", () => {
    const state = PortFlowState.create("pfc", 1, 0);
    state.markBlocked(0, 100);
    state.markBlocked(0, 150);
    state.markUnblocked(0, 400);
    state.markUnblocked(0, 500);
    expect(state.blockedPs[0]).toBe(300);
    expect(state.offTransitions[0]).toBe(1);
    state.markBlocked(0, 1000);
    expect(state.blockedPsUntil(0, 1250)).toBe(550);
    expect(state.blockedPs[0]).toBe(300);
  });

  it("sizes headroom as the textbook 2 × latency × rate + MTU + 64 plus the routing delay", () => {
    const plain = pfcHeadroomBytes({
      rateGbps: 100,
      latencyNs: 1000,
      maxPacketBytes: 1500,
      processingNs: 0,
      cutThroughBytes: 0,
    });
    // 2 µs at 100 Gb/s = 25 000 B; + 64 B pause frame + 1500 B packet.
    expect(plain).toBe(25_000 + 64 + 1500);
    const withRouting = pfcHeadroomBytes({
      rateGbps: 100,
      latencyNs: 1000,
      maxPacketBytes: 1500,
      processingNs: 100,
      cutThroughBytes: 64,
    });
    expect(withRouting).toBe(plain + 1250 + Math.ceil((serializationPs(64, 100) * 100) / 8000));
  });
});
