import { createRng } from "@cclab/core-des";
import {
  FROM_SWITCH_CONTROL,
  type PacketId,
  type PacketKind,
  Packets,
  type PortView,
  type SwitchPart,
  type SwitchPartContext,
} from "@cclab/fabric";
import { testSwitchContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createSwitchPart, switchPartFactory } from "./switch-part.js";

/** A port view whose flow-control state the test sets. */
class FakePort implements PortView {
  readonly blocked: boolean[];
  constructor(readonly vlCount: number) {
    this.blocked = Array.from({ length: vlCount }, () => false);
  }
  inputBytes(): number {
    return 0;
  }
  credits(): number {
    return 0;
  }
  isPaused(): boolean {
    return false;
  }
  isTransmitting(): boolean {
    return false;
  }
  isBlocked(vl: number): boolean {
    return this.blocked[vl]!;
  }
  lastOnPs(): number {
    return Number.NEGATIVE_INFINITY;
  }
  offCount(): number {
    return 0;
  }
}

interface Harness {
  readonly part: SwitchPart;
  readonly ports: FakePort[];
  readonly packets: Packets;
  /** Buffers a packet of `size` bytes at `inPort` for `outPort`. */
  enqueue(
    inPort: number,
    outPort: number,
    size: number,
    opts?: { vl?: number; kind?: PacketKind },
  ): PacketId;
  /** Starts sending `packet` (buffered at `inPort`); returns its FECN bit afterwards. */
  transmit(packet: PacketId, inPort: number): boolean;
  fecnMarked(): number;
  congestionEntries(): number;
}

function harness(
  input: Record<string, unknown>,
  opts: {
    ports?: number;
    vls?: number;
    bufferBytes?: number;
    hostPorts?: readonly number[];
    seed?: number;
    /** Build the part through `switchPartFactory(p).create`, as the network does. */
    viaFactory?: boolean;
  } = {},
): Harness {
  const p = params.parse(input);
  const vls = opts.vls ?? 1;
  const ports = Array.from({ length: opts.ports ?? 4 }, () => new FakePort(vls));
  const hostPorts = new Set(opts.hostPorts ?? []);
  const packets = new Packets();
  const context: SwitchPartContext = testSwitchContext({
    packets,
    rng: createRng(opts.seed ?? 1).split("switch/0/cc"),
    portCount: ports.length,
    port: (i) => ports[i]!,
    inputBufferBytes: () => opts.bufferBytes ?? 32 * 1024,
    facesHost: (i) => hostPorts.has(i),
  });
  const part = opts.viaFactory
    ? switchPartFactory(p).create(context)
    : createSwitchPart(p, context);
  const counter = (name: string) => part.counters?.()[name] ?? Number.NaN;
  return {
    part,
    ports,
    packets,
    enqueue(inPort, outPort, size, o = {}) {
      const packet = packets.create({ kind: o.kind ?? "data", sizeBytes: size, vl: o.vl ?? 0 });
      packets.outPort[packet] = outPort;
      part.onEnqueue?.(packet, inPort);
      return packet;
    },
    // What the switch does when it grants a packet without output buffers: it leaves the
    // input queue, then starts on the link.
    transmit(packet, inPort) {
      part.onDequeue?.(packet, inPort);
      part.onTransmit?.(packet, inPort, packets.outPort[packet]!);
      return packets.fecn[packet] === 1;
    },
    fecnMarked: () => counter("fecnMarked"),
    congestionEntries: () => counter("congestionEntries"),
  };
}

/** Every eligible packet marked while congested: the state alone decides. */
const markAll = { markingRate: 0, packetSize64B: 0 } as const;
const single = (bytes: number) => ({ thresholdHighBytes: bytes, thresholdLowBytes: bytes });

