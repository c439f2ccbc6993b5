import { usToPs } from "@cclab/core-des";
import type { PacketId } from "@cclab/fabric";
import { idlePort, testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { BcnType, COLUMN, CONTROL_LANE, LANES } from "./frames.js";
import { params } from "./params.js";
import { createReceiverPart, receiverPartFactory } from "./receiver-part.js";

const CONTROL_VL = 1;

/** What a returned probe says. */
interface Reply {
  readonly kind: string;
  readonly type: number;
  readonly latencyPs: number;
  readonly bytesPerS: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly flowId: number;
  readonly vl: number;
  readonly sizeBytes: number;
  readonly atPs: number;
}

/** Host 4 as an E2CM destination (data on VL 0, the control lane on VL 1). */
function dst() {
  const sent: Reply[] = [];
  const context = testHostContext({
    hostIndex: 4,
    lanes: { [CONTROL_LANE]: CONTROL_VL },
    controlVls: [CONTROL_VL],
    port: idlePort(2),
    sendControl: (p: PacketId) => {
      sent.push({
        kind: packets.kind(p),
        type: type.values[p]!,
        latencyPs: time.values[p]!,
        bytesPerS: throughput.values[p]!,
        srcHost: packets.srcHost[p]!,
        dstHost: packets.dstHost[p]!,
        flowId: packets.flowId[p]!,
        vl: packets.vl[p]!,
        sizeBytes: packets.sizeBytes[p]!,
        atPs: context.scheduler.nowPs,
      });
      packets.free(p);
    },
  });
  const { scheduler, packets } = context;
  const part = createReceiverPart(params.parse({}), context);
  const type = packets.column(COLUMN.type, Uint8Array);
  const time = packets.column(COLUMN.timePs, Float64Array);
  const throughput = packets.column(COLUMN.throughputBytesPerS, Float64Array);
  /** A frame of `flowId` from host `src` reaches host 4 at `atPs`; a probe stamped `stampPs`. */
  const arrive = (
    atPs: number,
    { flowId = 11, src = 2, sizeBytes = 1500, stampPs = -1, kind = "data" as "data" | "bcn" } = {},
  ) => {
    scheduler.run({ untilPs: atPs });
    const id = packets.create({ kind, sizeBytes, flowId, srcHost: src, dstHost: 4, sl: 0, vl: 0 });
    if (stampPs >= 0) {
      type.values[id] = BcnType.probeForward;
      time.values[id] = stampPs;
    }
    part.onArrive?.(id);
    packets.free(id);
  };
  return { part, sent, arrive, counters: () => part.counters?.() };
}

describe("E2CM destination (spec 3.3, seed L150–156, L218–224)", () => {
  it("answers a forward probe with a probe to its source on the control lane: latency = now − stamp", () => {
    const h = dst();
    h.arrive(usToPs(10), { stampPs: usToPs(3) });
    expect(h.sent).toEqual([
      {
        kind: "probe",
        type: BcnType.probeReverse,
        latencyPs: usToPs(7),
        bytesPerS: -1, // the flow's first probe: no rate yet
        srcHost: 4,
        dstHost: 2,
        flowId: 11,
        vl: CONTROL_VL,
        sizeBytes: 64,
        atPs: usToPs(10),
      },
    ]);
    expect(h.counters()).toEqual({ probesReturned: 1 });
  });

  it("reports the flow's bytes since its previous probe, this one included, over the time between them", () => {
    const h = dst();
    h.arrive(usToPs(1)); // before the first probe: not counted in the second one's rate
    h.arrive(usToPs(2), { stampPs: usToPs(1) });
    h.arrive(usToPs(3));
    h.arrive(usToPs(4), { sizeBytes: 500 });
    h.arrive(usToPs(5), { flowId: 12 }); // another flow
    h.arrive(usToPs(5), { kind: "bcn", sizeBytes: 64 }); // not data
    h.arrive(usToPs(6), { stampPs: usToPs(4) });
    // 1500 + 500 + 1500 (the probe) over 4 µs.
    expect(h.sent.map((r) => [r.latencyPs, r.bytesPerS])).toEqual([
      [usToPs(1), -1],
      [usToPs(2), (3_500 * 1e12) / usToPs(4)],
    ]);
    expect(h.sent[1]!.bytesPerS).toBeCloseTo(875e6, 3);
    // Flow 12's first probe has no rate; flow 11's third counts from its second.
    h.arrive(usToPs(7), { flowId: 12, stampPs: usToPs(6) });
    h.arrive(usToPs(16), { stampPs: usToPs(15) });
    expect(h.sent.slice(2).map((r) => [r.flowId, r.bytesPerS])).toEqual([
      [12, -1],
      [11, (1_500 * 1e12) / usToPs(10)],
    ]);
  });

  test.prop(
    [
      fc.array(
        fc.record({
          gapNs: fc.integer({ min: 1, max: 5_000 }),
          sizeBytes: fc.integer({ min: 64, max: 9_000 }),
          probe: fc.boolean(),
          delayNs: fc.integer({ min: 0, max: 100_000 }),
        }),
        { minLength: 1, maxLength: 60 },
      ),
    ],
    { numRuns: 100 },
  )("the rates it reports account for every byte of the flow between its probes", (frames) => {
    const h = dst();
    let now = 0;
    const arrivals: { atPs: number; sizeBytes: number }[] = [];
    for (const f of frames) {
      now += f.gapNs * 1000;
      const stampPs = f.probe ? Math.max(0, now - f.delayNs * 1000) : -1;
      h.arrive(now, { sizeBytes: f.sizeBytes, stampPs });
      arrivals.push({ atPs: now, sizeBytes: f.sizeBytes });
      if (f.probe) expect(h.sent.at(-1)).toMatchObject({ atPs: now, latencyPs: now - stampPs });
    }
    expect(h.sent.length).toBe(frames.filter((f) => f.probe).length);
    if (h.sent.length === 0) return;
    expect(h.sent[0]!.bytesPerS).toBe(-1);
    // Σ rate_i · (t_i − t_{i−1}) = the bytes that arrived after the first probe, up to the last.
    let reported = 0;
    for (let i = 1; i < h.sent.length; i++) {
      reported += (h.sent[i]!.bytesPerS * (h.sent[i]!.atPs - h.sent[i - 1]!.atPs)) / 1e12;
    }
    const first = h.sent[0]!.atPs;
    const last = h.sent.at(-1)!.atPs;
    const arrived = arrivals
      .filter((a) => a.atPs > first && a.atPs <= last)
      .reduce((sum, a) => sum + a.sizeBytes, 0);
    expect(reported).toBeCloseTo(arrived, 3);
  });

  it("the factory declares the control lane", () => {
    const factory = receiverPartFactory(params.parse({}));
    expect(factory.specVersion).toBe("^3.0.0");
    expect(factory.lanes).toBe(LANES);
  });
});
