/**
 * DCQCN hosts with `tcdReaction` in a whole network: refused without a switch part that writes
 * TCD's codes (the composition check, with a message that says what is missing), and, behind a
 * stand-in detector that marks every data packet with one code, cut by CE and held by UE.
 */
import {
  type CcScheme,
  DATA_KIND,
  Ecn,
  FROM_SWITCH_CONTROL,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { Network, type NetworkOptions } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { dcqcnCc, params } from "../src/index.js";
import { TCD_CODE_COLUMN, TcdCode, tcdCodeColumn } from "../src/tcd-code.js";

const topology = () => singleSwitch({ hosts: 3, rateGbps: 100, latencyNs: 500 });
const options: NetworkOptions = {
  seed: 3,
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
};

/**
 * A stand-in for the TCD switch (packages/cc-tcd): writes `code` into `tcd.code` of every data
 * packet it transmits, and CE into the ECN field with a CE code, as the interface says.
 */
function everyPacket(code: number): SwitchPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `marks every packet ${code}`,
    writes: [TCD_CODE_COLUMN, "ecn"],
    lanes: [{ name: "control", role: "control" }],
    create: (context) => {
      const codes = tcdCodeColumn(context.packets);
      return {
        onTransmit(packet, inPort) {
          if (inPort === FROM_SWITCH_CONTROL) return;
          if (context.packets.kindCode[packet] !== DATA_KIND) return;
          codes.values[packet] = code;
          if (code === TcdCode.congestion) context.packets.ecn[packet] = Ecn.congestion;
        },
      };
    },
  };
}

/** A 2:1 incast of 2 MB per source behind a detector marking every packet with `code`. */
function incast(code: number) {
  const dcqcn = dcqcnCc(params.parse({ preset: "tcd", tcdReaction: true }));
  const cc: CcScheme = {
    specVersion: "^3.0.0",
    name: "tcd + dcqcn",
    switchPart: everyPacket(code),
    receiverPart: dcqcn.receiverPart!,
    senderPart: dcqcn.senderPart!,
  };
  const net = new Network(topology(), { ...options, cc });
  for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 2_000_000, startPs: 0 });
  const rates: number[] = [];
  net.run(undefined, () => {
    if (net.scheduler.processed % 101 === 0) {
      net.sampleCcFlows((_, variable, value) => {
        if (variable === "rateGbps") rates.push(value);
      });
    }
    return false;
  });
  return {
    counters: net.ccCounters(),
    rates,
    completed: net.hosts.flatMap((h) => h.completions).length,
  };
}

describe("DCQCN with tcdReaction in a network", () => {
  it("is refused behind a plain DCQCN switch, which writes no TCD codes, naming both parts", () => {
    const build = () =>
      new Network(topology(), { ...options, cc: dcqcnCc(params.parse({ tcdReaction: true })) });
    const reads = (part: string) =>
      `cc: ${part} of scheme "dcqcn" reads tcd.code, which no part of the fabric writes (switch part "dcqcn switch (RED/ECN marking)" of scheme "dcqcn" writes ecn)`;
    expect(build).toThrow(TypeError);
    expect(build).toThrow(
      reads('sender part "dcqcn sender (rate control; TCD: CE cuts, UE holds)"'),
    );
    expect(build).toThrow(reads('receiver part "dcqcn receiver (TCD codes → CE/UE CNP)"'));
  });

  it("holds every flow at line rate when the detector marks only UE", () => {
    const o = incast(TcdCode.undetermined);
    expect(o.completed).toBe(2);
    expect(o.counters).toMatchObject({ rateCuts: 0, ceCnpReceived: 0, ceCnpSent: 0 });
    expect(o.counters.ueCnpReceived).toBeGreaterThan(0);
    expect(o.counters.ueCnpReceived).toBe(o.counters.ueCnpSent);
    expect(o.counters.ueReceived).toBeGreaterThan(0);
    expect(o.rates.length).toBeGreaterThan(0);
    expect(o.rates.every((r) => r === 100)).toBe(true);
  });

  it("cuts when the detector marks CE", () => {
    const o = incast(TcdCode.congestion);
    expect(o.completed).toBe(2);
    expect(o.counters).toMatchObject({ ueCnpReceived: 0, ueCnpSent: 0 });
    expect(o.counters.rateCuts).toBe(o.counters.ceCnpReceived);
    expect(o.counters.ceCnpReceived).toBe(o.counters.ceCnpSent);
    expect(Math.min(...o.rates)).toBeLessThan(100);
  });
});
