import { Packet } from "@cclab/fabric";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { SingleQueue } from "./single-queue.js";
import { VoqPerDestination } from "./voq-destination.js";
import { VoqPerOutput } from "./voq-port.js";

function packet(id: number, dstHost: number, outPort: number): Packet {
  const p = new Packet();
  p.messageId = id;
  p.dstHost = dstHost;
  p.outPort = outPort;
  return p;
}

describe("queue sets", () => {
  it("1Q: a head for a blocked output hides everything behind it (HOL blocking)", () => {
    const q = new SingleQueue();
    q.enqueue(packet(1, 0, 0));
    q.enqueue(packet(2, 1, 1));
    expect(q.headFor(1)).toBeUndefined();
    expect(q.headFor(0)?.messageId).toBe(1);
    q.dequeueFor(0);
    expect(q.headFor(1)?.messageId).toBe(2);
  });

  it("VOQ per output: each output sees its own head", () => {
    const q = new VoqPerOutput(3);
    q.enqueue(packet(1, 0, 0));
    q.enqueue(packet(2, 1, 1));
    expect(q.headFor(1)?.messageId).toBe(2);
    expect(q.headFor(2)).toBeUndefined();
    expect(q.packetCount).toBe(2);
  });

  it("VOQ per destination: destinations sharing an output take turns", () => {
    const q = new VoqPerDestination(4);
    q.enqueue(packet(1, 2, 0));
    q.enqueue(packet(2, 2, 0));
    q.enqueue(packet(3, 3, 0));
    q.enqueue(packet(4, 1, 1));
    const order = [q.dequeueFor(0), q.dequeueFor(0), q.dequeueFor(0)].map((p) => p.messageId);
    expect(order).toEqual([1, 3, 2]);
    expect(q.headFor(1)?.messageId).toBe(4);
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
      ? new SingleQueue()
      : kind === "voq-port"
        ? new VoqPerOutput(4)
        : new VoqPerDestination(6);
  // Deterministic routing: a destination always maps to one output.
  arrivals.forEach(([_, dst], i) => {
    q.enqueue(packet(i, dst, dst % 4));
  });
  const seen: number[][] = [[], [], [], [], [], []];
  let guard = 0;
  while (q.packetCount > 0 && guard++ < 1000) {
    for (let out = 0; out < 4; out++) {
      if (q.headFor(out) !== undefined) {
        const p = q.dequeueFor(out);
        seen[p.dstHost]!.push(p.messageId);
      }
    }
  }
  expect(q.packetCount).toBe(0);
  expect(seen.flat().sort((a, b) => a - b)).toEqual(arrivals.map((_, i) => i));
  for (const ids of seen) expect(ids).toEqual([...ids].sort((a, b) => a - b));
});
