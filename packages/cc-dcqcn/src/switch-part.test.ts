import { createRng } from "@cclab/core-des";
import {
  Ecn,
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  type PacketId,
  Packets,
  type SwitchPartContext,
} from "@cclab/fabric";
import { idlePort, testSwitchContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { markingProbability, params } from "./params.js";
import { createSwitchPart, switchPartFactory } from "./switch-part.js";

function harness(input: Record<string, unknown>, seed = 1) {
  const p = params.parse(input);
  const packets = new Packets();
  const context: SwitchPartContext = testSwitchContext({
    packets,
    controlVls: [1],
    rng: createRng(seed).split("switch/0/cc"),
    port: () => idlePort(2),
    inputBufferBytes: () => 1 << 20,
    facesHost: () => true,
  });
  const part = createSwitchPart(p, context);
  const packet = (out: number, sizeBytes: number, ect = true, kind: "data" | "ack" = "data") => {
    const id = packets.create({ kind, sizeBytes, ecn: ect ? Ecn.capable : Ecn.notCapable });
    packets.outPort[id] = out;
    return id;
  };
  return {
    p,
    part,
    packets,
    packet,
    /** Buffers a packet at input 0 for output `out` and returns it. */
    enqueue(out: number, sizeBytes: number, ect = true, kind: "data" | "ack" = "data"): PacketId {
      const id = packet(out, sizeBytes, ect, kind);
      part.onEnqueue?.(id, 0);
      return id;
    },
    /**
     * Starts a buffered packet on its output's link (from input 0, or from the output buffer it
     * was granted into); true if it left with CE.
     */
    send(id: PacketId, from = 0): boolean {
      part.onDequeue?.(id, 0);
      part.onTransmit?.(id, from, packets.outPort[id]!);
      return packets.ecn[id] === Ecn.congestion;
    },
    marked: () => part.counters?.().ceMarked,
  };
}

describe("congestion point (RED/ECN at egress)", () => {
  test.prop([fc.constantFrom(0, 5_000, 50_000, 102_500, 150_000, 199_000, 200_000, 250_000)], {
    numRuns: 8,
  })(
    "marks the fraction of RED's curve at a held egress queue, within 1 % over 10^5 packets",
    (q) => {
      const h = harness({ kminBytes: 5_000, kmaxBytes: 200_000, pmax: 0.5 });
      // What waits for output 2: q bytes that never leave; each test packet joins and leaves.
      if (q > 0) h.enqueue(2, q);
      let marks = 0;
      const n = 100_000;
      for (let i = 0; i < n; i++) if (h.send(h.enqueue(2, 1000))) marks++;
      expect(Math.abs(marks / n - markingProbability(h.p, q))).toBeLessThan(0.01);
      expect(h.marked()).toBe(marks);
    },
  );

  it("judges a packet by what still waits for its output and VL once it has left", () => {
    const h = harness({ kminBytes: 1_000, kmaxBytes: 1_000, pmax: 1 });
    const a = h.enqueue(1, 1_000);
    const b = h.enqueue(1, 1_000);
    h.enqueue(3, 5_000); // for another output: not counted for output 1
    expect(h.send(a)).toBe(false); // b's 1000 B remain: not above K
    h.enqueue(1, 1_001);
    expect(h.send(b)).toBe(true); // 1001 B remain
  });

  it("counts a packet granted into an output buffer until it starts on the link", () => {
    const h = harness({ kminBytes: 1_500, kmaxBytes: 1_500, pmax: 1 });
    const a = h.enqueue(1, 1_000);
    const b = h.enqueue(1, 1_000);
    // Both crossed into the output buffer (the grant changes nothing); a leaves it first.
    expect(h.send(a, FROM_OUTPUT_BUFFER)).toBe(false); // b's 1000 B remain
    const c = h.enqueue(1, 1_000);
    expect(h.send(b, FROM_OUTPUT_BUFFER)).toBe(false); // c's 1000 B
    h.enqueue(1, 1_000);
    expect(h.send(c, FROM_OUTPUT_BUFFER)).toBe(false);
    h.enqueue(1, 1_000);
    h.enqueue(1, 1_000);
    expect(h.send(h.enqueue(1, 1_000), FROM_OUTPUT_BUFFER)).toBe(true); // 3000 B wait
  });

  it("with markAt enqueue, judges a packet by what waited before it joined", () => {
    const h = harness({ kminBytes: 1_000, kmaxBytes: 1_000, pmax: 1, markAt: "enqueue" });
    const first = h.enqueue(0, 1_500);
    const second = h.enqueue(0, 10);
    expect([h.send(first), h.send(second)]).toEqual([false, true]);
  });

  it("never marks control packets, packets that are not ECN-capable, or the switch's own", () => {
    const h = harness({ kminBytes: 0, kmaxBytes: 0, pmax: 1 });
    h.enqueue(1, 100_000);
    expect(h.send(h.enqueue(1, 64, true, "ack"))).toBe(false);
    expect(h.send(h.enqueue(1, 1000, false))).toBe(false);
    const own = h.packet(1, 1000);
    h.part.onTransmit?.(own, FROM_SWITCH_CONTROL, 1);
    expect(h.packets.ecn[own]).toBe(Ecn.capable);
    expect(h.send(h.enqueue(1, 1000))).toBe(true);
    expect(h.marked()).toBe(1);
  });

  it("the factory asks for one control VL and builds the part", () => {
    const factory = switchPartFactory(params.parse({}));
    expect([factory.specVersion, factory.extraVls]).toEqual([2, 1]);
  });
});
