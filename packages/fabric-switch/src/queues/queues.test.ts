import { NO_PACKET, type PacketId, Packets } from "@cclab/fabric";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { SingleQueue } from "./single-queue.js";
import { VoqPerDestination } from "./voq-destination.js";
import { VoqPerOutput } from "./voq-port.js";

const packets = new Packets();

function packet(id: number, dstHost: number, outPort: number): PacketId {
  const p = packets.create({ messageId: id, dstHost });
  packets.outPort[p] = outPort;
  return p;
}

const messageOf = (p: PacketId): number | undefined =>
  p === NO_PACKET ? undefined : packets.messageId[p];

describe("queue sets", () => {
  it("1Q: a head for a blocked output hides everything behind it (HOL blocking)", () => {
    const q = new SingleQueue(packets);
    q.enqueue(packet(1, 0, 0));
    q.enqueue(packet(2, 1, 1));
    expect(q.headFor(1)).toBe(NO_PACKET);
    expect(messageOf(q.headFor(0))).toBe(1);
    q.dequeueFor(0);
    expect(messageOf(q.headFor(1))).toBe(2);
  });

  it("VOQ per output: each output sees its own head", () => {
    const q = new VoqPerOutput(3, packets);
    q.enqueue(packet(1, 0, 0));
    q.enqueue(packet(2, 1, 1));
    expect(messageOf(q.headFor(1))).toBe(2);
    expect(q.headFor(2)).toBe(NO_PACKET);
    expect(q.packetCount).toBe(2);
  });

  it("VOQ per destination: destinations sharing an output take turns", () => {
    const q = new VoqPerDestination(4, packets);
    q.enqueue(packet(1, 2, 0));
    q.enqueue(packet(2, 2, 0));
    q.enqueue(packet(3, 3, 0));
    q.enqueue(packet(4, 1, 1));
    const order = [q.dequeueFor(0), q.dequeueFor(0), q.dequeueFor(0)].map(messageOf);
    expect(order).toEqual([1, 3, 2]);
    expect(messageOf(q.headFor(1))).toBe(4);
  });
});

// Every queue set keeps each destination's packets in arrival order (per-flow order under
// deterministic routing) and loses none. (VOQnet may reorder across destinations.)
test.prop(
  [
    fc.constantFrom("1q", "voq-port", "voq-dest"),
    fc.array(fc.tuple(fc.nat(3), fc.nat(5)), { minLength: 1, maxLength: 60 }),
  ],
  { numRuns: 200 },
)("queue sets keep per-destination order and lose nothing", (kind, arrivals) => {
  const q =
    kind === "1q"
      ? new SingleQueue(packets)
      : kind === "voq-port"
        ? new VoqPerOutput(4, packets)
        : new VoqPerDestination(6, packets);
  // Deterministic routing: a destination always maps to one output.
  arrivals.forEach(([_, dst], i) => {
    q.enqueue(packet(i, dst, dst % 4));
  });
  const seen: number[][] = [[], [], [], [], [], []];
  let guard = 0;
  while (q.packetCount > 0 && guard++ < 1000) {
    for (let out = 0; out < 4; out++) {
      if (q.headFor(out) !== NO_PACKET) {
        const p = q.dequeueFor(out);
        seen[packets.dstHost[p]!]!.push(packets.messageId[p]!);
      }
    }
  }
  expect(q.packetCount).toBe(0);
  expect(seen.flat().sort((a, b) => a - b)).toEqual(arrivals.map((_, i) => i));
  for (const ids of seen) expect(ids).toEqual([...ids].sort((a, b) => a - b));
});
