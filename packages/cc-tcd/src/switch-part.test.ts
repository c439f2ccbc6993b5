import { Scheduler } from "@cclab/core-des";
import {
  Ecn,
  type EcnCodePoint,
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  type PacketId,
  Packets,
  type PortView,
  queueValueLabelErrors,
} from "@cclab/fabric";
import { idlePort, testSwitchContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { TCD_CODE_COLUMN, TcdCode } from "./codes.js";
import { params } from "./params.js";
import { createSwitchPart, switchPartFactory } from "./switch-part.js";
import { TcdState } from "./tcd-queue.js";

const US = 1_000_000;

/**
 * A switch of 4 ports with 2 VLs (VL 1 a control VL) whose output ports' last OFF→ON times the
 * test sets, and a clock it moves.
 */
function harness(input: Record<string, unknown> = {}) {
  const p = params.parse(input);
  const packets = new Packets();
  const scheduler = new Scheduler();
  const lastOn = [0, 0, 0, 0].map(() => Number.NEGATIVE_INFINITY);
  const views: PortView[] = lastOn.map((_, i) => ({
    ...idlePort(2),
    lastOnPs: () => lastOn[i]!,
  }));
  const part = createSwitchPart(
    p,
    testSwitchContext({
      packets,
      scheduler,
      controlVls: [1],
      port: (i) => views[i]!,
      inputBufferBytes: () => 32_768,
    }),
  );
  const code = () => packets.column(TCD_CODE_COLUMN, Uint8Array).values;
  return {
    part,
    packets,
    code,
    at(us: number) {
      scheduler.runUntil(us * US);
    },
    resume(out: number) {
      lastOn[out] = scheduler.nowPs;
    },
    enqueue(
      out: number,
      sizeBytes: number,
      kind: "data" | "ack" = "data",
      ecn: EcnCodePoint = Ecn.notCapable,
    ) {
      const id = packets.create({ kind, sizeBytes, ecn });
      packets.outPort[id] = out;
      part.onEnqueue?.(id, 0);
      return id;
    },
    send(id: PacketId, from = 0) {
      part.onTransmit?.(id, from, packets.outPort[id]!);
      return code()[id];
    },
  };
}

describe("TCD switch part", () => {
  it("counts the egress queue per output and VL; the switch's own control packets never join", () => {
    const h = harness();
    const a = h.enqueue(2, 1_000);
    h.enqueue(2, 500);
    h.enqueue(3, 700);
    expect(h.part.queueBytes(2, 0)).toBe(1_500);
    h.send(a);
    expect(h.part.queueBytes(2, 0)).toBe(500);
    const own = h.packets.create({ kind: "cnp", sizeBytes: 64 });
    h.packets.outPort[own] = 3;
    h.part.onTransmit?.(own, FROM_SWITCH_CONTROL, 3);
    expect(h.part.queueBytes(3, 0)).toBe(700);
  });

  it("ceRule red: marks UE in the tcd.code column and the ECN field, within max(T_on) of a resume", () => {
    const h = harness({ red: { kMinBytes: 0, kMaxBytes: 0, pMax: 1 } });
    h.at(10);
    h.resume(1);
    const a = h.enqueue(1, 1_000, "data", Ecn.capable);
    h.enqueue(1, 5_000);
    expect(h.send(a)).toBe(TcdCode.Undetermined);
    // CEE carries TCD's code points in the IP ECN field (seed lines 260–266): 01 becomes 10.
    expect(h.packets.ecn[a]).toBe(Ecn.undetermined);
    expect(h.part.stateOf(1, 0)).toBe(TcdState.U);
    expect(h.part.counters?.()).toMatchObject({ ueMarked: 1, ceMarked: 0 });
  });

  it("ceRule red: UE never lowers a CE already in the ECN field (a RED switch upstream)", () => {
    const h = harness();
    h.resume(1);
    const a = h.enqueue(1, 1_000, "data", Ecn.congestion);
    expect(h.send(a)).toBe(TcdCode.Undetermined);
    expect(h.packets.ecn[a]).toBe(Ecn.congestion);
  });

  it("ceRule infiniband: UE goes to the tcd.code column only", () => {
    const h = harness({ ceRule: "infiniband" });
    h.resume(1);
    const a = h.enqueue(1, 1_000, "data", Ecn.capable);
    expect(h.send(a)).toBe(TcdCode.Undetermined);
    expect(h.packets.ecn[a]).toBe(Ecn.capable);
    expect(h.packets.fecn[a]).toBe(0);
  });

  it("UE never overwrites CE an earlier hop wrote", () => {
    const h = harness();
    h.resume(1);
    const a = h.enqueue(1, 1_000);
    h.code()[a] = TcdCode.Congestion;
    expect(h.send(a)).toBe(TcdCode.Congestion);
    expect(h.part.counters?.().ueMarked).toBe(0);
  });

  it("ceRule red: CE to the column and the ECN field, whatever the packet's ECN capability", () => {
    const h = harness({ red: { kMinBytes: 1_000, kMaxBytes: 1_000, pMax: 1 } });
    const a = h.enqueue(2, 1_000);
    h.enqueue(2, 1_001);
    expect(h.send(a)).toBe(TcdCode.Congestion);
    expect(h.packets.ecn[a]).toBe(Ecn.congestion);
    expect(h.packets.fecn[a]).toBe(0);
    expect(h.part.stateOf(2, 0)).toBe(TcdState.C);
    expect(h.part.counters?.().ceMarked).toBe(1);
  });

  it("ceRule infiniband: CE to the column and FECN, not ECN", () => {
    const h = harness({
      ceRule: "infiniband",
      infiniband: { thresholdBytes: 1_000, markingRate: 0 },
    });
    const a = h.enqueue(2, 1_000);
    h.enqueue(2, 1_001);
    expect(h.send(a, FROM_OUTPUT_BUFFER)).toBe(TcdCode.Congestion);
    expect(h.packets.fecn[a]).toBe(1);
    expect(h.packets.ecn[a]).toBe(Ecn.notCapable);
  });

  it("marks data packets only; a control packet leaves the queue but drives no state", () => {
    const h = harness({ red: { kMinBytes: 0, kMaxBytes: 0, pMax: 1 } });
    h.resume(1);
    const ack = h.enqueue(1, 64, "ack");
    h.enqueue(1, 2_000);
    expect(h.send(ack)).toBe(TcdCode.None);
    expect(h.packets.ecn[ack]).toBe(Ecn.notCapable);
    expect(h.part.stateOf(1, 0)).toBe(TcdState.NC);
    expect(h.part.queueBytes(1, 0)).toBe(2_000);
  });

  it("takes qAtResume as the queue at the resume, seen at the next enqueue or dequeue", () => {
    const h = harness();
    h.enqueue(1, 3_000);
    h.enqueue(1, 3_000);
    h.at(5);
    h.resume(1); // 6,000 bytes wait at the resume
    h.enqueue(1, 1_000); // arrives later: not part of qAtResume
    const a = h.enqueue(1, 500);
    h.send(a);
    // Leave U after 40 µs of ON: 6,500 bytes remain, more than the 6,000 at the resume: C.
    h.at(46);
    const b = h.enqueue(1, 100);
    h.send(b);
    expect(h.part.stateOf(1, 0)).toBe(TcdState.C);
    // Equal to the queue at the resume is "did not drain" (C); less is CHECK.
    const g = harness();
    g.enqueue(1, 6_000);
    g.resume(1);
    g.send(g.enqueue(1, 1)); // qAtResume 6,000 (seen at this enqueue); UE
    g.at(41);
    g.send(g.enqueue(1, 1)); // 6,000 remain
    expect(g.part.stateOf(1, 0)).toBe(TcdState.C);
    const k = harness();
    const big = k.enqueue(1, 6_000);
    const x = k.enqueue(1, 1_000);
    k.resume(1);
    k.send(x); // qAtResume 7,000 (seen at this dequeue, before x left); UE
    k.at(41);
    k.send(big); // 0 remain
    expect(k.part.stateOf(1, 0)).toBe(TcdState.Check);
  });

  it("a port never paused and never short of credits never enters U", () => {
    const h = harness();
    for (let t = 0; t < 200; t += 3) {
      h.at(t);
      const a = h.enqueue(t % 4, 4_000);
      h.enqueue(t % 4, 1_000);
      h.send(a);
    }
    h.part.states((_out, _vl, state) => expect(state).not.toBe(TcdState.U));
    expect(h.part.counters?.().timeInUUs).toBe(0);
  });

  it("visits every output and data VL, and sums the time in each state over those that carried data", () => {
    const h = harness();
    h.at(10);
    h.resume(0);
    h.send(h.enqueue(0, 1_000));
    h.at(30);
    const seen: string[] = [];
    h.part.states((out, vl, state) => seen.push(`${out}/${vl}:${state}`));
    expect(seen).toEqual(["0/0:2", "1/0:0", "2/0:0", "3/0:0"]);
    expect(h.part.counters?.()).toEqual({
      ceMarked: 0,
      ueMarked: 1,
      timeInNcUs: 10, // output 0 only: the idle outputs would add 3 × 30 µs of NC
      timeInCheckUs: 0,
      timeInUUs: 20,
      timeInCUs: 0,
    });
  });
});

describe("TCD switch part, sampleQueues (contract 3.3)", () => {
  const sample = (part: {
    sampleQueues(v: (o: number, vl: number, n: string, x: number) => void): void;
  }) => {
    const rows: string[] = [];
    part.sampleQueues((out, vl, variable, value) => rows.push(`${out}/${vl} ${variable}=${value}`));
    return rows;
  };

  it("reports nothing before any data packet left, and ignores queues only control packets used", () => {
    const h = harness();
    h.enqueue(2, 1_000);
    expect(sample(h.part)).toEqual([]);
    h.send(h.enqueue(3, 64, "ack"));
    expect(sample(h.part)).toEqual([]);
  });

  it("gives each queue that carried data its state, its own CE and UE counts and its bytes", () => {
    // Every packet above 1,000 bytes of queue is CE (RED with Kmin = Kmax = 1,000, pMax 1).
    const h = harness({ red: { kMinBytes: 1_000, kMaxBytes: 1_000, pMax: 1 } });
    h.at(10);
    h.resume(1);
    h.send(h.enqueue(1, 1_000)); // U: UE
    h.send(h.enqueue(1, 1_000)); // U: UE
    const waiting = h.enqueue(1, 700);
    const a = h.enqueue(2, 1_000);
    h.enqueue(2, 1_500);
    h.send(a); // 1,500 bytes left: CE, C
    h.send(h.enqueue(0, 100)); // 0 bytes left: NC
    expect(sample(h.part)).toEqual([
      "0/0 state=0",
      "0/0 ceMarked=0",
      "0/0 ueMarked=0",
      "0/0 queueBytes=0",
      "1/0 state=2",
      "1/0 ceMarked=0",
      "1/0 ueMarked=2",
      "1/0 queueBytes=700",
      "2/0 state=3",
      "2/0 ceMarked=1",
      "2/0 ueMarked=0",
      "2/0 queueBytes=1500",
    ]);
    // The per-queue counts add up to the part's counters; reading changed nothing.
    expect(h.part.counters?.()).toMatchObject({ ceMarked: 1, ueMarked: 2 });
    expect(sample(h.part)).toHaveLength(12);
    expect(h.send(waiting)).toBe(TcdCode.Undetermined);
  });
});

describe("TCD switch part factory", () => {
  it("declares what it writes and the lanes it needs for each CE rule", () => {
    const red = switchPartFactory(params.parse({}));
    expect(red.writes).toEqual(["ecn", "tcd.code"]);
    expect(red.lanes).toEqual([{ name: "control", role: "control" }]);
    expect(red.specVersion).toBe("^3.0.0");
    const ib = switchPartFactory(params.parse({ ceRule: "infiniband" }));
    expect(ib.writes).toEqual(["fecn", "tcd.code"]);
    expect(ib.lanes).toBeUndefined();
  });

  it("names the values of the state it samples (contract 3.4), the spec's names by the reference's numbers", () => {
    for (const ceRule of ["red", "infiniband"] as const) {
      const f = switchPartFactory(params.parse({ ceRule }));
      expect(f.queueValueLabels).toEqual({
        state: {
          0: "NC: non-congestion",
          1: "CHECK: trend after U",
          2: "U: undetermined",
          3: "C: congestion",
        },
      });
      expect(queueValueLabelErrors(f.queueValueLabels)).toEqual([]);
      // Every number `sampleQueues` reports as `state` has a name.
      for (const state of [TcdState.NC, TcdState.Check, TcdState.U, TcdState.C]) {
        expect(f.queueValueLabels?.state?.[state]).toMatch(/^[A-Z]+: /);
      }
    }
    // NP-ECN reports no state: nothing to name.
    expect(switchPartFactory(params.parse({ ceRule: "np-ecn" })).queueValueLabels).toBeUndefined();
  });
});
