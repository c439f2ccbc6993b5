/**
 * NP-ECN (ceRule np-ecn) against plain RED on TCD's victim scenario (victim.test.ts), under PFC:
 * H5 is a hot spot of H2 (across the S1–S2 cable), H6 and H7; the victim H1→H4 shares only S1's
 * port to S2, which S2 keeps pausing because its input from the cable fills with H2's packets.
 * That port is ON-OFF and its queue stays far above Kmax. Plain RED marks the victim's packets
 * there; NP-ECN marks none of them (every packet leaves while packets of the last paused period
 * are still queued), and still marks at the hot spot's port, which is never paused.
 */
import {
  type CcScheme,
  DATA_KIND,
  Ecn,
  FROM_SWITCH_CONTROL,
  type SwitchPart,
  type SwitchPartContext,
} from "@cclab/fabric";
import { Network } from "@cclab/network";
import { twoSwitchTestbed } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { redRule } from "../src/ce-rule.js";
import { params, type TcdParams } from "../src/params.js";
import { switchPartFactory } from "../src/switch-part.js";

const S1 = 0;
const S1_TO_S2 = 3;
const S2 = 1;
const S2_TO_H5 = 2;

/** Plain RED on the same egress queue, CE to `ecn` (what a DCQCN switch does), for contrast. */
function plainRed(p: TcdParams, context: SwitchPartContext): SwitchPart {
  const packets = context.packets;
  const vls = context.port(0).vlCount;
  const queued = new Float64Array(context.portCount * vls);
  const red = redRule(p.red, context.rng);
  return {
    onEnqueue(packet) {
      queued[packets.outPort[packet]! * vls + packets.vl[packet]!]! += packets.sizeBytes[packet]!;
    },
    onTransmit(packet, inPort, outPort) {
      if (inPort === FROM_SWITCH_CONTROL) return;
      const q = outPort * vls + packets.vl[packet]!;
      queued[q]! -= packets.sizeBytes[packet]!;
      if (packets.kindCode[packet] !== DATA_KIND) return;
      if (red(outPort, packets.vl[packet]!, queued[q]!)) packets.ecn[packet] = Ecn.congestion;
    },
  };
}

function run(rule: "np-ecn" | "plain red") {
  const topology = twoSwitchTestbed({ rateGbps: 10, latencyNs: 100, interSwitchRateGbps: 40 });
  const h = topology.hostIndex;
  // All CE above 20.6 kB: any CE the victim could get at the ON-OFF port shows.
  const p = params.parse({
    ceRule: "np-ecn",
    red: { kMinBytes: 5_150, kMaxBytes: 20_600, pMax: 1 },
  });
  const factory = switchPartFactory(p);
  // CE marks as packets leave each switch's port, by switch, port and whether it is the victim's.
  const marks = { victimAtS1: 0, victimAtS1Sent: 0, atS2ToH5: 0 };
  // The victim's message id (its only message), known once it is added below.
  let victim = -1;
  const contexts: SwitchPartContext[] = [];
  const scheme: CcScheme = {
    specVersion: "^3.0.0",
    name: rule,
    switchPart: {
      ...factory,
      create(context) {
        contexts[context.switchIndex] = context;
        const part = rule === "np-ecn" ? factory.create(context) : plainRed(p, context);
        const packets = context.packets;
        return {
          ...part,
          onTransmit(packet, inPort, outPort) {
            const before = packets.ecn[packet];
            part.onTransmit?.(packet, inPort, outPort);
            if (packets.kindCode[packet] !== DATA_KIND) return;
            const ce = before !== Ecn.congestion && packets.ecn[packet] === Ecn.congestion;
            const at = context.switchIndex;
            if (at === S1 && outPort === S1_TO_S2 && packets.messageId[packet] === victim) {
              marks.victimAtS1Sent++;
              if (ce) marks.victimAtS1++;
            }
            if (at === S2 && outPort === S2_TO_H5 && ce) marks.atS2ToH5++;
          },
        };
      },
    },
  };
  const net = new Network(topology, {
    flowControl: "pfc",
    switch: {
      buffer: { model: "partitioned", bytesPerPortVl: 48 * 1024 },
      pfc: { xoffBytes: 24 * 1024, xonBytes: 22 * 1024 },
    },
    host: { mtuBytes: 1000, headerBytes: 30, receiveBufferBytes: 64 * 1024 },
    seed: 5,
    cc: scheme,
  });
  const big = { bytes: 10_000_000, startPs: 0 };
  victim = net.addMessage(h.H1, { dstHost: h.H4, ...big });
  for (const src of [h.H2, h.H6, h.H7]) net.addMessage(src, { dstHost: h.H5, ...big });
  let victimCeDelivered = 0;
  net.onDelivery((packet) => {
    const packets = net.packets;
    if (packets.kindCode[packet] !== DATA_KIND || packets.messageId[packet] !== victim) return;
    if (packets.ecn[packet] === Ecn.congestion) victimCeDelivered++;
  });
  net.run(400 * 1_000_000);
  return { marks, victimCeDelivered, contexts };
}

describe("NP-ECN on PFC: the victim at an ON-OFF port", () => {
  const np = run("np-ecn");
  const red = run("plain red");

  it("S1's port to S2 is paused over and over, S2's port to H5 never", () => {
    expect(np.contexts[S1]!.port(S1_TO_S2).offCount(0)).toBeGreaterThan(10);
    expect(np.contexts[S2]!.port(S2_TO_H5).offCount(0)).toBe(0);
  });

  it("plain RED marks the victim at the ON-OFF port; NP-ECN marks none of its packets there", () => {
    expect(red.marks.victimAtS1Sent).toBeGreaterThan(50);
    expect(red.marks.victimAtS1).toBeGreaterThan(red.marks.victimAtS1Sent / 4);
    expect(red.victimCeDelivered).toBeGreaterThan(0);
    expect(np.marks.victimAtS1Sent).toBeGreaterThan(50);
    expect(np.marks.victimAtS1).toBe(0);
    expect(np.victimCeDelivered).toBe(0);
  });

  it("NP-ECN still marks at the congested port, which is never paused", () => {
    expect(np.marks.atS2ToH5).toBeGreaterThan(50);
  });
});
