import { type TimePs, usToPs } from "@cclab/core-des";
import { type PacketId, Packets, type PortView } from "@cclab/fabric";
import { idlePort, testHostContext, testSwitchContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createSenderPart } from "./sender-part.js";
import { createSwitchPart } from "./switch-part.js";

// The SRP paper's ECN network (seed 000_23e1115f082a0339.txt, lines 92–116): 10 Gb/s links,
// 256-byte data packets, 16-packet input buffers per VC (4096 bytes).
const RATE_GBPS = 10;
const PACKET_BYTES = 256;
const BUFFER_BYTES = 16 * PACKET_BYTES;
const SERIALIZATION_PS = 204_800; // 256 bytes at 10 Gb/s

describe("srp-ecn sender: IPD+ 800 ns per BECN, IPD− 50 ns per 2 µs without one", () => {
  function sender() {
    const gatesChangedAt: TimePs[] = [];
    const packets = new Packets();
    const context = testHostContext({
      packets,
      uplinkRateGbps: RATE_GBPS,
      gatesChanged: () => gatesChangedAt.push(context.scheduler.nowPs),
    });
    const scheduler = context.scheduler;
    const part = createSenderPart(params.parse({ preset: "srp-ecn" }), context);
    const becn = scheduler.defineKind("test: BECN", (flowId) =>
      part.onControl?.(packets.create({ kind: "cnp", becn: true, flowId, sizeBytes: 64 })),
    );
    const gate = part.openFlow({ flowId: 5, srcHost: 0, dstHost: 1, sl: 0 });
    let lastEndPs = 0;
    return {
      gatesChangedAt,
      becnAt: (atPs: TimePs) => scheduler.schedule(atPs, becn, 5),
      runTo: (atPs: TimePs) => scheduler.run({ untilPs: atPs }),
      /** Sends one 256-byte packet of the flow now. */
      send: () => {
        gate.onSent?.(packets.create({ sizeBytes: PACKET_BYTES, flowId: 5 }));
        lastEndPs = scheduler.nowPs + SERIALIZATION_PS;
      },
      /** The gap the flow must leave after the end of its last packet, ps. */
      ipdPs: () => gate.nextSendPs(lastEndPs) - lastEndPs,
    };
  }

  it("one BECN adds 800 ns; 2 µs without one takes 50 ns off, again every 2 µs", () => {
    const s = sender();
    s.send();
    expect(s.ipdPs()).toBe(0);
    s.becnAt(usToPs(1));
    s.runTo(usToPs(1));
    expect(s.ipdPs()).toBe(800_000);
    s.runTo(usToPs(3) - 1);
    expect(s.ipdPs()).toBe(800_000);
    s.runTo(usToPs(3));
    expect(s.ipdPs()).toBe(750_000);
    s.runTo(usToPs(5));
    expect(s.ipdPs()).toBe(700_000);
    // The host re-asks its gates at each decrement: a shorter delay may let the flow go earlier.
    expect(s.gatesChangedAt).toEqual([usToPs(3), usToPs(5)]);
  });

  it("a BECN adds 800 ns to the current delay and restarts the 2 µs interval", () => {
    const s = sender();
    s.becnAt(usToPs(1));
    s.runTo(usToPs(3)); // 750 ns
    s.send();
    s.becnAt(usToPs(4));
    s.runTo(usToPs(4));
    expect(s.ipdPs()).toBe(1_550_000);
    // Without the BECN the next decrement would be at 5 µs; it is now 2 µs after it.
    s.runTo(usToPs(6) - 1);
    expect(s.ipdPs()).toBe(1_550_000);
    s.runTo(usToPs(6));
    expect(s.ipdPs()).toBe(1_500_000);
  });

  it("the delay falls back to 0 in 16 steps of 2 µs after the last BECN", () => {
    const s = sender();
    s.send();
    s.becnAt(usToPs(1));
    s.runTo(usToPs(1 + 15 * 2));
    expect(s.ipdPs()).toBe(50_000);
    s.runTo(usToPs(1 + 16 * 2));
    expect(s.ipdPs()).toBe(0);
    s.runTo(usToPs(1000));
    expect(s.gatesChangedAt).toHaveLength(16);
  });
});

describe("srp-ecn switch: sum of the VoQs to a port above 90 % of a 4096-byte buffer", () => {
  /** Output port 3 faces a host (an ejection port); `blocked`: it has no credits. */
  function sw(input: Record<string, unknown> = {}) {
    const packets = new Packets();
    let blocked = false;
    const ejection: PortView = { ...idlePort(), isBlocked: () => blocked };
    const context = testSwitchContext({
      packets,
      port: (i) => (i === 3 ? ejection : idlePort()),
      inputBufferBytes: () => BUFFER_BYTES,
      facesHost: (i) => i === 3,
    });
    const part = createSwitchPart(params.parse({ preset: "srp-ecn", ...input }), context);
    return {
      block: () => {
        blocked = true;
      },
      /** Buffers `n` data packets at input `inPort` for port 3. */
      enqueue: (inPort: number, n: number): PacketId[] =>
        Array.from({ length: n }, () => {
          const p = packets.create({ kind: "data", sizeBytes: PACKET_BYTES });
          packets.outPort[p] = 3;
          part.onEnqueue?.(p, inPort);
          return p;
        }),
      /** Grants `packet` and starts it on port 3; its FECN bit then. */
      transmit: (packet: PacketId, inPort: number): boolean => {
        part.onDequeue?.(packet, inPort);
        part.onTransmit?.(packet, inPort, 3);
        return packets.fecn[packet] === 1;
      },
      counter: (name: string) => part.counters?.()[name],
    };
  }

  it("marks every packet while more than 3686.4 bytes still wait for the port, from all inputs", () => {
    const s = sw();
    // 5 packets from each of three inputs: each VoQ far below the threshold, their sum above.
    const a = s.enqueue(0, 5);
    s.enqueue(1, 5);
    s.enqueue(2, 5);
    expect(s.counter("congestionEntries")).toBe(1); // 15 packets, 3840 bytes > 3686.4
    // The packet sent leaves 14 (3584 bytes) behind it: not marked, and the port leaves the state.
    expect(s.transmit(a[0]!, 0)).toBe(false);
    const more = s.enqueue(1, 2); // 16 waiting
    expect(s.counter("congestionEntries")).toBe(2);
    expect(s.transmit(a[1]!, 0)).toBe(true); // 15 behind it
    expect(s.transmit(more[0]!, 1)).toBe(false); // 14 behind it
    expect(s.counter("fecnMarked")).toBe(1);
  });

  it("an ejection port without credits is no root of congestion: no Victim_Mask", () => {
    const s = sw();
    s.block();
    const queued = s.enqueue(0, 16);
    expect(s.counter("congestionEntries")).toBe(0);
    expect(s.transmit(queued[0]!, 0)).toBe(false);
    // The spec's Victim_Mask on host ports (victimMask "host-ports") would mark it.
    const masked = sw({ victimMask: "host-ports" });
    masked.block();
    const more = masked.enqueue(0, 16);
    expect(masked.transmit(more[0]!, 0)).toBe(true);
  });
});
