import { Scheduler } from "@cclab/core-des";
import { type FlowGate, LinkSet, Packets } from "@cclab/fabric";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { QueuePair } from "./queue-pair.js";
import { SendScheduler } from "./send-scheduler.js";

const MTU_BYTES = 1000;
const HEADER_BYTES = 26;

// A send scheduler on the uplink of a LinkSet, credit flow control, `creditBlocks` on each VL.
function uplink({
  vlCount = 1,
  oldestFirst = false,
  creditBlocks = 1000,
  lowPriorityVls = [] as number[],
} = {}) {
  const links = new LinkSet(new Scheduler(), new Packets(), vlCount, "credit");
  const link = links.add(10, 1000);
  link.flow.credits.fill(creditBlocks);
  const sending = new SendScheduler({
    vlCount,
    mtuBytes: MTU_BYTES,
    headerBytes: HEADER_BYTES,
    oldestFirst,
    links,
    lowPriorityVls,
  });
  sending.attach(link.index, link.flow);
  return { sending, link };
}

// A queue pair (flow `flowId`, on `vl`) holding messages [id, bytes, createdPs].
function queuePair(flowId: number, messages: [number, number, number][], vl = 0): QueuePair {
  const qp = new QueuePair(flowId, flowId, vl, vl);
  for (const [id, bytes, createdPs] of messages) qp.push(id, bytes, createdPs);
  return qp;
}

// A gate that holds its flow until `holdUntilPs` and counts how often it is asked.
function countingGate(holdUntilPs = 0): FlowGate & { asked: number; holdUntilPs: number } {
  const gate = {
    asked: 0,
    holdUntilPs,
    nextSendPs(nowPs: number) {
      gate.asked++;
      return Math.max(nowPs, gate.holdUntilPs);
    },
  };
  return gate;
}

// What the host does with a pick: takes the next packet's payload from the queue pair.
function sendNext(sending: SendScheduler, nowPs: number): QueuePair | undefined {
  const qp = sending.pick(nowPs);
  if (qp === undefined) return undefined;
  qp.advance(qp.nextPayloadBytes(MTU_BYTES));
  sending.sent(qp);
  return qp;
}

function drain(sending: SendScheduler, nowPs: number): number[] {
  const order: number[] = [];
  for (let qp = sendNext(sending, nowPs); qp !== undefined; qp = sendNext(sending, nowPs)) {
    order.push(qp.flowId);
  }
  return order;
}

describe("SendScheduler", () => {
  it("serves the queue pairs round-robin, packet by packet", () => {
    const { sending } = uplink();
    sending.activate(queuePair(1, [[0, 2 * MTU_BYTES, 0]]));
    sending.activate(queuePair(2, [[1, 3 * MTU_BYTES, 0]]));
    sending.activate(queuePair(3, [[2, MTU_BYTES, 0]]));
    expect(drain(sending, 0)).toEqual([1, 2, 3, 1, 2, 2]);
    expect(sending.hasWaiting()).toBe(false);
  });

  it("oldest-first picks the queue pair whose head message arrived first", () => {
    const { sending } = uplink({ oldestFirst: true });
    sending.activate(
      queuePair(1, [
        [0, MTU_BYTES, 20],
        [3, MTU_BYTES, 40],
      ]),
    );
    sending.activate(queuePair(2, [[1, MTU_BYTES, 10]]));
    sending.activate(queuePair(3, [[2, 2 * MTU_BYTES, 30]]));
    expect(drain(sending, 50)).toEqual([2, 1, 3, 3, 1]);
  });

  it("parks a queue pair its gate holds back and takes it back at the gate's time", () => {
    const { sending } = uplink();
    const held = queuePair(1, [[0, MTU_BYTES, 0]]);
    held.gate = countingGate(5000);
    sending.activate(held);
    sending.activate(queuePair(2, [[1, 2 * MTU_BYTES, 0]]));
    expect(drain(sending, 0)).toEqual([2, 2]);
    expect(sending.parkedCount).toBe(1);
    expect(sending.parkedFirstPs).toBe(5000);
    expect(sending.pick(4999)).toBeUndefined();
    expect(drain(sending, 5000)).toEqual([1]);
    expect(sending.parkedFirstPs).toBe(Number.POSITIVE_INFINITY);
    expect(sending.hasWaiting()).toBe(false);
  });

  it("does not ask the gates again while the blocked uplink's room has not grown", () => {
    // One credit block: room for the smallest packet, so the decision scans, but not for the
    // 526-byte packets the queue pairs hold.
    const { sending, link } = uplink({ creditBlocks: 1 });
    const gates = [countingGate(), countingGate(), countingGate()];
    gates.forEach((gate, k) => {
      const qp = queuePair(k, [[k, 500, 0]]);
      qp.gate = gate;
      sending.activate(qp);
    });
    const asked = () => gates.reduce((sum, gate) => sum + gate.asked, 0);
    expect(sending.pick(0)).toBeUndefined();
    expect(asked()).toBe(3);
    expect(link.flow.isBlocked(0)).toBe(true);
    for (let t = 1; t < 10; t++) expect(sending.pick(t)).toBeUndefined();
    expect(asked()).toBe(3);
    // No room even for the smallest packet: over without a scan.
    link.flow.credits[0] = 0;
    expect(sending.pick(10)).toBeUndefined();
    expect(asked()).toBe(3);
    link.flow.credits[0] = 9;
    expect(sending.pick(11)?.flowId).toBe(0);
    expect(asked()).toBe(4);
  });

  it("moves a queue pair between the VLs' counts when its VL changes", () => {
    const { sending } = uplink({ vlCount: 3 });
    const qp = queuePair(1, [[0, 300, 0]]);
    sending.activate(qp);
    expect([sending.rotationCountOn(0), sending.shortCountOn(0)]).toEqual([1, 1]);
    sending.setVl(qp, 2);
    expect([sending.rotationCountOn(0), sending.rotationCountOn(2)]).toEqual([0, 1]);
    expect(sending.shortCountOn(2)).toBe(1);
    expect(qp.vl).toBe(2);
  });
});

