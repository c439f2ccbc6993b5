import type { TimePs } from "@cclab/core-des";
import {
  DATA_KIND,
  Ecn,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { type CeRule, infinibandRule, redRule, thresholdBytesOf } from "./ce-rule.js";
import { TCD_CODE_COLUMN, TcdCode } from "./codes.js";
import { createNpEcnSwitchPart } from "./np-ecn-switch-part.js";
import type { TcdParams } from "./params.js";
import { TCD_STATE_LABELS, TcdQueue, type TcdQueueConfig, type TcdState } from "./tcd-queue.js";

const PS_PER_US = 1_000_000;

/** The TCD switch part, with read-only access to its queues for samplers and tests. */
export interface TcdSwitchPart extends SwitchPart {
  /** The state of the queue of output `outPort` and `vl` now. */
  stateOf(outPort: number, vl: number): TcdState;
  /** Bytes in the egress queue of output `outPort` and `vl` now (what the rules compare). */
  queueBytes(outPort: number, vl: number): number;
  /**
   * Calls `visit` once per egress queue (output port, data VL) with its current state, in port
   * then VL order: for a runner that samples the states into a series. Changes nothing.
   */
  states(visit: (outPort: number, vl: number, state: TcdState) => void): void;
  /**
   * Contract 3.3's per-queue sample, for the runner's `cc-queues` series: for every egress
   * queue (output port, data VL) that has carried at least one data packet, in port then VL
   * order, `state` (the {@link TcdState} number: 0 NC, 1 CHECK, 2 U, 3 C), `ceMarked` and
   * `ueMarked` (packets this queue marked so far, counted as the part's counters are) and
   * `queueBytes`. Changes nothing.
   */
  sampleQueues(visit: (outPort: number, vl: number, variable: string, value: number) => void): void;
}

/**
 * TCD's detector at every egress queue (output port and VL) of a switch: the reference's
 * `DequeueAndTransmit` and `Resume` (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`) and the slides'
 * states and marks (seed 004_abc94112a2f36164.txt lines 196–266).
 *
 * - The egress queue is counted as cc-dcqcn counts it: a packet joins at enqueue at its input
 *   and leaves when it starts on the output link (from its input queue, or from the output
 *   buffer); the switch's own control packets never join it.
 * - OFF→ON comes from the port's `lastOnPs(vl)` (contract 3.0): under PFC when a resume took
 *   effect (the reference's `Resume`), under credits when a packet started again after its head
 *   lacked credits (seed line 208: "paused due to receiving PAUSEs/no credits"; the credit
 *   mapping is INFERRED, no IB code of the authors is public).
 * - qAtResume: the queue at the resume. The part is told nothing at the resume itself, so at
 *   every enqueue and dequeue of the queue it first compares `lastOnPs` with the resume it knows
 *   and, if it moved, takes the queue as it was before this change. The queue changes only at
 *   those events, so that is the queue at the resume instant. In the common case the port starts
 *   a waiting packet at the resume, and this is the queue just before that first dequeue, with
 *   the packet counted (under credits, `lastOnPs` is that start itself).
 * - Marking at dequeue, data packets only (the reference marks in `DequeueAndTransmit`, never
 *   its PAUSE/CNP queue): UE to the `tcd.code` column unless the packet is CE there; CE to the
 *   column and to `ecn` (ceRule red, whatever the packet's ECN capability: the reference sets
 *   0x03 on any data packet) or to `fecn` (ceRule infiniband). With ceRule red UE also goes to
 *   `ecn` (`Ecn.undetermined`, 10) unless that field already says CE: in CEE the two-bit IP ECN
 *   field carries TCD's code points directly (seed lines 260–266, Table 1; the reference writes
 *   0x02 there under `GetEcn() <= 0x02`), so a host that reads only `ecn` sees UE as well.
 */
export function createSwitchPart(p: TcdParams, context: SwitchPartContext): TcdSwitchPart {
  if (p.ceRule === "np-ecn") {
    throw new RangeError(
      "ceRule np-ecn runs no TCD queue: make its part with createNpEcnSwitchPart",
    );
  }
  const ports = context.portCount;
  const views = Array.from({ length: ports }, (_, i) => context.port(i));
  const vls = views[0]?.vlCount ?? 1;
  const packets = context.packets;
  const scheduler = context.scheduler;
  const code = packets.column(TCD_CODE_COLUMN, Uint8Array);
  const config: TcdQueueConfig = {
    maxTonPs: Math.round(p.maxTonUs * PS_PER_US),
    checkPeriodPs: Math.round(p.checkPeriodUs * PS_PER_US),
    growBytes: p.growBytes,
    drainedBytes: p.drainedBytes,
    truncateTonToUs: p.truncateTonToUs,
  };
  const startPs = scheduler.nowPs;
  // Per output port and VL, at [out * vls + vl].
  const queues = Array.from({ length: ports * vls }, () => new TcdQueue(config, startPs));
  const queued = new Float64Array(ports * vls);
  // Per queue, for the `cc-queues` series: packets marked, and whether it ever sent data.
  const ceByQueue = new Float64Array(ports * vls);
  const ueByQueue = new Float64Array(ports * vls);
  const carried = new Uint8Array(ports * vls);
  const control = new Set(context.controlVls);
  const dataVls = Array.from({ length: vls }, (_, vl) => vl).filter((vl) => !control.has(vl));

  let rule: CeRule;
  const red = p.ceRule === "red";
  if (red) {
    rule = redRule(p.red, context.rng);
  } else {
    const thresholds = Float64Array.from({ length: ports }, (_, i) => {
      const t = thresholdBytesOf(p.infiniband, context.inputBufferBytes(i));
      return t ?? Number.POSITIVE_INFINITY;
    });
    rule = infinibandRule(p.infiniband, views, thresholds, context.rng);
  }
  // The CE decision of the packet being judged, as one closure made once (no allocation per
  // packet); the state machine calls it only where a step needs it.
  let judgedOut = 0;
  let judgedVl = 0;
  let judgedBytes = 0;
  const ce = (): boolean => rule(judgedOut, judgedVl, judgedBytes);

  let ceMarked = 0;
  let ueMarked = 0;

  const onTransmit = (packet: PacketId, inPort: number, outPort: number): void => {
    if (inPort === FROM_SWITCH_CONTROL) return;
    const vl = packets.vl[packet]!;
    const q = outPort * vls + vl;
    const queue = queues[q]!;
    const lastOnPs: TimePs = views[outPort]!.lastOnPs(vl);
    queue.noteResume(lastOnPs, queued[q]!);
    const bytes = queued[q]! - packets.sizeBytes[packet]!;
    queued[q] = bytes;
    if (packets.kindCode[packet] !== DATA_KIND) return;
    carried[q] = 1;
    judgedOut = outPort;
    judgedVl = vl;
    judgedBytes = bytes;
    const mark = queue.dequeue(scheduler.nowPs, bytes, lastOnPs, ce);
    if (mark === TcdCode.None) return;
    const codes = code.values;
    if (mark === TcdCode.Congestion) {
      codes[packet] = TcdCode.Congestion;
      if (red) packets.ecn[packet] = Ecn.congestion;
      else packets.fecn[packet] = 1;
      ceMarked++;
      ceByQueue[q]!++;
    } else if (codes[packet] !== TcdCode.Congestion) {
      codes[packet] = TcdCode.Undetermined;
      // CEE's ECN field holds the same code points; a CE there (a plain RED switch upstream)
      // is never lowered to UE (seed line 258).
      if (red && packets.ecn[packet] !== Ecn.congestion) packets.ecn[packet] = Ecn.undetermined;
      ueMarked++;
      ueByQueue[q]!++;
    }
  };

  return {
    onEnqueue(packet: PacketId): void {
      const out = packets.outPort[packet]!;
      const vl = packets.vl[packet]!;
      const q = out * vls + vl;
      queues[q]!.noteResume(views[out]!.lastOnPs(vl), queued[q]!);
      queued[q]! += packets.sizeBytes[packet]!;
    },
    onTransmit,
    stateOf: (outPort, vl) => queues[outPort * vls + vl]!.state,
    queueBytes: (outPort, vl) => queued[outPort * vls + vl]!,
    states(visit) {
      for (let out = 0; out < ports; out++)
        for (const vl of dataVls) visit(out, vl, queues[out * vls + vl]!.state);
    },
    sampleQueues(visit) {
      for (let out = 0; out < ports; out++) {
        for (const vl of dataVls) {
          const q = out * vls + vl;
          if (carried[q] === 0) continue;
          visit(out, vl, "state", queues[q]!.state);
          visit(out, vl, "ceMarked", ceByQueue[q]!);
          visit(out, vl, "ueMarked", ueByQueue[q]!);
          visit(out, vl, "queueBytes", queued[q]!);
        }
      }
    },
    // Time in each state summed over the queues (output port, data VL) that have carried a data
    // packet (an idle port would only add NC), from the part's start to now; a state lasts from
    // the dequeue that entered it to the one that left it (the reference keeps the state from
    // dequeue to dequeue too).
    counters() {
      const now = scheduler.nowPs;
      const inState = [0, 0, 0, 0];
      for (let out = 0; out < ports; out++) {
        for (const vl of dataVls) {
          const q = out * vls + vl;
          if (carried[q] === 0) continue;
          const queue = queues[q]!;
          for (let s = 0; s < 4; s++) inState[s]! += queue.timeInStatePs(s, now);
        }
      }
      return {
        ceMarked,
        ueMarked,
        timeInNcUs: inState[0]! / PS_PER_US,
        timeInCheckUs: inState[1]! / PS_PER_US,
        timeInUUs: inState[2]! / PS_PER_US,
        timeInCUs: inState[3]! / PS_PER_US,
      };
    },
  };
}

/**
 * The switch part. With ceRule red it also asks for a shared control lane (served ahead of
 * data), where DCQCN receivers send their CNPs, as cc-dcqcn's own switch part gives them one and
 * the reference sends PAUSE and CNP on its highest-priority queue; with ceRule infiniband it asks
 * for none, as cc-infiniband's switch part. With ceRule np-ecn it is PCN's NP-ECN instead of TCD
 * (np-ecn-switch-part.ts): it writes `ecn` only, so hosts that read `tcd.code` (DCQCN's or IB
 * CC's `tcdReaction`) are refused with it when the network is built, and asks for the control
 * lane as ceRule red does.
 */
export function switchPartFactory(p: TcdParams): SwitchPartFactory {
  const control = { lanes: [{ name: "control", role: "control" as const }] };
  // Stays ^3.0.0: `sampleQueues` (3.3) is optional and only read by a runner's series, so on a
  // 3.0–3.2 fabric the detector marks the same and is merely not sampled; `queueValueLabels`
  // (3.4) is data a 3.0–3.3 fabric never reads, so there the figure only shows numbers.
  if (p.ceRule === "np-ecn") {
    return {
      specVersion: "^3.0.0",
      name: "tcd switch (ceRule np-ecn: PCN's NP-ECN, ECN CE)",
      writes: ["ecn"],
      ...control,
      create: (context) => createNpEcnSwitchPart(p, context),
    };
  }
  const red = p.ceRule === "red";
  return {
    specVersion: "^3.0.0",
    name: red
      ? "tcd switch (ceRule red: UE and ECN CE)"
      : "tcd switch (ceRule infiniband: UE and FECN)",
    writes: red ? ["ecn", TCD_CODE_COLUMN] : ["fecn", TCD_CODE_COLUMN],
    queueValueLabels: { state: TCD_STATE_LABELS },
    ...(red ? control : {}),
    create: (context) => createSwitchPart(p, context),
  };
}
