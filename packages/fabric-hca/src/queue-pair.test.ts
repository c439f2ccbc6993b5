import { describe, expect, it } from "vitest";
import { QueuePair } from "./queue-pair.js";

describe("QueuePair", () => {
  it("cuts its messages into packets in order, copying each head's fields", () => {
    const qp = new QueuePair(7, 3, 1, 1);
    qp.push(10, 2500, 100);
    qp.push(11, 300, 200);
    expect([qp.headId, qp.headBytes, qp.headCreatedPs, qp.queuedBytes]).toEqual([
      10, 2500, 100, 2800,
    ]);
    const cut: [number, number, boolean][] = [];
    while (qp.queuedBytes > 0) {
      const id = qp.headId;
      const payload = qp.nextPayloadBytes(1000);
      cut.push([id, payload, qp.advance(payload)]);
    }
    expect(cut).toEqual([
      [10, 1000, false],
      [10, 1000, false],
      [10, 500, true],
      [11, 300, true],
    ]);
    expect([qp.injectedBytes, qp.sentOfHead, qp.messages.length]).toEqual([2800, 0, 0]);
  });

  it("takes a message into an emptied queue as its new head", () => {
    const qp = new QueuePair(0, 1, 0, 0);
    qp.push(1, 100, 5);
    qp.advance(100);
    qp.push(2, 40, 9);
    expect([qp.headId, qp.headBytes, qp.headCreatedPs]).toEqual([2, 40, 9]);
    expect(qp.nextPayloadBytes(1000)).toBe(40);
  });
});
