/**
 * The victim scenario of the paper (seed 004_abc94112a2f36164.txt lines 374–384: victim flows
 * get CE from ECN or FECN, none from TCD), on the two-switch testbed under both flow-control
 * disciplines. H5 is a hot spot of three flows, H2→H5 across the S1–S2 cable and H6→H5, H7→H5
 * local to S2. The cable is four times a host link, so S1's port to it is no congestion point of
 * its own: it is paused (PFC) or starved of credits only because S2's input from it fills with
 * H2's packets waiting for H5. The victim H1→H4 shares that port and nothing else congested.
 *
 * Expected (seed lines 342–384): S1's port to S2 is undetermined and the victim's packets arrive
 * with UE and never CE, although they leave that port behind a queue far above RED's Kmax;
 * S2's port to H5, continuously ON with a growing queue, is congested and marks CE.
 */
import type { FlowControlDiscipline } from "@cclab/fabric";
import { Network, type NetworkOptions } from "@cclab/network";
import { twoSwitchTestbed } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { TCD_CODE_COLUMN, TcdCode } from "../src/codes.js";
import { params } from "../src/params.js";
import { TcdState } from "../src/tcd-queue.js";
import { type Dequeue, observedTcd } from "./observed.js";

const RUN_US = 400;
const S1 = 0;
const S1_TO_S2 = 3;
const S2 = 1;
const S2_TO_H5 = 2;

function options(discipline: FlowControlDiscipline): NetworkOptions {
  const common = { mtuBytes: 1000, headerBytes: 30, receiveBufferBytes: 64 * 1024 };
  if (discipline === "credit") {
    return {
      flowControl: "credit",
      switch: { buffer: { model: "partitioned", bytesPerPortVl: 16 * 1024 } },
      host: common,
    };
  }
  return {
    flowControl: "pfc",
    switch: {
      buffer: { model: "partitioned", bytesPerPortVl: 48 * 1024 },
      pfc: { xoffBytes: 24 * 1024, xonBytes: 22 * 1024 },
    },
    host: common,
  };
}

function runVictim(discipline: FlowControlDiscipline, ceRule: "red" | "infiniband") {
  const topology = twoSwitchTestbed({ rateGbps: 10, latencyNs: 100, interSwitchRateGbps: 40 });
  const h = topology.hostIndex;
  // A tight RED curve (all CE above 20 kB) and every packet over a 20 kB IB threshold: the
  // congested port marks plenty, and any CE the victim got would show.
  const p = params.parse({
    ceRule,
    red: { kMinBytes: 5_150, kMaxBytes: 20_600, pMax: 1 },
    infiniband: { thresholdBytes: 20_600, markingRate: 0 },
  });
  const dequeues: Dequeue[] = [];
  const tcd = observedTcd(p, (d) => dequeues.push(d));
  const net = new Network(topology, { ...options(discipline), seed: 5, cc: tcd.scheme });
  const big = { bytes: 10_000_000, startPs: 0 };
  const victim = net.addMessage(h.H1, { dstHost: h.H4, ...big });
  net.addMessage(h.H2, { dstHost: h.H5, ...big });
  net.addMessage(h.H6, { dstHost: h.H5, ...big });
  net.addMessage(h.H7, { dstHost: h.H5, ...big });
  const packets = net.packets;
  const code = packets.column(TCD_CODE_COLUMN, Uint8Array);
  const delivered = new Map<number, { ue: number; ce: number; total: number }>();
  let victimFlow = -1;
  net.onDelivery((packet) => {
    if (packets.kindCode[packet] !== 0) return;
    if (packets.messageId[packet] === victim) victimFlow = packets.flowId[packet]!;
    const dst = packets.dstHost[packet]!;
    const n = delivered.get(dst) ?? { ue: 0, ce: 0, total: 0 };
    n.total++;
    if (code.values[packet] === TcdCode.Undetermined) n.ue++;
    if (code.values[packet] === TcdCode.Congestion) n.ce++;
    if (ceRule === "red" && packets.ecn[packet] === 3) expect(code.values[packet]).toBe(3);
    if (ceRule === "infiniband" && packets.fecn[packet] === 1) expect(code.values[packet]).toBe(3);
    delivered.set(dst, n);
  });
  net.run(RUN_US * 1_000_000);
  return { net, tcd, dequeues, delivered, h, victimFlow, p };
}

