import { Packets, type SwitchPart } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { combineParts, droppersByVl, type InstalledSwitchPart } from "./switch-parts.js";

const installed = (
  part: SwitchPart,
  vls: readonly number[] | "all" = "all",
  droppableVls: readonly number[] | "all" = "all",
  label = "part",
): InstalledSwitchPart => ({ part, vls, droppableVls, label });

describe("switch parts", () => {
  it("runs one part that sees every lane as itself", () => {
    const part: SwitchPart = { onEnqueue: () => {} };
    expect(combineParts([installed(part)], new Packets(), 2)).toBe(part);
    expect(combineParts([], new Packets(), 2)).toBeUndefined();
  });

  it("calls several parts in order, each for the packets of its lanes, and sums their counters", () => {
    const packets = new Packets();
    const calls: string[] = [];
    const a: SwitchPart = { onEnqueue: (p) => calls.push(`a${p}`), counters: () => ({ marks: 2 }) };
    const b: SwitchPart = {
      onEnqueue: (p) => calls.push(`b${p}`),
      onTransmit: (p) => calls.push(`bt${p}`),
      counters: () => ({ marks: 3, drops: 1 }),
    };
    const chain = combineParts([installed(a, [0]), installed(b, "all")], packets, 2)!;
    const onVl0 = packets.create({ vl: 0 });
    const onVl1 = packets.create({ vl: 1 });
    chain.onEnqueue!(onVl0, 0);
    chain.onEnqueue!(onVl1, 0);
    chain.onTransmit!(onVl0, 0, 1);
    expect(calls).toEqual([`a${onVl0}`, `b${onVl0}`, `b${onVl1}`, `bt${onVl0}`]);
    expect(chain.onDequeue).toBeUndefined(); // no part has it: the switch pays nothing
    expect(chain.counters!()).toEqual({ marks: 5, drops: 1 });
  });

  it("reads every part's queue samples, and has no sampleQueues when no part has one", () => {
    const a: SwitchPart = { sampleQueues: (visit) => visit(1, 0, "state", 2) };
    const b: SwitchPart = { onEnqueue: () => {} };
    const c: SwitchPart = { sampleQueues: (visit) => visit(3, 1, "depth", 7) };
    const chain = combineParts(
      [installed(a, [0]), installed(b), installed(c, [1])],
      new Packets(),
      2,
    )!;
    const seen: string[] = [];
    chain.sampleQueues!((out, vl, variable, value) =>
      seen.push(`${out}/${vl} ${variable}=${value}`),
    );
    expect(seen).toEqual(["1/0 state=2", "3/1 depth=7"]);
    const plain = combineParts([installed(b, [0]), installed(b, [1])], new Packets(), 2)!;
    expect(plain.sampleQueues).toBeUndefined();
  });

  it("asks each VL's one dropper, and refuses two parts dropping on one VL", () => {
    const drop = { dropAtHead: () => true };
    const droppers = droppersByVl([installed({}), installed(drop, "all", [2])], 3, "S");
    expect(droppers).toEqual([undefined, undefined, drop]);
    expect(droppersByVl([installed({})], 3, "S")).toBeUndefined();
    expect(() =>
      droppersByVl(
        [
          installed(drop, "all", "all", 'switch part "x"'),
          installed({ dropAtHead: () => false }, [1], "all", 'switch part "y"'),
        ],
        3,
        "S",
      ),
    ).toThrow(/switch part "x" and switch part "y" would both drop packets of VL 1 at switch S/);
  });
});
