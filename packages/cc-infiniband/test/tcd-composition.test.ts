/**
 * IB CC hosts with `tcdReaction` in a fabric: the network refuses them behind switches that
 * write no `tcd.code`, and behind a detector that does, CE packets raise the sources' CCTIs
 * while UE packets make UE-BECNs that hold them. The detector here is a stand-in with TCD's
 * interface (code column, FECN with CE), not TCD's state machine.
 */
import type { CcScheme, SwitchPartFactory } from "@cclab/fabric";
import { DATA_KIND } from "@cclab/fabric";
import { Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { infinibandCc, params, TCD_CE, TCD_CODE_COLUMN, TCD_UE } from "../src/index.js";

const topology = () => singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 100 });

/**
 * Marks every data packet it sends: host 1's UE, host 2's CE (with FECN, as a TCD switch
 * marks CE when IB CC hosts listen).
 */
const standInDetector: SwitchPartFactory = {
  specVersion: "^3.0.0",
  name: "stand-in TCD detector",
  writes: ["fecn", TCD_CODE_COLUMN],
  create(context) {
    const packets = context.packets;
    const code = packets.column(TCD_CODE_COLUMN, Uint8Array);
    return {
      onTransmit(packet) {
        if (packets.kindCode[packet] !== DATA_KIND) return;
        if (packets.srcHost[packet] === 2) {
          code.values[packet] = TCD_CE;
          packets.fecn[packet] = 1;
        } else if (code.values[packet] !== TCD_CE) {
          code.values[packet] = TCD_UE;
        }
      },
    };
  },
};

describe("IB CC hosts with tcdReaction in a fabric", () => {
  it("are refused behind IB CC switches, with a message naming the missing tcd.code", () => {
    const build = () =>
      new Network(topology(), { cc: infinibandCc(params.parse({ tcdReaction: true })) });
    expect(build).toThrow(TypeError);
    const message = (() => {
      try {
        build();
        return "";
      } catch (error) {
        return String(error);
      }
    })();
    const switchPart = 'switch part "infiniband switch (FECN marking)" of scheme "infiniband"';
    expect(message.split("\n")).toEqual([
      `TypeError: cc: sender part "infiniband sender (CCT throttling, TCD hold on UE)" of scheme "infiniband" reads tcd.code, which no part of the fabric writes (${switchPart} writes fecn)`,
      `cc: receiver part "infiniband receiver (FECN or TCD UE → CNP)" of scheme "infiniband" reads tcd.code, which no part of the fabric writes (${switchPart} writes fecn)`,
    ]);
  });

  it("are accepted without tcdReaction behind the same switches, as before", () => {
    expect(() => new Network(topology(), { cc: infinibandCc(params.parse({})) })).not.toThrow();
  });

  it("hold on UE and raise on CE behind a switch part that writes tcd.code", () => {
    const hosts = infinibandCc(params.parse({ tcdReaction: true, cctiTimerUs: 1e6 }));
    const cc: CcScheme = { specVersion: "^3.0.0", name: "stand-in", switchPart: standInDetector };
    const net = new Network(topology(), { cc, hostCc: [hosts, hosts, hosts] });
    for (const src of [1, 2]) net.addMessage(src, { dstHost: 0, bytes: 40_000, startPs: 0, sl: 0 });
    const ccti = (host: number): number[] => {
      const values: number[] = [];
      net.hosts[host]!.parts.sender?.sampleFlows?.((_, variable, value) => {
        if (variable === "ccti") values.push(value);
      });
      return values;
    };
    let dataFrom1 = 0;
    let dataFrom2 = 0;
    net.onDelivery((packet) => {
      if (net.packets.kindCode[packet] !== DATA_KIND) return;
      if (net.packets.srcHost[packet] === 1) dataFrom1++;
      else dataFrom2++;
    });
    for (let us = 5; us <= 200; us += 5) {
      net.run(us * 1_000_000);
      expect(
        ccti(1).every((c) => c === 0),
        `host 1 at ${us} µs`,
      ).toBe(true);
    }
    // Everything delivered by then; the CCTI timers (10⁶ µs) have not run yet.
    const packets = Math.ceil(40_000 / 2048);
    expect([dataFrom1, dataFrom2]).toEqual([packets, packets]);
    expect(ccti(1)).toEqual([0]);
    expect(ccti(2)).toEqual([packets]); // CCTI_Increase 1 per CE-BECN, no decrement
    expect(net.ccCounters()).toEqual({
      fecnReceived: packets,
      cnpSent: 2 * packets,
      ceBecnSent: packets,
      ueBecnSent: packets,
      becnReceived: 2 * packets,
      cctiDecrements: 0,
      ceBecnReceived: packets,
      ueBecnReceived: packets,
    });
  });
});
