import { OwnerTimers, serializationPs, type TimePs, type TimerOwner } from "@cclab/core-des";
import type {
  FlowGate,
  FlowInfo,
  HostPartContext,
  PacketId,
  SenderPart,
  SenderPartFactory,
} from "@cclab/fabric";
import type { IbCcParams } from "./params.js";
import { TCD_CODE_COLUMN, TCD_UE, type TcdCodeColumn, tcdCodeColumn } from "./tcd.js";

// Every CCTI timer of a scheduler is one event kind; each owner (a flow or a port-SL) has one timer.
const CCTI_TIMER_KIND = "infiniband: CCTI timer";
const CCTI = 0;

/** What every throttle of one host shares: how to turn a CCTI into a send time, and its timers. */
interface Shared {
  readonly context: HostPartContext;
  readonly rateGbps: number;
  /** CCT[i] in ps. */
  readonly cctPs: Float64Array;
  readonly cctiMin: number;
  readonly timerPs: number;
  /** The host's count of CCTI decrements, for its counters. */
  cctiDecrements: number;
}

/**
 * What one CCTI throttles: a queue pair (level `qp`) or every flow of a service level at this
 * host (level `sl`); the spec makes the two exclusive (Paper II L1269). It is its flows' gate
 * itself, and with `per-flow` timers its timer's owner too: one object per flow besides its
 * timer, not a gate with two closures (a 648-node fabric opens up to 419,256 flows).
 */
class Throttle implements FlowGate, TimerOwner {
  ccti: number;
  /**
   * End of the last packet sent under this throttle (its start plus its serialization at the
   * uplink's rate): the IRD counts from it. Computed once per packet, where the host asks every
   * gate in its rotation at each send decision.
   */
  lastEndPs: TimePs = Number.NEGATIVE_INFINITY;
  /** Size of that packet (for the rate series). */
  lastSizeBytes = 0;
  /** Its own timer (`per-flow` timers only). */
  timer: OwnerTimers | undefined = undefined;

  constructor(
    readonly sl: number,
    private readonly shared: Shared,
  ) {
    this.ccti = shared.cctiMin;
  }

  nextSendPs(nowPs: TimePs): TimePs {
    if (this.ccti === 0) return nowPs;
    return this.lastEndPs + this.shared.cctPs[this.ccti]!;
  }

  onSent(packet: PacketId): void {
    const s = this.shared;
    const size = s.context.packets.sizeBytes[packet]!;
    this.lastSizeBytes = size;
    this.lastEndPs = s.context.scheduler.nowPs + serializationPs(size, s.rateGbps);
  }

  /** Lowers the CCTI by one unless at CCTI_Min; true if it did. */
  lower(): boolean {
    if (this.ccti <= this.shared.cctiMin) return false;
    this.ccti--;
    this.shared.cctiDecrements++;
    return true;
  }

  /** Its `per-flow` timer expired: one step down, re-armed while still above CCTI_Min. */
  expire(): void {
    const s = this.shared;
    const lowered = this.lower();
    if (this.ccti > s.cctiMin) this.timer!.armAt(CCTI, s.context.scheduler.nowPs + s.timerPs);
    if (lowered) s.context.gatesChanged();
  }
}

/**
 * The `port-sl` timer of one SL at this host and the throttles of the SL above CCTI_Min: an
 * expiry visits only these, not every flow the host ever opened. A throttle is in `raised`
 * exactly while its CCTI is above CCTI_Min.
 */
class SlTimer implements TimerOwner {
  readonly raised: Throttle[] = [];
  readonly timer: OwnerTimers;
  /**
   * Where the free-running timer's grid lies: it expires at phasePs + k·CCTI_Timer. 0 (the grid
   * from time 0) until a UE-BECN restarts it (`tcdReaction`), which moves the grid.
   */
  phasePs = 0;

  constructor(private readonly shared: Shared) {
    this.timer = new OwnerTimers(shared.context.scheduler, CCTI_TIMER_KIND, this);
  }

