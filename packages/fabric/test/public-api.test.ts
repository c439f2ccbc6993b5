import * as fabric from "@cclab/fabric";
import { expect, it } from "vitest";

it("resolves @cclab/fabric to its sources and exports the contract", () => {
  expect(fabric.SPEC_VERSION).toBe(1);
  expect(Object.keys(fabric)).toEqual(
    expect.arrayContaining([
      "Ecn",
      "Fifo",
      "Link",
      "LinkSet",
      "Packet",
      "PortFlowState",
      "assertSpecVersion",
      "creditBlocks",
      "pfcHeadroomBytes",
    ]),
  );
  expect(() => fabric.assertSpecVersion("x", { specVersion: 0 })).toThrow(/specVersion 0/);
  expect(new fabric.Packet().ecn).toBe(fabric.Ecn.notCapable);
});
