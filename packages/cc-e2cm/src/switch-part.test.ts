import { createRng } from "@cclab/core-des";
import {
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type PacketKind,
} from "@cclab/fabric";
import { idlePort, testSwitchContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { BcnType, COLUMN, CONTROL_LANE, cpidOf, LANES } from "./frames.js";
import { params } from "./params.js";
import { createSwitchPart, switchPartFactory } from "./switch-part.js";

const FRAME = 1500;
const CONTROL_VL = 2;
const SWITCH = 3;

/** What a BCN frame the part sent says. */
interface Bcn {
  readonly kind: string;
  readonly type: number;
  readonly cpid: number;
  readonly qoff: number;
  readonly qdelta: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly flowId: number;
  readonly vl: number;
  readonly sl: number;
  readonly sizeBytes: number;
}

/**
 * A congestion point on switch 3 (4 ports of 2 data VLs, the control lane on VL 2) with
 * `input`'s parameters; by default every data frame is sampled (sampleEveryBytes = the frame).
 */
function cp(input: Record<string, unknown>, seed = 1) {
  const p = params.parse({ sampleEveryBytes: FRAME, ...input });
  const sent: Bcn[] = [];
  const context = testSwitchContext({
    switchIndex: SWITCH,
    lanes: { [CONTROL_LANE]: CONTROL_VL },
    controlVls: [CONTROL_VL],
    rng: createRng(seed).split(`switch/${SWITCH}/cc`),
    port: () => idlePort(3),
    sendControl: (frame: PacketId) => {
      sent.push({
        kind: packets.kind(frame),
        type: type.values[frame]!,
        cpid: cpid.values[frame]!,
        qoff: qoff.values[frame]!,
        qdelta: qdelta.values[frame]!,
        srcHost: packets.srcHost[frame]!,
        dstHost: packets.dstHost[frame]!,
        flowId: packets.flowId[frame]!,
        vl: packets.vl[frame]!,
        sl: packets.sl[frame]!,
        sizeBytes: packets.sizeBytes[frame]!,
      });
      packets.free(frame);
    },
  });
  const { packets } = context;
  const part = createSwitchPart(p, context);
  const type = packets.column(COLUMN.type, Uint8Array);
  const cpid = packets.column(COLUMN.cpid, Int32Array);
  const qoff = packets.column(COLUMN.qoffBytes, Float64Array);
  const qdelta = packets.column(COLUMN.qdeltaBytes, Float64Array);
  /** A data frame from host `src` buffered at input 0 for output `out`, VL `vl`, tagged `tag`. */
  const enqueue = (
    out: number,
    {
      src = 5,
      vl = 0,
      tag = 0,
      sizeBytes = FRAME,
      kind = "data",
    }: { src?: number; vl?: number; tag?: number; sizeBytes?: number; kind?: PacketKind } = {},
  ): PacketId => {
    const id = packets.create({
      kind,
      sizeBytes,
      srcHost: src,
      dstHost: 9,
      flowId: 100 + src,
      sl: vl,
      vl,
    });
    packets.outPort[id] = out;
    cpid.values[id] = tag;
    part.onEnqueue?.(id, 0);
    return id;
  };
  return {
    p,
    part,
    packets,
    sent,
    enqueue,
    /** The frame starts on its output's link. */
    transmit: (id: PacketId, from = 0) => part.onTransmit?.(id, from, packets.outPort[id]!),
    counters: () => part.counters?.(),
  };
}

describe("BCN congestion point (spec 2.2)", () => {
  it("sends a negative BCN to the source on the control lane: Qoff = Qeq − Q, Qdelta = Q − Qold", () => {
    const h = cp({ qeqBytes: 4_000, w: 2 });
    // Q = 1500 with the frame: Qoff 2500, Qdelta 1500, Fb = 2500 − 2·1500 = −500.
    h.enqueue(1);
    // Q = 3000: Qoff 1000, Qdelta 1500, Fb = −2000.
    h.enqueue(1, { src: 6 });
    expect(h.sent).toEqual([
      {
        kind: "bcn",
        type: BcnType.bcn,
        cpid: cpidOf(SWITCH, 1, 0),
        qoff: 2_500,
        qdelta: 1_500,
        srcHost: 9,
        dstHost: 5,
        flowId: 105,
        vl: CONTROL_VL,
        sl: 0,
        sizeBytes: 64,
      },
      expect.objectContaining({ dstHost: 6, flowId: 106, qoff: 1_000, qdelta: 1_500 }),
    ]);
    expect(h.counters()).toEqual({
      samples: 2,
      bcnNegative: 2,
      bcnPositive: 0,
      bcnMax: 0,
      bcnZero: 0,
    });
  });

  it("names the congestion point by output and VL, and keeps a queue per output and VL", () => {
    const h = cp({ qeqBytes: 4_000, w: 2 });
    h.enqueue(2, { vl: 1 });
    h.enqueue(2, { vl: 1 }); // Q = 3000 on (2, 1)
    h.enqueue(3); // Q = 1500 on (3, 0): not the same queue
    expect(h.sent.map((b) => [b.cpid, b.qoff, b.qdelta, b.sl])).toEqual([
      [cpidOf(SWITCH, 2, 1), 2_500, 1_500, 1],
      [cpidOf(SWITCH, 2, 1), 1_000, 1_500, 1],
      [cpidOf(SWITCH, 3, 0), 2_500, 1_500, 0],
    ]);
    // Distinct ids, none 0 ("untagged").
    const ids = new Set<number>();
    for (let out = 0; out < 4; out++)
      for (let vl = 0; vl < 3; vl++) ids.add(cpidOf(SWITCH, out, vl));
    expect(ids.size).toBe(12);
    expect(ids.has(0)).toBe(false);
  });

  it("counts the queue down as frames start on the link; positive BCN only to flows tagged with this point", () => {
    const h = cp({ qeqBytes: 4_000, w: 2 });
    const a = h.enqueue(1);
    const b = h.enqueue(1); // Qold = 3000
    h.transmit(a);
    h.transmit(b); // Q = 0
    h.sent.length = 0;
    const id = cpidOf(SWITCH, 1, 0);
    // Q = 1500, Qoff 2500, Qdelta −1500: Fb = 5500 > 0, untagged: nothing.
    h.transmit(h.enqueue(1));
    expect(h.sent).toEqual([]);
    // Q = 1500, Qdelta 0, Fb = 2500, tagged by another point (another output): nothing.
    h.transmit(h.enqueue(1, { tag: cpidOf(SWITCH, 2, 0) }));
    h.transmit(h.enqueue(1, { tag: cpidOf(SWITCH + 1, 1, 0) }));
    expect(h.sent).toEqual([]);
    // Tagged with this point: positive BCN (Qoff 2500, Qdelta 0).
    h.transmit(h.enqueue(1, { tag: id, src: 7 }));
    expect(h.sent).toEqual([
      expect.objectContaining({ type: BcnType.bcn, cpid: id, qoff: 2_500, qdelta: 0, dstHost: 7 }),
    ]);
    expect(h.counters()).toMatchObject({ samples: 6, bcnNegative: 2, bcnPositive: 1 });
  });

  it("sends nothing when Fb = 0, even to a flow tagged with this point", () => {
    // Qeq 4500, W 1: Q 1500 → Qoff 3000, Qdelta 1500 → Fb 1500; Q 3000 → 1500 − 1500 = 0.
    const h = cp({ qeqBytes: 4_500, w: 1 });
    const id = cpidOf(SWITCH, 0, 0);
    h.enqueue(0, { tag: id });
    h.sent.length = 0;
    h.enqueue(0, { tag: id });
    expect(h.sent).toEqual([]);
    expect(h.counters()?.samples).toBe(2);
  });

  it("sends BCN_MAX above Qsc when bcnMax is on (tagged or not, whatever Fb)", () => {
    const h = cp({ qeqBytes: 75_000, qscBytes: 4_000, bcnMax: true, bcnZero: true });
    h.enqueue(1);
    h.enqueue(1);
    expect(h.sent).toEqual([]); // Fb > 0, untagged
    h.enqueue(1); // Q = 4500 > Qsc
    expect(h.sent).toEqual([
      expect.objectContaining({
        type: BcnType.bcnMax,
        cpid: cpidOf(SWITCH, 1, 0),
        qoff: 70_500,
        qdelta: 1_500,
        dstHost: 5,
        vl: CONTROL_VL,
      }),
    ]);
    expect(h.counters()).toMatchObject({ bcnMax: 1, bcnZero: 0, bcnNegative: 0 });
  });

  it("at exactly Qsc, the usual rule", () => {
    const h = cp({ qeqBytes: 75_000, qscBytes: 3_000, bcnMax: true });
    h.enqueue(1);
    h.enqueue(1, { tag: cpidOf(SWITCH, 1, 0) }); // Q = 3000: positive BCN, not BCN_MAX
    expect(h.sent.map((b) => b.type)).toEqual([BcnType.bcn]);
  });

  it("sends BCN(0,0) above Qsc when bcnMax is off and bcnZero on; nothing special when both are off", () => {
    const zero = cp({ qeqBytes: 75_000, qscBytes: 4_000, bcnMax: false, bcnZero: true });
    for (let i = 0; i < 3; i++) zero.enqueue(1);
    expect(zero.sent).toEqual([
      expect.objectContaining({ type: BcnType.bcnZero, cpid: cpidOf(SWITCH, 1, 0), dstHost: 5 }),
    ]);
    expect(zero.counters()).toMatchObject({ bcnZero: 1, bcnMax: 0 });
    const neither = cp({ qeqBytes: 75_000, qscBytes: 4_000, bcnMax: false, bcnZero: false });
    for (let i = 0; i < 3; i++) neither.enqueue(1);
    expect(neither.sent).toEqual([]); // Q = 4500 < Qeq, Fb > 0, untagged
  });

  it("neither samples nor counts control packets, nor un-counts the switch's own", () => {
    const h = cp({ qeqBytes: 4_000, w: 2 });
    const control = h.enqueue(1, { kind: "bcn", sizeBytes: 100_000 });
    expect(h.sent).toEqual([]);
    expect(h.counters()?.samples).toBe(0);
    h.transmit(control);
    const a = h.enqueue(1); // Q = 1500: the control packet was not counted
    expect(h.sent.map((b) => b.qoff)).toEqual([2_500]);
    // The switch's own control packets are not in the data queue either.
    h.part.onTransmit?.(a, FROM_SWITCH_CONTROL, 1);
    h.enqueue(1);
    expect(h.sent.map((b) => b.qoff)).toEqual([2_500, 1_000]);
  });

  it("counts a frame until it leaves an output buffer", () => {
    const h = cp({ qeqBytes: 4_000, w: 2 });
    const tag = cpidOf(SWITCH, 1, 0);
    const a = h.enqueue(1, { tag });
    h.part.onDequeue?.(a, 0); // crossed into the output buffer: still waiting for output 1
    h.enqueue(1, { tag }); // Q = 3000: Fb = 1000 − 3000 < 0
    h.transmit(a, FROM_OUTPUT_BUFFER);
    h.enqueue(1, { tag }); // Q = 3000, Qdelta 0: Fb = 1000 > 0, positive
    expect(h.sent.map((b) => b.qoff)).toEqual([2_500, 1_000, 1_000]);
  });

  test.prop([fc.constantFrom(750, 1_500, 3_000), fc.integer({ min: 1, max: 1_000_000 })], {
    numRuns: 9,
  })(
    "samples a frame with probability size / sampleEveryBytes (2 % for 1500 B in 75 KB)",
    (size, seed) => {
      const h = cp({ sampleEveryBytes: 75_000 }, seed);
      const n = 40_000;
      for (let i = 0; i < n; i++) h.transmit(h.enqueue(i % 4, { sizeBytes: size }));
      const rate = (h.counters()?.samples ?? 0) / n;
      const expected = size / 75_000;
      // ±20 %: 2 % is told from 1 % and 4 % (over 40 000 frames, σ of the 2 % rate is 0.07 %).
      expect(Math.abs(rate - expected)).toBeLessThan(0.2 * expected);
    },
  );

  it("samples every frame at least as large as sampleEveryBytes", () => {
    const h = cp({ sampleEveryBytes: 1_000 });
    for (let i = 0; i < 100; i++) h.transmit(h.enqueue(0, { sizeBytes: 1_000 + (i % 3) }));
    expect(h.counters()?.samples).toBe(100);
  });

  it("the factory declares the control lane and the columns it writes", () => {
    const factory = switchPartFactory(params.parse({}));
    expect(factory.specVersion).toBe("^3.0.0");
    expect(factory.lanes).toBe(LANES);
    expect(factory.lanes).toEqual([{ name: CONTROL_LANE, role: "control" }]);
    expect(factory.writes).toEqual(
      expect.arrayContaining([COLUMN.type, COLUMN.cpid, COLUMN.qoffBytes, COLUMN.qdeltaBytes]),
    );
  });

  it("refuses a switch whose ports or VLs do not fit a congestion point id", () => {
    const p = params.parse({});
    const context = testSwitchContext({ portCount: 1025, lanes: { [CONTROL_LANE]: 1 } });
    expect(() => createSwitchPart(p, context)).toThrow(RangeError);
    const vls = testSwitchContext({ port: () => idlePort(17), lanes: { [CONTROL_LANE]: 16 } });
    expect(() => createSwitchPart(p, vls)).toThrow(/17 VLs/);
  });
});
