import { Scheduler } from "@cclab/core-des";
import { Ecn, FROM_SWITCH_CONTROL, type PacketId, Packets, type PortView } from "@cclab/fabric";
import { idlePort, testSwitchContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { TCD_CODE_COLUMN } from "./codes.js";
import { createNpEcnSwitchPart } from "./np-ecn-switch-part.js";
import { params } from "./params.js";
import { createSwitchPart, switchPartFactory } from "./switch-part.js";

const US = 1_000_000;

/**
 * A switch of 4 ports with 2 VLs (VL 1 a control VL) running NP-ECN with a step RED curve:
 * every data packet leaving more than 1,000 bytes behind is CE by RED (Kmin = Kmax = 1,000,
 * Pmax 1), so any packet left unmarked above that was spared by NP-ECN. The test sets the
 * output ports' last OFF→ON times and moves the clock.
 */
function harness() {
  const p = params.parse({
    ceRule: "np-ecn",
    red: { kMinBytes: 1_000, kMaxBytes: 1_000, pMax: 1 },
  });
  const packets = new Packets();
  const scheduler = new Scheduler();
  const lastOn = [0, 0, 0, 0].map(() => Number.NEGATIVE_INFINITY);
  const views: PortView[] = lastOn.map((_, i) => ({ ...idlePort(2), lastOnPs: () => lastOn[i]! }));
  const part = createNpEcnSwitchPart(
    p,
    testSwitchContext({ packets, scheduler, controlVls: [1], port: (i) => views[i]! }),
  );
  return {
    part,
    packets,
    at(us: number) {
      scheduler.runUntil(us * US);
    },
    /** Port `out` resumes now (a RESUME took effect, or credits came back). */
    resume(out: number) {
      lastOn[out] = scheduler.nowPs;
    },
    enqueue(out: number, sizeBytes = 1_000, kind: "data" | "ack" = "data") {
      const id = packets.create({ kind, sizeBytes, ecn: Ecn.capable });
      packets.outPort[id] = out;
      part.onEnqueue?.(id, 0);
      return id;
    },
    /** `id` starts on its output link; true if it left with CE. */
    send(id: PacketId): boolean {
      part.onTransmit?.(id, 0, packets.outPort[id]!);
      return packets.ecn[id] === Ecn.congestion;
    },
  };
}

describe("NP-ECN switch part (ceRule np-ecn)", () => {
  it("a port never paused marks as RED does: CE above Kmax, none at or below", () => {
    const h = harness();
    const ids = [1, 2, 3, 4].map(() => h.enqueue(2));
    expect(ids.map((id) => h.send(id))).toEqual([true, true, false, false]);
    expect(h.part.counters?.()).toEqual({ ceMarked: 2, ceSpared: 0 });
  });

  it("spares the packets queued at a resume and those behind them, then follows RED", () => {
    const h = harness();
    const old = [1, 2, 3].map(() => h.enqueue(1)); // queued while the port was paused
    h.at(5);
    h.resume(1);
    const later = [1, 2, 3, 4].map(() => h.enqueue(1)); // joined after the resume, behind them
    expect(h.part.pausedPackets(1, 0)).toBe(3);
    // 6,000 bytes and more behind each of the three: RED says CE, NP-ECN does not mark.
    expect(old.map((id) => h.send(id))).toEqual([false, false, false]);
    expect(h.part.pausedPackets(1, 0)).toBe(0);
    // The paused-period packets have all left: RED again (3,000 and 2,000 bytes behind: CE;
    // 1,000 and 0: not).
    expect(later.map((id) => h.send(id))).toEqual([true, true, false, false]);
    expect(h.part.counters?.()).toEqual({ ceMarked: 2, ceSpared: 3 });
  });

  it("a packet that overtakes paused-period packets (another input's queue) is not marked, and does not count as one of them", () => {
    const h = harness();
    const old = [h.enqueue(1), h.enqueue(1)];
    h.resume(1);
    const fresh = [h.enqueue(1), h.enqueue(1), h.enqueue(1)];
    // Round-robin over inputs: a later packet leaves first, 4,000 bytes behind it.
    expect(h.send(fresh[0]!)).toBe(false);
    expect(h.part.pausedPackets(1, 0)).toBe(2);
    expect(h.send(old[0]!)).toBe(false);
    expect(h.send(fresh[1]!)).toBe(false);
    expect(h.send(old[1]!)).toBe(false);
    expect(h.part.pausedPackets(1, 0)).toBe(0);
    expect(h.send(fresh[2]!)).toBe(false); // RED: 0 bytes behind
  });

  it("a new resume makes every packet then queued a paused-period packet", () => {
    const h = harness();
    h.resume(3);
    const a = [1, 2, 3, 4].map(() => h.enqueue(3));
    h.at(10);
    h.resume(3); // paused again and resumed: all four were queued across that pause
    expect(a.map((id) => h.send(id))).toEqual([false, false, false, false]);
    expect(h.part.counters?.().ceSpared).toBe(2);
  });

  it("never marks control packets, and the switch's own never join the queue", () => {
    const h = harness();
    const ack = h.enqueue(0, 64, "ack");
    h.enqueue(0, 2_000);
    expect(h.send(ack)).toBe(false);
    const own = h.packets.create({ kind: "cnp", sizeBytes: 64 });
    h.packets.outPort[own] = 0;
    h.part.onTransmit?.(own, FROM_SWITCH_CONTROL, 0);
    expect(h.part.queueBytes(0, 0)).toBe(2_000);
    expect(h.packets.column(TCD_CODE_COLUMN, Uint8Array).values[ack]).toBe(0);
  });

  it("reports each queue that carried data for the cc-queues series", () => {
    const h = harness();
    h.send(h.enqueue(2));
    h.enqueue(2);
    const rows: string[] = [];
    h.part.sampleQueues?.((out, vl, v, x) => rows.push(`${out}/${vl} ${v}=${x}`));
    expect(rows).toEqual(["2/0 ceMarked=0", "2/0 queueBytes=1000", "2/0 pausedPackets=0"]);
  });
});

describe("NP-ECN switch part factory", () => {
  it("writes ecn only (no tcd.code: hosts reading TCD codes are refused) and asks for the control lane", () => {
    const f = switchPartFactory(params.parse({ ceRule: "np-ecn" }));
    expect(f.writes).toEqual(["ecn"]);
    expect(f.lanes).toEqual([{ name: "control", role: "control" }]);
  });

  it("is not a TCD queue: createSwitchPart refuses ceRule np-ecn", () => {
    const context = testSwitchContext({ port: () => idlePort(1) });
    expect(() => createSwitchPart(params.parse({ ceRule: "np-ecn" }), context)).toThrow(
      /createNpEcnSwitchPart/,
    );
  });
});
