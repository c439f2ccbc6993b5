import { NO_PACKET, type PacketColumn, type PacketId, Packets } from "@cclab/fabric";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { Arbiter, ArbiterLanes, ArbitrationTarget } from "./arbiter.js";
import { createArbiter, ManyLaneArbiter } from "./many-lane-arbiter.js";

/**
 * A switch reduced to what the arbiter asks: queues of packet ids per (input, VL, output), a
 * room check with a byte budget per (output, VL), and a log of grants. A granted packet makes
 * its output busy and takes a read port until `finish`.
 */
class FakeSwitch implements ArbitrationTarget {
  readonly packets = new Packets();
  readonly queues = new Map<string, PacketId[]>();
  readonly room = new Map<string, number>();
  readonly grants: { out: number; input: number; vl: number; packet: PacketId }[] = [];
  readonly blockedLog: string[] = [];
  roomAsked = 0;
  arbiter!: Arbiter;

  constructor(
    readonly portCount: number,
    readonly vlCount: number,
  ) {}

  /** With `oldest-first`: each packet's arrival, stamped by {@link add} from `clockPs`. */
  arrivedPs: PacketColumn<Float64Array<ArrayBuffer>> | undefined;
  clockPs = 0;

  add(input: number, vl: number, out: number, sizeBytes = 100): PacketId {
    const p = this.packets.create({ sizeBytes, vl });
    if (this.arrivedPs !== undefined) this.arrivedPs.values[p] = this.clockPs++;
    const key = `${input}/${vl}/${out}`;
    const queue = this.queues.get(key) ?? [];
    queue.push(p);
    this.queues.set(key, queue);
    this.arbiter.queued(input, out, vl);
    return p;
  }

  headFor(input: number, vl: number, out: number): PacketId {
    return this.queues.get(`${input}/${vl}/${out}`)?.[0] ?? NO_PACKET;
  }

  hasRoom(out: number, vl: number, sizeBytes: number): boolean {
    this.roomAsked++;
    return (this.room.get(`${out}/${vl}`) ?? Number.POSITIVE_INFINITY) >= sizeBytes;
  }

  blocked(out: number, vl: number): void {
    this.blockedLog.push(`${out}/${vl}`);
  }

  dequeue(input: number, vl: number, out: number): void {
    this.queues.get(`${input}/${vl}/${out}`)!.shift();
  }

  forward(out: number, input: number, packet: PacketId): void {
    this.grants.push({ out, input, vl: this.packets.vl[packet]!, packet });
    this.arbiter.takeReadPort(input);
    this.arbiter.outputBusy(out);
  }

  sendBuffered(): boolean {
    return false;
  }

  /** The packet `out` sends ends: the output and the input's read port are free again. */
  finish(out: number, input: number): void {
    this.arbiter.outputFree(out);
    this.arbiter.releaseReadPort(input);
  }
}

function fake(
  portCount: number,
  lanes: Partial<ArbiterLanes> = {},
  readPorts = 1,
  oldestFirst = false,
): FakeSwitch {
  const vlCount = lanes.vlCount ?? 1;
  const sw = new FakeSwitch(portCount, vlCount);
  if (oldestFirst) sw.arrivedPs = sw.packets.column("test.arrivedPs", Float64Array);
  sw.arbiter = createArbiter(
    portCount,
    { vlCount, controlVls: [], lowPriorityVls: [], ...lanes },
    readPorts,
    sw.packets,
    sw,
    sw.arrivedPs,
  );
  for (let out = 0; out < portCount; out++) sw.arbiter.outputFree(out);
  return sw;
}

