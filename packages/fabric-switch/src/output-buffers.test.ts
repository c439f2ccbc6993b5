import { describe, expect, it } from "vitest";
import { OutputBuffers } from "./output-buffers.js";

describe("OutputBuffers", () => {
  it("counts a packet from the start of its crossing until it leaves on the link, in order per VL", () => {
    const out = new OutputBuffers(2, 2, 3000, null);
    expect(out.hasRoom(1, 0, 3000)).toBe(true);
    out.startCrossing(1, 0, 7, 0, 2000, 0);
    expect(out.isCrossing(1)).toBe(true);
    expect(out.crossingFrom(1)).toBe(0);
    expect(out.hasRoom(1, 0, 1001)).toBe(false); // 2000 B already counted while it crosses
    expect(out.hasRoom(1, 1, 3000)).toBe(true); // the other VL has its own buffer
    expect(out.endCrossing(1, 0)).toBe(7);
    expect(out.isCrossing(1)).toBe(false);
    out.startCrossing(1, 0, 8, 0, 1000, 10);
    out.endCrossing(1, 0);
    expect(out.head(1, 0)).toBe(7);
    out.shift(1, 0);
    out.sent(1, 0, 2000, 20);
    expect(out.head(1, 0)).toBe(8);
    expect(out.bytes[1 * 2 + 0]).toBe(1000);
    expect(out.maxBytes(1, 0)).toBe(3000);
  });
});
