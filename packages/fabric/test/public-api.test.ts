import * as fabric from "@cclab/fabric";
import { expect, it } from "vitest";

it("resolves @cclab/fabric to its sources and exports the contract", () => {
  expect(fabric.CONTRACT_VERSION).toBe("3.5.0");
  expect(Object.keys(fabric)).toEqual(
    expect.arrayContaining([
      "Ecn",
      "Fifo",
      "Link",
      "LinkSet",
      "Packets",
      "IntFifo",
      "PortFlowState",
      "assertSpecVersion",
      "creditBlocks",
      "pfcHeadroomBytes",
      "queueValueLabelErrors",
    ]),
  );
  expect(() => fabric.assertSpecVersion("x", { specVersion: 0 })).toThrow(/specVersion 0/);
  const packets = new fabric.Packets();
  expect(packets.ecn[packets.alloc()]).toBe(fabric.Ecn.notCapable);
});