describe("threshold mappings", () => {
  const mappings = ["voq", "sum", "sum-per-input"] as const;

  // Threshold 1000 B on output 3 in each scenario; the packet transmitted is judged by what
  // still waits for the port after it.
  function firstMarked(
    mapping: (typeof mappings)[number],
    fill: readonly (readonly [input: number, size: number])[],
  ): boolean {
    const h = harness({ ...markAll, ...single(1000), thresholdMapping: mapping });
    const packets = fill.map(([input, size]) => [h.enqueue(input, 3, size), input] as const);
    const [packet, input] = packets[0]!;
    return h.transmit(packet, input);
  }

  it("one VoQ above the threshold: every mapping enters", () => {
    // Input 0: 1800 B; 1200 B after the first leaves.
    const fill = [
      [0, 600],
      [0, 600],
      [0, 600],
    ] as const;
    for (const m of mappings) expect(firstMarked(m, fill), m).toBe(true);
  });

  it("no VoQ above, their sum above: sum and sum-per-input enter, voq does not", () => {
    // Inputs 0 and 1: 800 B each; 400 + 800 = 1200 B after the first leaves.
    const fill = [
      [0, 400],
      [0, 400],
      [1, 400],
      [1, 400],
    ] as const;
    expect(firstMarked("voq", fill)).toBe(false);
    expect(firstMarked("sum", fill)).toBe(true);
    expect(firstMarked("sum-per-input", fill)).toBe(true);
  });

  it("sum at the threshold but above threshold ÷ inputs with data: only sum-per-input", () => {
    // Inputs 0, 1, 2: 400 B each (1200 > 1000 enters "sum"); 1000 B after the first leaves,
    // which "sum" leaves at, but 1000 > 1000 / 3.
    const fill = [
      [0, 200],
      [0, 200],
      [1, 200],
      [1, 200],
      [2, 200],
      [2, 200],
    ] as const;
    expect(firstMarked("voq", fill)).toBe(false);
    expect(firstMarked("sum", fill)).toBe(false);
    expect(firstMarked("sum-per-input", fill)).toBe(true);
  });

  it("sum-per-input divides by the inputs with data only, not every input", () => {
    // One input with data: the threshold stays 1000 B, however many ports the switch has.
    const fill = [
      [0, 300],
      [0, 300],
      [0, 300],
    ] as const;
    expect(firstMarked("sum-per-input", fill)).toBe(false);
    expect(firstMarked("sum", fill)).toBe(false);
  });

  it("thresholds are per output port: another output's queue does not count", () => {
    const h = harness({ ...markAll, ...single(1000), thresholdMapping: "sum" });
    const a = h.enqueue(0, 3, 600);
    h.enqueue(1, 2, 600);
    h.enqueue(2, 2, 600); // output 2: 1200 B
    h.enqueue(1, 3, 300); // output 3: 900 B, 2100 B counting output 2's
    expect(h.transmit(a, 0)).toBe(false);
    expect(h.congestionEntries()).toBe(1); // output 2 only
  });

  it("the weight maps to (16 − w)/16 of the input buffer", () => {
    // 16 000 B buffer: weight 14 is 2000 B, weight 13 is 3000 B.
    for (const [w, marked] of [
      [14, true],
      [13, false],
    ] as const) {
      const h = harness({ ...markAll, thresholdWeight: w }, { bufferBytes: 16_000 });
      const big = h.enqueue(0, 1, 1000);
      const mid = h.enqueue(0, 1, 1001);
      const small = h.enqueue(0, 1, 100);
      expect(h.transmit(small, 0), `w ${w}`).toBe(marked); // 2001 B remain
      expect(h.transmit(mid, 0), `w ${w}`).toBe(false); // 1000 B remain
      expect(h.transmit(big, 0), `w ${w}`).toBe(false);
    }
  });
});

