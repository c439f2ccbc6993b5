import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { flowIdOf } from "./flow-id.js";
import { Reassembly } from "./reassembly.js";

const MTU_BYTES = 1000;
// Host 1 of 200 with 2 VLs: sources 130·2 + sl and 199·2 + sl sit in the second page.
const HOST = 1;
const HOST_COUNT = 200;
const VL_COUNT = 2;

interface Sent {
  readonly src: number;
  readonly sl: number;
  readonly id: number;
  readonly payload: number;
  readonly messageBytes: number;
}

// The packets of messages [src, sl, bytes] (message k has id k), in the order they were sent.
function packetsOf(messages: readonly (readonly [number, number, number])[]): Sent[] {
  const packets: Sent[] = [];
  messages.forEach(([src, sl, bytes], id) => {
    for (let at = 0; at < bytes; at += MTU_BYTES) {
      packets.push({ src, sl, id, payload: Math.min(MTU_BYTES, bytes - at), messageBytes: bytes });
    }
  });
  return packets;
}

// Feeds `packets` in order; returns the ids of the messages completed, in completion order.
function feed(reassembly: Reassembly, packets: readonly Sent[]): number[] {
  const completed: number[] = [];
  for (const p of packets) {
    if (reassembly.receive(p.src, p.sl, p.id, p.payload, p.messageBytes)) completed.push(p.id);
  }
  return completed;
}

describe("Reassembly", () => {
  it("completes in-order messages at their last packet and counts bytes per flow", () => {
    const reassembly = new Reassembly(HOST, HOST_COUNT, VL_COUNT);
    const packets = packetsOf([
      [0, 0, 2500],
      [0, 0, 700],
      [130, 1, 1000],
    ]);
    const completedAt: number[] = [];
    packets.forEach((p, k) => {
      if (reassembly.receive(p.src, p.sl, p.id, p.payload, p.messageBytes)) completedAt.push(k);
    });
    expect(completedAt).toEqual([2, 3, 4]);
    expect([...reassembly.deliveredBytesByFlow()]).toEqual([
      [flowIdOf(0, HOST, 0, HOST_COUNT, VL_COUNT), 3200],
      [flowIdOf(130, HOST, 1, HOST_COUNT, VL_COUNT), 1000],
    ]);
  });
});

const message = fc.tuple(
  fc.constantFrom(0, 2, 130, 199),
  fc.nat(VL_COUNT - 1),
  fc.integer({ min: 1, max: 3500 }),
);
const reordered = fc.array(message, { minLength: 1, maxLength: 12 }).chain((messages) => {
  const packets = packetsOf(messages);
  return fc.tuple(
    fc.constant(messages),
    fc.shuffledSubarray(packets, { minLength: packets.length, maxLength: packets.length }),
  );
});

test.prop([reordered], { numRuns: 300 })(
  "whatever order packets arrive in, each message completes once, at its last packet",
  ([messages, packets]) => {
    const reassembly = new Reassembly(HOST, HOST_COUNT, VL_COUNT);
    const completed = feed(reassembly, packets);
    expect([...completed].sort((a, b) => a - b)).toEqual(messages.map((_, id) => id));
    // Each completes when the last of its packets has arrived: its bytes are all in.
    const lastArrival = new Map<number, number>();
    packets.forEach((p, k) => {
      lastArrival.set(p.id, k);
    });
    const order = [...lastArrival.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    expect(completed).toEqual(order);
    const delivered = new Map<number, number>();
    for (const [src, sl, bytes] of messages) {
      const flow = flowIdOf(src, HOST, sl, HOST_COUNT, VL_COUNT);
      delivered.set(flow, (delivered.get(flow) ?? 0) + bytes);
    }
    expect(reassembly.deliveredBytesByFlow()).toEqual(delivered);
  },
);