type Op =
  | { op: "message"; qp: number; bytes: number }
  | { op: "send" }
  | { op: "setVl"; qp: number; vl: number }
  | { op: "hold"; qp: number; forPs: number }
  | { op: "credits"; vl: number; blocks: number }
  | { op: "time"; ps: number }
  | { op: "unparkAll" };

const QUEUE_PAIRS = 5;
const VLS = 3;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("message" as const),
    qp: fc.nat(QUEUE_PAIRS - 1),
    bytes: fc.integer({ min: 1, max: 3 * MTU_BYTES }),
  }),
  fc.record({ op: fc.constant("send" as const) }),
  fc.record({
    op: fc.constant("setVl" as const),
    qp: fc.nat(QUEUE_PAIRS - 1),
    vl: fc.nat(VLS - 1),
  }),
  fc.record({ op: fc.constant("hold" as const), qp: fc.nat(QUEUE_PAIRS - 1), forPs: fc.nat(300) }),
  fc.record({ op: fc.constant("credits" as const), vl: fc.nat(VLS - 1), blocks: fc.nat(40) }),
  fc.record({ op: fc.constant("time" as const), ps: fc.nat(200) }),
  fc.record({ op: fc.constant("unparkAll" as const) }),
);

test.prop([fc.array(opArb, { minLength: 40, maxLength: 200 }), fc.boolean()], { numRuns: 150 })(
  "the per-VL rotation counts match a recount whatever moves, parks and sends",
  (ops, oldestFirst) => {
    const { sending, link } = uplink({ vlCount: VLS, oldestFirst, creditBlocks: 40 });
    const gates = Array.from({ length: QUEUE_PAIRS }, () => countingGate());
    const qps = gates.map((gate, k) => {
      const qp = new QueuePair(k, k, k % VLS, k % VLS);
      qp.gate = gate;
      return qp;
    });
    let now = 0;
    let nextId = 0;
    for (const step of ops) {
      if (step.op === "message") {
        const qp = qps[step.qp]!;
        qp.push(nextId++, step.bytes, now);
        if (!qp.active) sending.activate(qp);
      } else if (step.op === "send") sendNext(sending, now);
      else if (step.op === "setVl") sending.setVl(qps[step.qp]!, step.vl);
      else if (step.op === "hold") gates[step.qp]!.holdUntilPs = now + step.forPs;
      else if (step.op === "credits") link.flow.credits[step.vl] = step.blocks;
      else if (step.op === "time") now += step.ps;
      else sending.unparkAll();
      const members = sending.rotationMembers();
      for (let vl = 0; vl < VLS; vl++) {
        const on = members.filter((qp) => qp.vl === vl);
        expect(sending.rotationCountOn(vl)).toBe(on.length);
        expect(sending.shortCountOn(vl)).toBe(on.filter((qp) => qp.shortHead).length);
      }
      for (const qp of members) {
        expect(qp.shortHead).toBe(qp.nextPayloadBytes(MTU_BYTES) < MTU_BYTES);
      }
      expect(new Set(members).size).toBe(members.length);
      const active = qps.filter((qp) => qp.active);
      expect(members.length + sending.parkedCount).toBe(active.length);
      for (const qp of qps) expect(qp.active).toBe(qp.queuedBytes > 0);
    }
  },
);

describe("low-priority lanes", () => {
  it("send only when no queue pair on another lane may, round-robin within each", () => {
    const { sending } = uplink({ vlCount: 2, lowPriorityVls: [1] });
    const low = [queuePair(1, [[1, 2000, 0]], 1), queuePair(2, [[2, 1000, 0]], 1)];
    const normal = [queuePair(3, [[3, 2000, 0]], 0), queuePair(4, [[4, 1000, 0]], 0)];
    for (const qp of [low[0]!, normal[0]!, low[1]!, normal[1]!]) sending.activate(qp);
    expect(drain(sending, 0)).toEqual([3, 4, 3, 1, 2, 1]);
    // A normal lane without credits lets the low-priority lane go.
    const held = uplink({ vlCount: 2, lowPriorityVls: [1], creditBlocks: 1000 });
    held.link.flow.credits[held.link.index * 2] = 0;
    held.sending.activate(queuePair(5, [[5, 1000, 0]], 0));
    held.sending.activate(queuePair(6, [[6, 1000, 0]], 1));
    expect(drain(held.sending, 0)).toEqual([6]);
  });
});