describe("Arbiter", () => {
  it("grants an output round-robin over the inputs that have a packet for it", () => {
    const sw = fake(4);
    for (const input of [1, 2, 3]) for (let k = 0; k < 2; k++) sw.add(input, 0, 0);
    const order: number[] = [];
    for (let k = 0; k < 6; k++) {
      expect(sw.arbiter.serveLanes(0, false)).toBe(true);
      const g = sw.grants.at(-1)!;
      order.push(g.input);
      sw.finish(0, g.input);
    }
    expect(order).toEqual([1, 2, 3, 1, 2, 3]);
    expect(sw.arbiter.serveLanes(0, false)).toBe(false);
  });

  it("oldest-first grants an output its packets in arrival order across inputs", () => {
    const sw = fake(4, {}, 1, true);
    // Input 3 sends a burst first, then inputs 1 and 2 one packet each, then input 3 again.
    const arrivals = [3, 3, 3, 1, 2, 3];
    for (const input of arrivals) sw.add(input, 0, 0);
    const order: number[] = [];
    while (sw.arbiter.serveLanes(0, false)) {
      const g = sw.grants.at(-1)!;
      order.push(g.input);
      sw.finish(0, g.input);
    }
    expect(order).toEqual(arrivals);
  });

  test.prop(
    [
      fc.integer({ min: 2, max: 40 }),
      fc.array(fc.record({ input: fc.nat(39), size: fc.integer({ min: 64, max: 2000 }) }), {
        maxLength: 80,
      }),
    ],
    { numRuns: 100 },
  )("oldest-first serves one output as one FIFO in arrival order", (ports, adds) => {
    const sw = fake(ports, {}, 1, true);
    const sent = adds.map((a) => sw.add(a.input % ports, 0, 0, a.size));
    const granted: PacketId[] = [];
    while (sw.arbiter.serveLanes(0, false)) {
      const g = sw.grants.at(-1)!;
      granted.push(g.packet);
      sw.finish(0, g.input);
    }
    expect(granted).toEqual(sent);
  });

  it("oldest-first passes over an older head that has no room downstream", () => {
    const sw = fake(3, {}, 1, true);
    sw.add(1, 0, 0, 900);
    sw.add(2, 0, 0, 100);
    sw.room.set("0/0", 500);
    expect(sw.arbiter.serveLanes(0, false)).toBe(true);
    expect(sw.grants[0]!.input).toBe(2);
    expect(sw.blockedLog).toEqual([]);
  });

  it("serves control lanes first, data lanes by weight, low-priority lanes only when data has nothing", () => {
    // VL 0 and 1 data (weights 2 and 1), VL 2 control, VL 3 low priority.
    const sw = fake(2, { vlCount: 4, controlVls: [2], lowPriorityVls: [3], weights: [2, 1, 1, 1] });
    for (let k = 0; k < 3; k++) {
      sw.add(0, 0, 1);
      sw.add(0, 1, 1);
      sw.add(0, 3, 1);
    }
    sw.add(0, 2, 1);
    const vls: number[] = [];
    while (sw.arbiter.serveLanes(1, false)) {
      vls.push(sw.grants.at(-1)!.vl);
      sw.finish(1, 0);
    }
    expect(vls).toEqual([2, 0, 0, 1, 0, 1, 1, 3, 3, 3]);
  });

  it("a low-priority packet waits while a data packet may go, and goes when data is held", () => {
    const sw = fake(2, { vlCount: 2, lowPriorityVls: [1] });
    sw.add(0, 1, 1);
    sw.add(0, 0, 1);
    sw.room.set("1/0", 0); // the data lane has no room downstream
    expect(sw.arbiter.serveLanes(1, false)).toBe(true);
    expect(sw.grants[0]!.vl).toBe(1);
    expect(sw.blockedLog).toEqual(["1/0"]);
  });

  it("does not ask for room again for a packet no smaller than one refused", () => {
    const sw = fake(4);
    sw.add(1, 0, 0, 500);
    sw.add(2, 0, 0, 800);
    sw.add(3, 0, 0, 300);
    sw.room.set("0/0", 400);
    expect(sw.arbiter.serveLanes(0, false)).toBe(true);
    expect(sw.grants[0]!.input).toBe(3);
    expect(sw.roomAsked).toBe(2); // 500 refused, 800 skipped, 300 granted
  });

  it("a freed read port offers its heads to free outputs round-robin over outputs", () => {
    const sw = fake(4);
    sw.arbiter.takeReadPort(0); // input 0 is busy while its packets arrive
    for (const out of [1, 2, 3]) sw.add(0, 0, out);
    sw.arbiter.releaseReadPort(0);
    const outs: number[] = [];
    for (let k = 0; k < 3; k++) {
      sw.arbiter.serveInput(0);
      const g = sw.grants.at(-1)!;
      outs.push(g.out);
      sw.finish(g.out, 0);
    }
    expect(outs).toEqual([1, 2, 3]);
  });

  // The candidate walks (bit sets and counts) must pick what a scan of every input in
  // round-robin order would: the reference below is that scan, over the same queues.
  test.prop(
    [
      fc.integer({ min: 2, max: 40 }),
      fc.array(
        fc.record({
          input: fc.nat(39),
          out: fc.nat(39),
          vl: fc.nat(1),
          size: fc.integer({ min: 64, max: 2000 }),
        }),
        { maxLength: 120 },
      ),
      fc.array(fc.nat(39), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 0, max: 2000 }),
    ],
    { numRuns: 200 },
  )("grants as a full round-robin scan would", (ports, adds, serves, roomBytes) => {
    const sw = fake(ports, { vlCount: 2 });
    for (const a of adds) sw.add(a.input % ports, a.vl, a.out % ports, a.size);
    for (let out = 0; out < ports; out++) sw.room.set(`${out}/1`, roomBytes);
    const rr = new Array(ports).fill(0);
    const vlRr = new Array(ports).fill(0);
    for (const s of serves) {
      const out = s % ports;
      // Reference: data VLs round-robin from vlRr, inputs round-robin from rr.
      let expected: { input: number; vl: number } | undefined;
      for (let k = 0; k < 2 && expected === undefined; k++) {
        const vl = (vlRr[out] + k) % 2;
        for (let j = 0; j < ports; j++) {
          const input = (rr[out] + j) % ports;
          const head = sw.headFor(input, vl, out);
          if (head === NO_PACKET) continue;
          if (vl === 1 && sw.packets.sizeBytes[head]! > roomBytes) continue;
          expected = { input, vl };
          break;
        }
      }
      const before = sw.grants.length;
      sw.arbiter.serveLanes(out, false);
      if (expected === undefined) {
        expect(sw.grants.length).toBe(before);
        continue;
      }
      const g = sw.grants.at(-1)!;
      expect({ input: g.input, vl: g.vl }).toEqual(expected);
      rr[out] = (g.input + 1) % ports;
      vlRr[out] = (g.vl + 1) % 2;
      sw.finish(out, g.input);
    }
  });

  // With more than 16 VLs (VOQnet's lane per destination) switches use ManyLaneArbiter, whose
  // crossbar stage walks only the data VLs with packets waiting for the output: it must grant as
  // the walk over every lane would, with control lanes, weights and low-priority lanes.
  test.prop(
    [
      fc.integer({ min: 17, max: 70 }),
      fc.integer({ min: 2, max: 6 }),
      // Most packets on a few busy VLs (so weights and the pointer matter), some on any VL.
      fc.uniqueArray(fc.nat(69), { minLength: 1, maxLength: 6 }),
      fc.array(
        fc.record({
          input: fc.nat(5),
          out: fc.nat(5),
          vl: fc.oneof(fc.nat(69), fc.integer({ min: -6, max: -1 })),
          size: fc.integer({ min: 64, max: 2000 }),
        }),
        { maxLength: 200 },
      ),
      fc.array(fc.nat(5), { minLength: 1, maxLength: 80 }),
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 70, maxLength: 70 }),
      fc.uniqueArray(fc.nat(69), { maxLength: 4 }),
      fc.integer({ min: 0, max: 2000 }),
    ],
    { numRuns: 150 },
  )(
    "with many VLs grants as a walk over every lane would",
    (vlCount, ports, busy, adds, serves, w, special, roomBytes) => {
      const lanesOf = special.map((vl) => vl % vlCount).filter((vl, i, a) => a.indexOf(vl) === i);
      const controlVls = lanesOf.slice(0, 2);
      const lowPriorityVls = lanesOf.slice(2);
      const weights = w.slice(0, vlCount);
      const sw = fake(ports, { vlCount, controlVls, lowPriorityVls, weights });
      expect(sw.arbiter).toBeInstanceOf(ManyLaneArbiter);
      for (const a of adds) {
        const vl = a.vl < 0 ? busy[-a.vl % busy.length]! : a.vl;
        sw.add(a.input % ports, vl % vlCount, a.out % ports, a.size);
      }
      // Every third VL has a room limit downstream.
      const room = (vl: number) => (vl % 3 === 0 ? roomBytes : Number.POSITIVE_INFINITY);
      for (let out = 0; out < ports; out++) {
        for (let vl = 0; vl < vlCount; vl += 3) sw.room.set(`${out}/${vl}`, roomBytes);
      }
      const dataVls = Array.from({ length: vlCount }, (_, vl) => vl).filter(
        (vl) => !lanesOf.includes(vl),
      );
      const rr = new Array(ports).fill(0);
      const pointer = new Array(ports).fill(0);
      const served = new Array(ports).fill(0);
      const firstInput = (out: number, vl: number) => {
        for (let i = 0; i < ports; i++) {
          const input = (rr[out] + i) % ports;
          const head = sw.headFor(input, vl, out);
          if (head !== NO_PACKET && sw.packets.sizeBytes[head]! <= room(vl)) return input;
        }
        return undefined;
      };
      for (const s of serves) {
        const out = s % ports;
        let expected: { input: number; vl: number } | undefined;
        for (const vl of controlVls) {
          const input = firstInput(out, vl);
          if (input !== undefined) {
            expected = { input, vl };
            break;
          }
        }
        for (let k = 0; expected === undefined && k < dataVls.length; k++) {
          const j = (pointer[out] + k) % dataVls.length;
          const vl = dataVls[j]!;
          const input = firstInput(out, vl);
          if (input === undefined) continue;
          expected = { input, vl };
          const count = k === 0 ? served[out] + 1 : 1;
          if (count >= weights[vl]!) {
            pointer[out] = (j + 1) % dataVls.length;
            served[out] = 0;
          } else {
            pointer[out] = j;
            served[out] = count;
          }
        }
        for (const vl of lowPriorityVls) {
          if (expected !== undefined) break;
          const input = firstInput(out, vl);
          if (input !== undefined) expected = { input, vl };
        }
        const before = sw.grants.length;
        expect(sw.arbiter.serveLanes(out, false)).toBe(expected !== undefined);
        if (expected === undefined) {
          expect(sw.grants.length).toBe(before);
          continue;
        }
        const g = sw.grants.at(-1)!;
        expect({ input: g.input, vl: g.vl }).toEqual(expected);
        rr[out] = (g.input + 1) % ports;
        sw.finish(out, g.input);
      }
    },
  );
});