describe("hysteresis", () => {
  it("with high > low the state holds until the measure is at low or below", () => {
    const h = harness({ ...markAll, thresholdHighBytes: 1000, thresholdLowBytes: 400 });
    const packets = Array.from({ length: 5 }, () => h.enqueue(0, 1, 300)); // 1500 B
    // Remaining after each: 1200, 900, 600, 300, 0.
    expect(packets.map((p) => h.transmit(p, 0))).toEqual([true, true, true, false, false]);
    // Back above low but not above high: the state is not entered again.
    const again = Array.from({ length: 3 }, () => h.enqueue(0, 1, 300)); // 900 B
    expect(again.map((p) => h.transmit(p, 0))).toEqual([false, false, false]);
    expect(h.congestionEntries()).toBe(1);
  });

  it("leaves exactly at low (≤), not above it", () => {
    const h = harness({ ...markAll, thresholdHighBytes: 1000, thresholdLowBytes: 600 });
    const packets = Array.from({ length: 4 }, () => h.enqueue(0, 1, 300)); // 1200 B
    // Remaining: 900 (> 600), 600 (= low: leaves), 300, 0.
    expect(packets.map((p) => h.transmit(p, 0))).toEqual([true, false, false, false]);
  });

  it("with one threshold the state is left as soon as the measure is at it or below", () => {
    const h = harness({ ...markAll, ...single(1000) });
    const packets = Array.from({ length: 5 }, () => h.enqueue(0, 1, 300)); // 1500 B
    // Remaining: 1200, 900, ...: only the first leaves the port congested.
    expect(packets.map((p) => h.transmit(p, 0))).toEqual([true, false, false, false, false]);
    // And it is entered again as soon as the measure is above it.
    const again = Array.from({ length: 5 }, () => h.enqueue(0, 1, 300)); // 1500 B
    expect(again.map((p) => h.transmit(p, 0))).toEqual([true, false, false, false, false]);
    expect(h.congestionEntries()).toBe(2);
  });

  it("a measure exactly at high does not enter", () => {
    const h = harness({ ...markAll, thresholdHighBytes: 900, thresholdLowBytes: 300 });
    const packets = Array.from({ length: 4 }, () => h.enqueue(0, 1, 300)); // 1200 B
    // 1200 > 900 entered; first leaves 900 (> low) → marked.
    expect(h.transmit(packets[0]!, 0)).toBe(true);
    const h2 = harness({ ...markAll, thresholdHighBytes: 900, thresholdLowBytes: 300 });
    const three = Array.from({ length: 3 }, () => h2.enqueue(0, 1, 300)); // 900 B: not above
    expect(three.map((p) => h2.transmit(p, 0))).toEqual([false, false, false]);
    expect(h2.congestionEntries()).toBe(0);
  });
});

describe("the packet being sent is judged after its own bytes leave", () => {
  it("a lone packet larger than the threshold is not marked", () => {
    const h = harness({ ...markAll, ...single(1000) });
    const lone = h.enqueue(0, 1, 2074);
    expect(h.transmit(lone, 0)).toBe(false);
    expect(h.fecnMarked()).toBe(0);
  });

  it("the same packet with another above-threshold packet behind it is marked", () => {
    const h = harness({ ...markAll, ...single(1000) });
    const first = h.enqueue(0, 1, 2074);
    const second = h.enqueue(0, 1, 2074);
    expect(h.transmit(first, 0)).toBe(true);
    expect(h.transmit(second, 0)).toBe(false);
    expect(h.fecnMarked()).toBe(1);
  });
});

describe("victims and the Victim_Mask", () => {
  // Output 1 holds 1800 B from input 0 while its flow control blocks it.
  function blockedRun(
    victimMask: "host-ports" | "all" | "none",
    hostPorts: readonly number[],
  ): boolean {
    const h = harness({ ...markAll, ...single(1000), victimMask }, { hostPorts });
    h.ports[1]!.blocked[0] = true;
    const packets = Array.from({ length: 3 }, () => h.enqueue(0, 1, 600));
    return h.transmit(packets[0]!, 0);
  }

  it("a blocked port not covered by the mask does not enter the state", () => {
    expect(blockedRun("none", [1])).toBe(false);
    expect(blockedRun("host-ports", [0, 2, 3])).toBe(false);
  });

  it("the mask lets a blocked port enter: all ports, or host-facing ones", () => {
    expect(blockedRun("all", [])).toBe(true);
    expect(blockedRun("host-ports", [1])).toBe(true);
  });

  it("an unblocked port enters whatever the mask", () => {
    for (const mask of ["none", "all", "host-ports"] as const) {
      const h = harness({ ...markAll, ...single(1000), victimMask: mask });
      const packets = Array.from({ length: 3 }, () => h.enqueue(0, 1, 600));
      expect(h.transmit(packets[0]!, 0), mask).toBe(true);
    }
  });

  it("blocking only another VL of the port does not stop this VL from entering", () => {
    const h = harness({ ...markAll, ...single(1000), victimMask: "none" }, { vls: 2 });
    h.ports[1]!.blocked[1] = true;
    const packets = Array.from({ length: 3 }, () => h.enqueue(0, 1, 600, { vl: 0 }));
    expect(h.transmit(packets[0]!, 0)).toBe(true);
  });

  it("a root port that becomes blocked once congested stays congested", () => {
    const h = harness({ ...markAll, ...single(1000), victimMask: "none" });
    const packets = Array.from({ length: 3 }, () => h.enqueue(0, 1, 600));
    h.ports[1]!.blocked[0] = true;
    expect(h.transmit(packets[0]!, 0)).toBe(true);
  });
});

