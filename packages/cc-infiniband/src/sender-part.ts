import { serializationPs, type TimePs } from "@cclab/core-des";
import type {
  FlowGate,
  FlowInfo,
  HostPartContext,
  Packet,
  SenderPart,
  SenderPartFactory,
} from "@cclab/fabric";
import type { IbCcParams } from "./params.js";
import { CctiTimer } from "./timers.js";

/** What every throttle of one host needs to turn a CCTI into a send time. */
interface ThrottleTable {
  readonly scheduler: HostPartContext["scheduler"];
  readonly rateGbps: number;
  /** CCT[i] in ps. */
  readonly cctPs: Float64Array;
}

/**
 * What one CCTI throttles: a queue pair (level `qp`) or every flow of a service level at this
 * host (level `sl`); the spec makes the two exclusive (Paper II L1269). It is its flows' gate
 * itself: one object per flow, not a gate with two closures (a 648-node fabric opens up to
 * 419,256 flows).
 */
class Throttle implements FlowGate {
  ccti: number;
  /** End of the last packet sent under this throttle: the IRD counts from there. */
  lastEndPs: TimePs = Number.NEGATIVE_INFINITY;
  lastSizeBytes = 0;
  timer: CctiTimer | undefined;
  /** True while in its SL's list of throttles above CCTI_Min (port-SL timers). */
  raised = false;

  constructor(
    readonly sl: number,
    cctiMin: number,
    private readonly table: ThrottleTable,
  ) {
    this.ccti = cctiMin;
  }

  nextSendPs(nowPs: TimePs): TimePs {
    return this.ccti === 0 ? nowPs : this.lastEndPs + this.table.cctPs[this.ccti]!;
  }

  onSent(packet: Packet): void {
    this.lastEndPs =
      this.table.scheduler.nowPs + serializationPs(packet.sizeBytes, this.table.rateGbps);
    this.lastSizeBytes = packet.sizeBytes;
  }
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
 */
export function createSenderPart(p: IbCcParams, context: HostPartContext): SenderPart {
  const scheduler = context.scheduler;
  const rateGbps = context.uplinkRateGbps;
  const timerPs = Math.round(p.cctiTimerUs * 1e6);
  const cctPs = Float64Array.from(p.cctUs, (us) => Math.round(us * 1e6));
  const table: ThrottleTable = { scheduler, rateGbps, cctPs };
  const byFlow = new Map<number, Throttle>();
  const bySl = new Map<number, Throttle>();
  // Per SL, its throttles above CCTI_Min: a timer expiry visits only these, not every flow
  // the host ever opened.
  const raisedOfSl = new Map<number, Throttle[]>();
  const slTimers = new Map<number, CctiTimer>();
  let becnReceived = 0;
  let cctiDecrements = 0;

  const decrement = (t: Throttle): boolean => {
    if (t.ccti <= p.cctiMin) return false;
    t.ccti--;
    cctiDecrements++;
    return true;
  };

  const slTimer = (sl: number): CctiTimer => {
    let timer = slTimers.get(sl);
    if (timer === undefined) {
      const raised = raisedOfSl.get(sl)!;
      const owner = {
        expire: () => {
          let lowered = false;
          let kept = 0;
          for (let i = 0; i < raised.length; i++) {
            const t = raised[i]!;
            lowered = decrement(t) || lowered;
            if (t.ccti > p.cctiMin) raised[kept++] = t;
            else t.raised = false;
          }
          raised.length = kept;
          if (kept > 0) timer!.armAt(scheduler.nowPs + timerPs);
          // A lower CCTI is a shorter delay: parked flows may send earlier than they were told.
          if (lowered) context.gatesChanged();
        },
      };
      timer = new CctiTimer(scheduler, owner);
      slTimers.set(sl, timer);
    }
    return timer;
  };

  const throttleFor = (flow: FlowInfo): Throttle => {
    if (p.level === "sl") {
      const shared = bySl.get(flow.sl);
      if (shared !== undefined) return shared;
    }
    const t = new Throttle(flow.sl, p.cctiMin, table);
    if (p.level === "sl") bySl.set(flow.sl, t);
    if (!raisedOfSl.has(flow.sl)) raisedOfSl.set(flow.sl, []);
    if (p.timer === "per-flow") {
      const owner = {
        expire: () => {
          const lowered = decrement(t);
          if (t.ccti > p.cctiMin) t.timer!.armAt(scheduler.nowPs + timerPs);
          if (lowered) context.gatesChanged();
        },
      };
      t.timer = new CctiTimer(scheduler, owner);
    }
    return t;
  };

  const onBecn = (t: Throttle): void => {
    becnReceived++;
    t.ccti = Math.min(p.cctiLimit, t.ccti + p.cctiIncrease);
    if (t.ccti <= p.cctiMin) return;
    if (p.timer === "per-flow") {
      t.timer!.armAt(scheduler.nowPs + timerPs);
      return;
    }
    if (!t.raised) {
      t.raised = true;
      raisedOfSl.get(t.sl)!.push(t);
    }
    const timer = slTimer(t.sl);
    if (!timer.armed) {
      const now = scheduler.nowPs;
      timer.armAt((Math.floor(now / timerPs) + 1) * timerPs);
    }
  };

  return {
    openFlow(flow: FlowInfo): FlowGate {
      const t = throttleFor(flow);
      byFlow.set(flow.flowId, t);
      return t;
    },
    onControl(packet: Packet): void {
      if (!packet.becn) return;
      const t = byFlow.get(packet.flowId);
      if (t !== undefined) onBecn(t);
    },
    counters: () => ({ becnReceived, cctiDecrements }),
    sampleFlows(visit): void {
      for (const [flowId, t] of byFlow) {
        visit(flowId, "ccti", t.ccti);
        // The rate the throttle allows for packets of the last size sent (line rate at 0).
        const size = t.lastSizeBytes;
        const ser = size === 0 ? 0 : serializationPs(size, rateGbps);
        const ird = cctPs[t.ccti]!;
        visit(
          flowId,
          "rateGbps",
          ser === 0 || t.ccti === 0 ? rateGbps : (size * 8000) / (ser + ird),
        );
      }
    },
  };
}

export function senderPartFactory(p: IbCcParams): SenderPartFactory {
  return {
    specVersion: 1,
    name: "infiniband sender (CCT throttling)",
    create: (context) => createSenderPart(p, context),
  };
}
