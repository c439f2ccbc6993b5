import { NO_PACKET, Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { EgressBuffer, type EgressBufferConfig, egressBufferProblem } from "./egress-buffer.js";

// A buffer of two VLs and a packet maker: packets of `sizeBytes` on `vl`.
function buffer(config: EgressBufferConfig, vlCount = 2) {
  const packets = new Packets();
  const egress = new EgressBuffer(vlCount, config, packets);
  const packet = (vl: number, sizeBytes: number) => {
    const p = packets.alloc();
    packets.vl[p] = vl;
    packets.sizeBytes[p] = sizeBytes;
    return p;
  };
  return { egress, packet };
}

describe("EgressBuffer", () => {
  it("goes XOFF once it holds more than xoffBytes, and XON at xonBytes or less (hysteresis)", () => {
    const { egress, packet } = buffer({ bytes: 5000, xoffBytes: 3000, xonBytes: 1000 });
    for (let k = 0; k < 3; k++) egress.push(packet(0, 1000), 10 * k);
    expect(egress.bytesOn(0)).toBe(3000);
    expect(egress.xoff[0]).toBe(0); // at xoffBytes, not above
    expect(egress.canAccept(0, 1000)).toBe(true);
    egress.push(packet(0, 1000), 30);
    expect(egress.xoff[0]).toBe(1);
    expect(egress.canAccept(0, 1)).toBe(false);
    expect(egress.xoffEvents[0]).toBe(1);
    // Below XOFF but above XON: still XOFF.
    egress.shift(0, 40);
    egress.shift(0, 50);
    expect(egress.bytesOn(0)).toBe(2000);
    expect(egress.xoff[0]).toBe(1);
    expect(egress.xoffPsUntil(0, 60)).toBe(30);
    egress.shift(0, 70);
    expect(egress.bytesOn(0)).toBe(1000);
    expect(egress.xoff[0]).toBe(0);
    expect(egress.xoffPsUntil(0, 1000)).toBe(40);
    expect(egress.canAccept(0, 1000)).toBe(true);
    // The other VL's FIFO is its own.
    expect(egress.bytesOn(1)).toBe(0);
    expect(egress.xoffEvents[1]).toBe(0);
  });

  it("keeps each VL's packets in order and tells which VLs hold some", () => {
    const { egress, packet } = buffer({ bytes: 10_000, xoffBytes: 8000, xonBytes: 4000 });
    const a = [packet(0, 100), packet(1, 200), packet(0, 300), packet(1, 400), packet(0, 500)];
    for (const p of a) egress.push(p, 0);
    expect(egress.packetCount).toBe(5);
    expect(egress.busyVls).toBe(2);
    expect(egress.packetsOn(0)).toBe(3);
    const vl0 = [egress.shift(0, 1), egress.shift(0, 2), egress.shift(0, 3)];
    expect(vl0).toEqual([a[0], a[2], a[4]]);
    expect(egress.busyVls).toBe(1);
    expect(egress.shift(0, 4)).toBe(NO_PACKET);
    expect(egress.head(1)).toBe(a[1]);
    expect([egress.shift(1, 5), egress.shift(1, 6)]).toEqual([a[1], a[3]]);
    expect(egress.packetCount).toBe(0);
    expect(egress.busyVls).toBe(0);
  });

  it("never holds more than bytes: no room refuses, and a push past it throws (a bug)", () => {
    const { egress, packet } = buffer({ bytes: 2500, xoffBytes: 2500, xonBytes: 0 });
    egress.push(packet(0, 1500), 0);
    expect(egress.xoff[0]).toBe(0); // 2500 is never exceeded: only the room holds it back
    expect(egress.canAccept(0, 1000)).toBe(true);
    expect(egress.canAccept(0, 1001)).toBe(false);
    expect(egress.roomBytes[0]).toBe(1000);
    expect(() => egress.push(packet(0, 1001), 0)).toThrow(/joined with 1000 B of room \(a bug\)/);
    egress.push(packet(1, 2000), 0);
    expect(egress.peakBytes[0]).toBe(1500);
    expect(egress.peakTotalBytes).toBe(3500);
  });

  it("counts the peak and every XOFF period, the open one up to the time asked", () => {
    const { egress, packet } = buffer({ bytes: 3000, xoffBytes: 1500, xonBytes: 500 }, 1);
    egress.push(packet(0, 1000), 0);
    egress.push(packet(0, 1000), 100); // XOFF at 100
    egress.shift(0, 200);
    egress.shift(0, 300); // XON at 300
    egress.push(packet(0, 1000), 400);
    egress.push(packet(0, 1000), 500); // XOFF at 500
    expect(egress.xoffEvents[0]).toBe(2);
    expect(egress.xoffPsUntil(0, 800)).toBe(200 + 300);
    expect(egress.peakBytes[0]).toBe(2000);
  });
});

describe("egressBufferProblem", () => {
  const packetBytes = 2074;
  const cases: [string, unknown, string][] = [
    ["a fraction", { bytes: 5000.5, xoffBytes: 4000, xonBytes: 0 }, "e.bytes must be a whole"],
    ["a negative xon", { bytes: 5000, xoffBytes: 4000, xonBytes: -1 }, "e.xonBytes must be"],
    ["a zero xoff", { bytes: 5000, xoffBytes: 0, xonBytes: 0 }, "e.xoffBytes must be"],
    ["no room for a packet", { bytes: 2000, xoffBytes: 1500, xonBytes: 0 }, "e.bytes (2000)"],
    ["xoff above bytes", { bytes: 5000, xoffBytes: 5001, xonBytes: 0 }, "≤ bytes (5000)"],
    ["xon at xoff", { bytes: 5000, xoffBytes: 4000, xonBytes: 4000 }, "< xoffBytes (4000)"],
    ["an unknown key", { bytes: 5000, xoffBytes: 4000, xonBytes: 0, x: 1 }, 'unknown key "x"'],
    ["not an object", 5000, "e must be { bytes, xoffBytes, xonBytes } or null"],
  ];
  it.each(cases)("rejects %s, naming the field", (_what, config, says) => {
    expect(egressBufferProblem(config as EgressBufferConfig, packetBytes, "e")).toContain(says);
  });

  it("accepts null and the slides' 150 KB with PAUSE at 140/130 KB (L311–314)", () => {
    expect(egressBufferProblem(null, packetBytes, "e")).toBeUndefined();
    const slides = { bytes: 150_000, xoffBytes: 140_000, xonBytes: 130_000 };
    expect(egressBufferProblem(slides, packetBytes, "e")).toBeUndefined();
  });
});
