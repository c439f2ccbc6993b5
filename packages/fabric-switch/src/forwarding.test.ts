import { createRng } from "@cclab/core-des";
import { Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { flowHashModulo } from "./flow-hash.js";
import { Forwarding } from "./forwarding.js";

const up = [4, 5, 6, 7];
const table = (selection: "first" | "flow-hash" | "random") => ({
  candidates: [[0], [1], up, up, []],
  selection,
});

function packet(packets: Packets, dstHost: number, flowId = 0) {
  return packets.create({ dstHost, flowId });
}

describe("Forwarding", () => {
  it("sends a destination with one port there, and knows no port for an unroutable one", () => {
    const packets = new Packets();
    const f = new Forwarding(table("first"), 3, createRng(1).split("r"));
    expect(f.outPort(packets, packet(packets, 1))).toBe(1);
    expect(f.outPort(packets, packet(packets, 2))).toBe(4); // `first` of several
    expect(f.outPort(packets, packet(packets, 4))).toBe(-1); // empty list
    expect(f.outPort(packets, packet(packets, 9))).toBe(-1); // no such host
    expect(f.outPort(packets, packet(packets, -1))).toBe(-1); // link-local
  });

  it("hashes a flow to one of its ports, the same one every time", () => {
    const packets = new Packets();
    const f = new Forwarding(table("flow-hash"), 3, createRng(1).split("r"));
    for (let flow = 0; flow < 50; flow++) {
      const port = f.outPort(packets, packet(packets, 3, flow));
      expect(port).toBe(up[flowHashModulo(flow, 3, 4)]);
      expect(f.outPort(packets, packet(packets, 3, flow))).toBe(port);
    }
  });

  it("picks a random port per packet, every port in time", () => {
    const packets = new Packets();
    const f = new Forwarding(table("random"), 0, createRng(7).split("r"));
    const seen = new Set<number>();
    for (let k = 0; k < 200; k++) seen.add(f.outPort(packets, packet(packets, 2)));
    expect([...seen].sort()).toEqual(up);
  });
});