  /** Schedules the next expiry on the grid after `nowPs`, unless one is pending. */
  runFrom(nowPs: TimePs): void {
    if (this.timer.armed(CCTI)) return;
    const t = this.shared.timerPs;
    const phase = this.phasePs;
    this.timer.armAt(CCTI, phase + (Math.floor((nowPs - phase) / t) + 1) * t);
  }

  /**
   * Reloads the countdown at `nowPs` (a UE-BECN): the next expiry is a whole CCTI_Timer away,
   * and the grid moves with it, as a free-running timer reloaded then would run.
   */
  restart(nowPs: TimePs): void {
    const t = this.shared.timerPs;
    this.phasePs = nowPs % t;
    if (this.raised.length > 0) this.timer.armAt(CCTI, nowPs + t);
  }

  expire(): void {
    const s = this.shared;
    const raised = this.raised;
    let lowered = false;
    let kept = 0;
    for (let i = 0; i < raised.length; i++) {
      const t = raised[i]!;
      lowered = t.lower() || lowered;
      if (t.ccti > s.cctiMin) raised[kept++] = t;
    }
    raised.length = kept;
    if (kept > 0) this.timer.armAt(CCTI, s.context.scheduler.nowPs + s.timerPs);
    // A lower CCTI is a shorter delay: parked flows may send earlier than they were told.
    if (lowered) s.context.gatesChanged();
  }
}

/**
 * The throttles of one host by flow id, for the BECN of each control packet: open addressing
 * over a typed array of keys, and a list in the order flows opened for the series. A Map lookup
 * per BECN measured 3 % of the 648-node forest's time in `onControl` and more in the Map's
 * own lookup, where a probe here reads one key and one slot.
 */
class ThrottlesByFlow {
  /** Flow ids in insertion order and their throttles. */
  readonly flowIds: number[] = [];
  readonly throttles: Throttle[] = [];
  /** Open-addressing table: a flow id (−1: free) and its index in the lists. */
  private keys = new Float64Array(16).fill(-1);
  private slots = new Int32Array(16);
  private mask = 15;
  /** 32 − log2(table size): the hash's top bits pick the first slot. */
  private shift = 28;

  get(flowId: number): Throttle | undefined {
    // Flow ids are ≥ 0 (−1 marks a free slot); a control packet without a flow has none here.
    if (!(flowId >= 0)) return undefined;
    const keys = this.keys;
    for (let i = slotOf(flowId, this.shift); ; i = (i + 1) & this.mask) {
      const key = keys[i]!;
      if (key === flowId) return this.throttles[this.slots[i]!];
      if (key === -1) return undefined;
    }
  }

  set(flowId: number, throttle: Throttle): void {
    if (!Number.isSafeInteger(flowId) || flowId < 0) {
      throw new RangeError(`flow ids are whole numbers ≥ 0, got ${flowId}`);
    }
    const keys = this.keys;
    for (let i = slotOf(flowId, this.shift); ; i = (i + 1) & this.mask) {
      const key = keys[i]!;
      if (key === flowId) {
        this.throttles[this.slots[i]!] = throttle;
        return;
      }
      if (key === -1) {
        keys[i] = flowId;
        this.slots[i] = this.flowIds.length;
        this.flowIds.push(flowId);
        this.throttles.push(throttle);
        // At most half full, so that probes stay short.
        if (2 * this.flowIds.length > this.mask + 1) this.grow();
        return;
      }
    }
  }

  private grow(): void {
    const size = 2 * (this.mask + 1);
    this.mask = size - 1;
    this.shift--;
    this.keys = new Float64Array(size).fill(-1);
    this.slots = new Int32Array(size);
    this.flowIds.forEach((flowId, k) => {
      let i = slotOf(flowId, this.shift);
      while (this.keys[i] !== -1) i = (i + 1) & this.mask;
      this.keys[i] = flowId;
      this.slots[i] = k;
    });
  }
}

// A flow id's first slot: the top bits of a multiplicative hash of its low 32 bits.
function slotOf(flowId: number, shift: number): number {
  return Math.imul(flowId | 0, 0x9e3779b1) >>> shift;
}