describe("what is marked", () => {
  it("Threshold 0 never marks, however full the queues", () => {
    const h = harness({ ...markAll, thresholdWeight: 0 }, { bufferBytes: 4096 });
    const packets = Array.from({ length: 50 }, (_, i) => h.enqueue(i % 3, 3, 2074));
    packets.forEach((p, i) => {
      expect(h.transmit(p, i % 3)).toBe(false);
    });
    expect(h.fecnMarked()).toBe(0);
    expect(h.congestionEntries()).toBe(0);
  });

  it("Packet_Size: packets smaller than Packet_Size × 64 B are not marked", () => {
    const h = harness({ markingRate: 0, packetSize64B: 8, ...single(1000) });
    h.enqueue(0, 1, 5000); // keeps the port congested throughout
    const small = h.enqueue(0, 1, 511);
    const exact = h.enqueue(0, 1, 512);
    const large = h.enqueue(0, 1, 2074);
    expect(h.transmit(small, 0)).toBe(false);
    expect(h.transmit(exact, 0)).toBe(true);
    expect(h.transmit(large, 0)).toBe(true);
    expect(h.fecnMarked()).toBe(2);
  });

  it("only data packets are marked", () => {
    const h = harness({ ...markAll, ...single(1000) });
    h.enqueue(0, 1, 5000);
    const kinds: PacketKind[] = ["cnp", "ack", "nack", "grant", "x-test"];
    for (const kind of kinds) {
      const p = h.enqueue(0, 1, 1000, { kind });
      expect(h.transmit(p, 0), kind).toBe(false);
    }
    const data = h.enqueue(0, 1, 1000);
    expect(h.transmit(data, 0)).toBe(true);
    expect(h.fecnMarked()).toBe(1);
  });

  it("congestion is per VL: a full VL 0 does not mark VL 1", () => {
    const h = harness({ ...markAll, ...single(1000) }, { vls: 2 });
    h.enqueue(0, 1, 5000, { vl: 0 });
    const other = h.enqueue(0, 1, 1000, { vl: 1 });
    const same = h.enqueue(0, 1, 1000, { vl: 0 });
    expect(h.transmit(other, 0)).toBe(false);
    expect(h.transmit(same, 0)).toBe(true);
  });

  it("a packet already carrying FECN is not counted again", () => {
    const h = harness({ ...markAll, ...single(1000) });
    h.enqueue(0, 1, 5000);
    const premarked = h.enqueue(0, 1, 1000);
    h.packets.fecn[premarked] = 1;
    expect(h.transmit(premarked, 0)).toBe(true);
    expect(h.fecnMarked()).toBe(0);
    const fresh = h.enqueue(0, 1, 1000);
    expect(h.transmit(fresh, 0)).toBe(true);
    expect(h.fecnMarked()).toBe(1);
  });

  it("the switch's own packets (no input port) are neither marked nor counted", () => {
    // Congested throughout; "count" marks every second eligible packet.
    const h = harness({ markingRate: 1, marking: "count", packetSize64B: 0, ...single(1000) });
    h.enqueue(0, 1, 5000);
    for (let i = 0; i < 3; i++) {
      const own = h.packets.create({ sizeBytes: 2000 }); // data, as far as its kind goes
      h.packets.outPort[own] = 1;
      h.part.onTransmit?.(own, FROM_SWITCH_CONTROL, 1);
      expect(h.packets.fecn[own]).toBe(0);
    }
    expect(h.fecnMarked()).toBe(0);
    // Had they advanced the count, the first data packet would be marked.
    const marks = Array.from({ length: 4 }, () => h.transmit(h.enqueue(0, 1, 1000), 0));
    expect(marks).toEqual([false, true, false, true]);
    expect(h.fecnMarked()).toBe(2);
  });

  test.prop([fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 60 })], { numRuns: 40 })(
    'marking "count" marks exactly every (Marking_Rate + 1)-th eligible packet',
    (rate, n) => {
      const h = harness({
        markingRate: rate,
        packetSize64B: 1,
        marking: "count",
        ...single(1000),
      });
      h.enqueue(0, 1, 5000); // keeps the port congested
      const marks: boolean[] = [];
      for (let i = 0; i < n; i++) {
        // Ineligible packets in between (too small, or not data) do not advance the count.
        h.transmit(h.enqueue(0, 1, 63), 0);
        h.transmit(h.enqueue(0, 1, 100, { kind: "ack" }), 0);
        marks.push(h.transmit(h.enqueue(0, 1, 1000), 0));
      }
      const expected = marks.map((_, i) => (i + 1) % (rate + 1) === 0);
      expect(marks).toEqual(expected);
      expect(h.fecnMarked()).toBe(expected.filter(Boolean).length);
    },
  );

  test.prop([fc.constantFrom(1, 2, 3, 7), fc.integer({ min: 1, max: 1_000_000 })], {
    numRuns: 12,
  })('marking "probability" marks about 1/(Marking_Rate + 1) of eligible packets', (rate, seed) => {
    const h = harness(
      { markingRate: rate, packetSize64B: 0, marking: "probability", ...single(1000) },
      { seed },
    );
    h.enqueue(0, 1, 5000);
    const n = 20_000;
    const marks: boolean[] = [];
    for (let i = 0; i < n; i++) marks.push(h.transmit(h.enqueue(0, 1, 1000), 0));
    const marked = marks.filter(Boolean).length;
    const p = 1 / (rate + 1);
    const sd = Math.sqrt(n * p * (1 - p));
    expect(Math.abs(marked - n * p)).toBeLessThan(6 * sd);
    expect(h.fecnMarked()).toBe(marked);
    // Random, not the deterministic pattern of "count".
    expect(marks).not.toEqual(marks.map((_, i) => (i + 1) % (rate + 1) === 0));
  });

  it('marking "probability" with Marking_Rate 0 marks every eligible packet', () => {
    const h = harness({ markingRate: 0, packetSize64B: 0, ...single(1000) });
    h.enqueue(0, 1, 5000);
    for (let i = 0; i < 50; i++) expect(h.transmit(h.enqueue(0, 1, 1000), 0)).toBe(true);
    expect(h.fecnMarked()).toBe(50);
  });
});