for (const discipline of ["pfc", "credit"] as const) {
  const ceRule = discipline === "pfc" ? "red" : "infiniband";
  describe(`victim scenario, ${discipline} (ceRule ${ceRule})`, () => {
    const r = runVictim(discipline, ceRule);
    const [s1, s2] = [r.tcd.parts[S1]!, r.tcd.parts[S2]!];

    it("flow control holds S1's port to S2, and never S2's port to H5", () => {
      expect(r.tcd.contexts[S1]!.port(S1_TO_S2).offCount(0)).toBeGreaterThan(10);
      expect(r.tcd.contexts[S2]!.port(S2_TO_H5).offCount(0)).toBe(0);
    });

    // Dequeues at S1's port to S2, and those from its first pause on (before it, the port is
    // ON with no queue: NC).
    const atS1 = r.dequeues.filter((d) => d.switchIndex === S1 && d.outPort === S1_TO_S2);
    const firstU = atS1.findIndex((d) => d.state === TcdState.U);
    const fromFirstPause = atS1.slice(firstU);

    it("S1's port to S2 is undetermined from its first OFF period to the end of the run", () => {
      expect(firstU).toBeGreaterThanOrEqual(0);
      expect(fromFirstPause.length).toBeGreaterThan(100);
      expect(fromFirstPause.every((d) => d.state === TcdState.U)).toBe(true);
      expect(atS1.slice(0, firstU).every((d) => d.state === TcdState.NC)).toBe(true);
      expect(s1.stateOf(S1_TO_S2, 0)).toBe(TcdState.U);
    });

    it("the victim's packets get UE there, and arrive with no CE, behind a queue RED would mark", () => {
      const victimAtS1 = fromFirstPause.filter((d) => d.flowId === r.victimFlow);
      expect(victimAtS1.length).toBeGreaterThan(50);
      expect(victimAtS1.every((d) => d.codeAfter === TcdCode.Undetermined)).toBe(true);
      // Plain RED with these parameters marks every packet that leaves above Kmax.
      const aboveKmax = victimAtS1.filter((d) => d.queueBytes > r.p.red.kMaxBytes).length;
      expect(aboveKmax).toBeGreaterThan(victimAtS1.length / 2);
      const victim = r.delivered.get(r.h.H4)!;
      expect(victim.ce).toBe(0);
      expect(victim.ue).toBeGreaterThan(50);
    });

    it("the hot spot's port is continuously ON and congested: C, with CE on its flows", () => {
      const toH5 = r.dequeues.filter((d) => d.switchIndex === S2 && d.outPort === S2_TO_H5);
      expect(toH5.some((d) => d.state === TcdState.U)).toBe(false);
      expect(toH5.filter((d) => d.state === TcdState.C).length).toBeGreaterThan(toH5.length / 2);
      expect(r.delivered.get(r.h.H5)!.ce).toBeGreaterThan(50);
      expect(s2.stateOf(S2_TO_H5, 0)).toBe(TcdState.C);
    });

    it("never marks CE at a queue in U; the counters agree with the marks", () => {
      expect(r.tcd.violations).toEqual([]);
      const counters = r.net.ccCounters();
      expect(counters.ueMarked).toBeGreaterThan(0);
      expect(counters.ceMarked).toBeGreaterThan(0);
      expect(counters.timeInUUs).toBeGreaterThan(RUN_US / 2);
    });
  });
}