/**
 * The reaction point (Paper II L1269–1277): each BECN raises the CCTI of its flow (or SL) by
 * CCTI_Increase, up to CCTI_Limit; a CCTI_Timer lowers it by one per expiry, down to
 * CCTI_Min; a flow with CCTI > 0 waits CCT[CCTI] after the end of each packet before its next
 * one (the injection rate delay, applied per packet: Paper IV L1706).
 *
 * Timers (option `timer`):
 * - `port-sl` (the spec): one free-running timer per port and SL; each expiry decrements
 *   every throttle of that SL. It runs on the grid k·CCTI_Timer from time 0 and is only
 *   scheduled while some throttle of the SL is above CCTI_Min, which is the same behaviour
 *   without events while nothing is throttled.
 * - `per-flow` (CCFIT/EcoCC, Paper I L860): each throttle has its own timer, re-armed
 *   CCTI_Timer after every BECN and after every expiry while above CCTI_Min.
 *
 * With `tcdReaction` (TCD's marks, see tcd.ts) a BECN carries the code of the mark it answers:
 * CE raises the CCTI as above, UE holds it and restarts its timer (`onUeBecn`). This rule is
 * INFERRED: TCD's slides evaluate "IB CC+TCD" (seed `004_abc94112a2f36164.txt` line 399) but
 * its reaction rules are not published; it carries over DCQCN+TCD's "CE: decrease, UE: hold
 * (neither decrease nor increase)" (the authors' ns-3 code, github.com/Yi-ran/DCQCN-TCD,
 * `rpr_cnm_received`: a UE notification skips the cut but restarts the rate-increase timer) to
 * IB CC, where the decrease is a CCTI increase and the increase is the timer's decrement.
 */
