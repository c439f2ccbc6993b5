/**
 * DCQCN hosts with `npEcnReceiver` in a whole network: refused behind switches that write only
 * FECN (the NP-ECN receiver reads CE in the ECN field), built behind one that writes ECN.
 */
import type { CcScheme, SwitchPartFactory } from "@cclab/fabric";
import { Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { params } from "../src/index.js";
import { receiverPartFactory } from "../src/receiver-part.js";
import { senderPartFactory } from "../src/sender-part.js";

/** A stand-in switch part that declares it writes `field` (and marks nothing). */
function writes(field: "fecn" | "ecn"): SwitchPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `writes ${field}`,
    writes: [field],
    lanes: [{ name: "control", role: "control" }],
    create: () => ({}),
  };
}

function build(field: "fecn" | "ecn") {
  const p = params.parse({ npEcnReceiver: true });
  const cc: CcScheme = {
    specVersion: "^3.0.0",
    name: "np-ecn hosts",
    switchPart: writes(field),
    receiverPart: receiverPartFactory(p),
    senderPart: senderPartFactory(p),
  };
  return () =>
    new Network(singleSwitch({ hosts: 3, rateGbps: 100, latencyNs: 500 }), {
      flowControl: "pfc",
      switch: {
        buffer: {
          model: "shared",
          sharedBytes: 4 << 20,
          alpha: 0.125,
          headroomBytes: 32768,
          xonOffsetBytes: 2048,
        },
      },
      host: { mtuBytes: 1000, receiveBufferBytes: 65536 },
      hostPfc: { xoffBytes: 32768, xonBytes: 16384 },
      cc,
    });
}

describe("npEcnReceiver in a network", () => {
  it("is refused when no switch writes the ECN field", () => {
    expect(build("fecn")).toThrow(/NP-ECN.*reads ecn, which no part of the fabric writes/);
  });

  it("is built behind a switch that writes it", () => {
    expect(build("ecn")).not.toThrow();
  });
});
