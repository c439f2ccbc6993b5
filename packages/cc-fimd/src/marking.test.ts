import { describe, expect, it } from "vitest";
import { MarkingCounters } from "./marking.js";

// A switch of 4 ports: inputs 0–2, output 3 the root, output 2 elsewhere.
const ROOT = 3;
const OTHER = 2;

describe("MarkingCounters (seed 002 L72–158)", () => {
  it("naive: a full input marks the packets it holds, and no other input's", () => {
    const c = new MarkingCounters(4, "naive", 8, "all");
    c.arrived(1, ROOT, false); // another input's packet for the root
    c.arrived(0, ROOT, false);
    c.arrived(0, OTHER, false);
    c.arrived(0, ROOT, true); // input 0 is full: its 3 packets are marked as they leave
    expect(c.inputTriggers).toBe(1);
    expect(c.departs(1, ROOT)).toBe(false);
    expect([c.departs(0, ROOT), c.departs(0, OTHER), c.departs(0, ROOT)]).toEqual([
      true,
      true,
      true,
    ]);
    c.arrived(0, ROOT, false);
    expect(c.departs(0, ROOT)).toBe(false);
  });

  it("input-triggered, roots all: every packet in the switch headed to a full buffer's outputs", () => {
    const c = new MarkingCounters(4, "input", 8, "all");
    c.arrived(1, ROOT, false); // at another input, headed to the root: marked too
    c.arrived(2, 0, false); // headed to an output nobody in the full buffer wants: not marked
    c.arrived(0, ROOT, false);
    c.arrived(0, ROOT, true);
    expect(c.packetsHeadedTo(ROOT)).toBe(3);
    expect(c.packetsToMark(ROOT)).toBe(3);
    expect(c.departs(2, 0)).toBe(false);
    expect([c.departs(1, ROOT), c.departs(0, ROOT), c.departs(0, ROOT)]).toEqual([
      true,
      true,
      true,
    ]);
    // A packet that arrives after the event is not marked.
    c.arrived(1, ROOT, false);
    expect(c.departs(1, ROOT)).toBe(false);
  });

  it("input-triggered, roots oldest: only the output of the full buffer's oldest packet", () => {
    const c = new MarkingCounters(4, "input", 8, "oldest");
    c.arrived(1, ROOT, false); // at another input, headed to the root: marked too
    c.arrived(1, OTHER, false); // behind it, headed elsewhere: not marked
    c.arrived(0, ROOT, false); // input 0's oldest packet, the one that blocks it
    c.arrived(0, OTHER, true); // input 0 is full; OTHER is not a root
    expect(c.packetsToMark(ROOT)).toBe(2);
    expect(c.packetsToMark(OTHER)).toBe(0);
    expect([c.departs(1, ROOT), c.departs(1, OTHER), c.departs(0, ROOT)]).toEqual([
      true,
      false,
      true,
    ]);
    // Input 0 now holds one packet for OTHER: full again, OTHER is its oldest and a root.
    c.arrived(0, OTHER, false);
    c.arrived(0, ROOT, true);
    expect(c.packetsToMark(OTHER)).toBe(2);
    expect(c.packetsToMark(ROOT)).toBe(0);
    // Out of order (a VOQ input): the one for ROOT leaves first; OTHER stays the oldest.
    expect(c.departs(0, ROOT)).toBe(false);
    c.arrived(0, ROOT, true);
    expect(c.packetsToMark(OTHER)).toBe(2);
    expect(c.packetsToMark(ROOT)).toBe(0);
  });

  it("input-triggered without a full buffer, or with marking off: no marks", () => {
    for (const marking of ["input", "none"] as const) {
      const c = new MarkingCounters(4, marking, 1, "all");
      for (let i = 0; i < 20; i++) c.arrived(i % 3, ROOT, marking === "none");
      for (let i = 0; i < 20; i++) expect(c.departs(i % 3, ROOT)).toBe(false);
    }
  });

  it("input-output: more than the threshold headed to one output marks them all", () => {
    const c = new MarkingCounters(4, "input-output", 2, "oldest");
    c.arrived(0, ROOT, false);
    c.arrived(1, ROOT, false);
    expect(c.outputTriggers).toBe(0);
    c.arrived(2, ROOT, false); // 3 > 2
    expect(c.outputTriggers).toBe(1);
    expect(c.packetsToMark(ROOT)).toBe(3);
    expect([c.departs(0, ROOT), c.departs(1, ROOT), c.departs(2, ROOT)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(c.packetsHeadedTo(ROOT)).toBe(0);
    // And a full input still triggers (L158).
    c.arrived(0, OTHER, true);
    expect(c.inputTriggers).toBe(1);
    expect(c.departs(0, OTHER)).toBe(true);
  });
});