export function createSenderPart(p: IbCcParams, context: HostPartContext): SenderPart {
  const scheduler = context.scheduler;
  const rateGbps = context.uplinkRateGbps;
  const timerPs = Math.round(p.cctiTimerUs * 1e6);
  const cctPs = Float64Array.from(p.cctUs, (us) => Math.round(us * 1e6));
  const shared: Shared = {
    context,
    rateGbps,
    cctPs,
    cctiMin: p.cctiMin,
    timerPs,
    cctiDecrements: 0,
  };
  // Decided once: otherwise the scenario's strings are compared at every BECN.
  const perFlowTimer = p.timer === "per-flow";
  const perSl = p.level === "sl";
  const byFlow = new ThrottlesByFlow();
  const bySl = new Map<number, Throttle>();
  // `port-sl` only, created at an SL's first BECN.
  const slTimers = new Map<number, SlTimer>();
  let becnReceived = 0;
  // `tcdReaction` only: BECNs by the code they carry (CE: code 3, or 0 from a plain receiver).
  let ceBecnReceived = 0;
  let ueBecnReceived = 0;

  const throttleFor = (flow: FlowInfo): Throttle => {
    if (perSl) {
      const ofSl = bySl.get(flow.sl);
      if (ofSl !== undefined) return ofSl;
    }
    const t = new Throttle(flow.sl, shared);
    if (perSl) bySl.set(flow.sl, t);
    if (perFlowTimer) t.timer = new OwnerTimers(scheduler, CCTI_TIMER_KIND, t);
    return t;
  };

  const onBecn = (t: Throttle): void => {
    becnReceived++;
    // Above CCTI_Min already: in its SL's list (port-sl), which it stays in.
    const wasRaised = t.ccti > p.cctiMin;
    t.ccti = Math.min(p.cctiLimit, t.ccti + p.cctiIncrease);
    if (t.ccti <= p.cctiMin) return;
    if (perFlowTimer) {
      t.timer!.armAt(CCTI, scheduler.nowPs + timerPs);
      return;
    }
    const sl = slTimerOf(t.sl);
    if (!wasRaised) sl.raised.push(t);
    sl.runFrom(scheduler.nowPs);
  };

  const slTimerOf = (slIndex: number): SlTimer => {
    let sl = slTimers.get(slIndex);
    if (sl === undefined) {
      sl = new SlTimer(shared);
      slTimers.set(slIndex, sl);
    }
    return sl;
  };

  /**
   * A UE-BECN (`tcdReaction`; INFERRED, see below): the CCTI stays, and the timer that would
   * lower it starts its period again, so the rate does not rise while UE keeps arriving. Which
   * timer that is follows `timer`: with `per-flow` the throttle's own (re-armed CCTI_Timer from
   * now, if it is above CCTI_Min; below, there is nothing for it to lower); with `port-sl` the
   * SL's free-running timer at this host, reloaded now whatever this throttle's CCTI, which
   * postpones the next decrement of every flow of the SL here (the spec's timer is per port
   * and SL, Paper II L1271, not per flow).
   */
  const onUeBecn = (t: Throttle): void => {
    becnReceived++;
    ueBecnReceived++;
    const now = scheduler.nowPs;
    if (perFlowTimer) {
      if (t.ccti > p.cctiMin) t.timer!.armAt(CCTI, now + timerPs);
      return;
    }
    slTimerOf(t.sl).restart(now);
  };

  const onControl = (packet: PacketId): void => {
    const packets = context.packets;
    if (packets.becn[packet] === 0) return;
    const t = byFlow.get(packets.flowId[packet]!);
    if (t !== undefined) onBecn(t);
  };

  /**
   * With `tcdReaction`, the BECN's code decides (INFERRED by analogy with DCQCN+TCD, whose
   * source cuts its rate on a CE notification and holds it on a UE one): CE (3) raises the CCTI
   * as any BECN does; UE (2) holds it (`onUeBecn`); no code (0) is a BECN from a receiver that
   * does not write codes, i.e. plain IB CC's, which only FECN (CE) causes: raised too.
   */
  const onControlTcd = (code: TcdCodeColumn) => (packet: PacketId) => {
    const packets = context.packets;
    if (packets.becn[packet] === 0) return;
    const t = byFlow.get(packets.flowId[packet]!);
    if (t === undefined) return;
    if (code.values[packet] === TCD_UE) {
      onUeBecn(t);
    } else {
      ceBecnReceived++;
      onBecn(t);
    }
  };

  return {
    openFlow(flow: FlowInfo): FlowGate {
      const t = throttleFor(flow);
      byFlow.set(flow.flowId, t);
      return t;
    },
    // Chosen once: without `tcdReaction` a BECN costs what it did before the option existed.
    onControl: p.tcdReaction ? onControlTcd(tcdCodeColumn(context.packets)) : onControl,
    counters: p.tcdReaction
      ? () => ({
          becnReceived,
          cctiDecrements: shared.cctiDecrements,
          ceBecnReceived,
          ueBecnReceived,
        })
      : () => ({ becnReceived, cctiDecrements: shared.cctiDecrements }),
    sampleFlows(visit): void {
      for (let k = 0; k < byFlow.flowIds.length; k++) {
        const flowId = byFlow.flowIds[k]!;
        const t = byFlow.throttles[k]!;
        visit(flowId, "ccti", t.ccti);
        // The rate the throttle allows for packets of the last size sent (line rate at 0).
        const size = t.lastSizeBytes;
        visit(
          flowId,
          "rateGbps",
          size === 0 || t.ccti === 0
            ? rateGbps
            : (size * 8000) / (serializationPs(size, rateGbps) + cctPs[t.ccti]!),
        );
      }
    },
  };
}

export function senderPartFactory(p: IbCcParams): SenderPartFactory {
  if (p.tcdReaction) {
    // Reads the code of TCD's marks (see tcd.ts): a switch part must write `tcd.code`, or the
    // network refuses the fabric. `Packets.column` is contract 3.0.
    return {
      specVersion: "^3.0.0",
      name: "infiniband sender (CCT throttling, TCD hold on UE)",
      reads: ["becn", TCD_CODE_COLUMN],
      create: (context) => createSenderPart(p, context),
    };
  }
  return {
    specVersion: 2,
    name: "infiniband sender (CCT throttling)",
    reads: ["becn"],
    create: (context) => createSenderPart(p, context),
  };
}