// A reference model recomputes every measure from scratch after each change and decides the
// state as the specification describes; the part keeps running totals. Random operations on
// a 4-port, 2-VL switch (traffic to outputs 0 and 1, from any input) must give the same marks.
describe("against a from-scratch model", () => {
  type Op =
    | { op: "enqueue"; input: number; out: number; vl: number; size: number; kind: PacketKind }
    | { op: "transmit"; pick: number }
    | { op: "block"; out: number; vl: number; blocked: boolean };
  const PORTS = 4;
  const VLS = 2;
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant("enqueue" as const),
        input: fc.nat(PORTS - 1),
        out: fc.nat(1),
        vl: fc.nat(VLS - 1),
        size: fc.oneof(
          fc.integer({ min: 1, max: 2100 }),
          fc.integer({ min: 1, max: 21 }).map((x) => x * 100), // hits thresholds exactly
        ),
        kind: fc.constantFrom<PacketKind>("data", "data", "data", "cnp"),
      }),
    },
    { weight: 3, arbitrary: fc.record({ op: fc.constant("transmit" as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant("block" as const),
        out: fc.nat(1),
        vl: fc.nat(VLS - 1),
        blocked: fc.boolean(),
      }),
    },
  );

  test.prop(
    [
      fc.constantFrom("voq" as const, "sum" as const, "sum-per-input" as const),
      fc.constantFrom("host-ports" as const, "all" as const, "none" as const),
      fc.integer({ min: 1, max: 50 }).map((x) => x * 100),
      fc.oneof(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 50 }).map((x) => x * 100),
      ),
      fc.subarray([0, 1, 2, 3]),
      fc.array(opArb, { minLength: 40, maxLength: 160 }),
    ],
    { numRuns: 150 },
  )("marks exactly the packets the model says", (mapping, mask, a, b, hostPorts, ops) => {
    const high = Math.max(a, b);
    const low = Math.min(a, b);
    const h = harness(
      {
        ...markAll,
        thresholdHighBytes: high,
        thresholdLowBytes: low,
        thresholdMapping: mapping,
        victimMask: mask,
      },
      { ports: PORTS, vls: VLS, hostPorts },
    );
    const voq = new Float64Array(PORTS * VLS * PORTS); // [(out·VLS + vl)·PORTS + in]
    const congested = new Uint8Array(PORTS * VLS);
    const queued: { packet: PacketId; input: number }[] = [];
    const masked = (out: number) =>
      mask === "all" || (mask === "host-ports" && hostPorts.includes(out));
    const update = (out: number, vl: number) => {
      const ov = out * VLS + vl;
      const q = Array.from({ length: PORTS }, (_, i) => voq[ov * PORTS + i]!);
      const sum = q.reduce((s, x) => s + x, 0);
      const n = q.filter((x) => x > 0).length;
      if (congested[ov] === 0) {
        const enters =
          mapping === "voq"
            ? q.some((x) => x > high)
            : mapping === "sum"
              ? sum > high
              : n > 0 && sum > high / n;
        if (enters && (masked(out) || !h.ports[out]!.blocked[vl])) congested[ov] = 1;
      } else {
        const leaves =
          mapping === "voq"
            ? q.every((x) => x <= low)
            : mapping === "sum"
              ? sum <= low
              : n === 0 || sum <= low / n;
        if (leaves) congested[ov] = 0;
      }
    };
    let marked = 0;
    for (const op of ops) {
      if (op.op === "block") {
        h.ports[op.out]!.blocked[op.vl] = op.blocked;
      } else if (op.op === "enqueue") {
        const packet = h.enqueue(op.input, op.out, op.size, { vl: op.vl, kind: op.kind });
        queued.push({ packet, input: op.input });
        voq[(op.out * VLS + op.vl) * PORTS + op.input]! += op.size;
        update(op.out, op.vl);
      } else if (queued.length > 0) {
        const [{ packet, input }] = queued.splice(op.pick % queued.length, 1) as [
          { packet: PacketId; input: number },
        ];
        const { outPort, vl, sizeBytes, kind } = h.packets.snapshot(packet);
        voq[(outPort * VLS + vl) * PORTS + input]! -= sizeBytes;
        update(outPort, vl);
        const expected = congested[outPort * VLS + vl] === 1 && kind === "data";
        if (expected) marked++;
        expect(h.transmit(packet, input)).toBe(expected);
      }
    }
    expect(h.fecnMarked()).toBe(marked);
  });
});

it("the factory builds the part for the network, with the given parameters", () => {
  const factory = switchPartFactory(params.parse({}));
  expect(factory.specVersion).toBe(2);
  expect(factory.extraVls ?? 0).toBe(0);
  const h = harness({ ...markAll, ...single(1000) }, { viaFactory: true });
  const packets = Array.from({ length: 3 }, () => h.enqueue(0, 1, 600)); // 1800 B
  expect(h.transmit(packets[0]!, 0)).toBe(true); // 1200 B remain
  expect(h.transmit(packets[1]!, 0)).toBe(false); // 600 B remain
  expect(h.fecnMarked()).toBe(1);
  expect(h.congestionEntries()).toBe(1);
});
