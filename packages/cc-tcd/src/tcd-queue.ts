import type { TimePs } from "@cclab/core-des";
import { TcdCode } from "./codes.js";

/**
 * A queue's state, with the numbers the reference code gives them (Yi-ran/DCQCN-TCD,
 * `qbb-net-device.cc`, `pre_state` in `DequeueAndTransmit`): 0 non-congestion, 1 "was
 * undetermined, now watching the queue's trend", 2 undetermined, 3 congestion. The ternary
 * states are NC, C and U (seed 004_abc94112a2f36164.txt lines 181–185); CHECK is the reference's
 * bookkeeping for the "evolution of queue length" that decides between NC and C after U (seed
 * lines 220–231).
 */
export enum TcdState {
  NC = 0,
  Check = 1,
  U = 2,
  C = 3,
}

/** Names of the states by their number, for counters and series. */
export const TCD_STATE_NAMES = ["nc", "check", "u", "c"] as const;

/**
 * The states as a reader of a figure needs them, by number: the spec's names for the ternary
 * states (non-congestion, undetermined, congestion: seed lines 181–185) after their letters,
 * and CHECK as what it is, the trend check that follows U (seed lines 220–231). The names of
 * the `state` variable of the `cc-queues` series (contract 3.4's `queueValueLabels`).
 */
export const TCD_STATE_LABELS: Readonly<Record<TcdState, string>> = Object.freeze({
  [TcdState.NC]: "NC: non-congestion",
  [TcdState.Check]: "CHECK: trend after U",
  [TcdState.U]: "U: undetermined",
  [TcdState.C]: "C: congestion",
});

/** Constants of one queue's state machine, times in ps. */
export interface TcdQueueConfig {
  /**
   * max(T_on): a port whose current ON period has lasted longer has left the ON-OFF pattern
   * (seed lines 239–243). The reference's `m_interval` (`RootECNInterval`, 40 µs).
   */
  readonly maxTonPs: number;
  /** Period of the queue-trend check in CHECK (the same `m_interval` in the reference). */
  readonly checkPeriodPs: number;
  /** CHECK turns C when the queue grew by at least this over one period (reference 1000 × 0.9). */
  readonly growBytes: number;
  /** CHECK turns NC when the queue is at most this (reference 2 × 1030: two cells). */
  readonly drainedBytes: number;
  /**
   * Compare times in whole microseconds, as the reference does (`Simulator::Now()
   * .GetMicroSeconds()` for the current time, the resume time and the check time alike, so each
   * instant is truncated before the difference is taken).
   */
  readonly truncateTonToUs: boolean;
}

/** A CE decision: given (a boolean), or asked for only when a step needs it (a callback). */
export type CeDecision = boolean | (() => boolean);

const PS_PER_US = 1_000_000;

/**
 * The TCD state machine of one egress port and priority/VL, exactly the reference's
 * `DequeueAndTransmit` branch for `m_rootecn` (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`): it is
 * driven by data-packet dequeues only and says how to mark each one (none, UE or CE).
 *
 * Inputs at each dequeue: the time, the egress queue length with the leaving packet's own bytes
 * no longer counted (the reference calls `RemoveFromEgressAdmission` before it looks at the
 * queue), the port's last OFF→ON time for the VL, and the CE rule (RED, or IB CC's threshold
 * rule), which is evaluated only where a step needs it.
 *
 * The queue length at the resume (`qAtResume`) is taken by {@link noteResume}: the owner calls it
 * before every change of the queue (enqueue or dequeue) with the length before that change.
 * The queue only changes at those events, so the length seen at the first one after a resume is
 * the length at the resume instant, as the reference records it in `Resume`.
 */
export class TcdQueue {
  /** Where the machine is now; changes at dequeues only (lazily, as in the reference). */
  state: TcdState = TcdState.NC;
  /** The last OFF→ON time seen, ps (−Infinity: never paused, so never inside max(T_on)). */
  lastResumePs: TimePs = Number.NEGATIVE_INFINITY;
  /** Egress queue at that resume, bytes. */
  qAtResumeBytes = 0;
  /** Start of the current trend-check period (CHECK), ps. */
  checkTimePs: TimePs = 0;
  /** Egress queue at its start, bytes. */
  checkQBytes = 0;
  private sincePs: TimePs;
  private readonly spentPs = new Float64Array(4);

  constructor(
    private readonly config: TcdQueueConfig,
    startPs: TimePs = 0,
  ) {
    this.sincePs = startPs;
  }

  /**
   * The port's last OFF→ON time is `lastOnPs` now, and the queue holds `queueBytes`: if that
   * time moved, a new resume restarts Step 1 from it, with `queueBytes` as qAtResume.
   */
  noteResume(lastOnPs: TimePs, queueBytes: number): void {
    if (lastOnPs !== this.lastResumePs) {
      this.lastResumePs = lastOnPs;
      this.qAtResumeBytes = queueBytes;
    }
  }

  /**
   * A data packet leaves at `nowPs`; `queueBytes` still wait (its own bytes not counted).
   * Returns the mark for it: {@link TcdCode.Undetermined} (write it unless the packet is CE),
   * {@link TcdCode.Congestion}, or {@link TcdCode.None}.
   */
  dequeue(nowPs: TimePs, queueBytes: number, lastOnPs: TimePs, ce: CeDecision): TcdCode {
    this.noteResume(lastOnPs, queueBytes);
    const c = this.config;
    // Step 1: within max(T_on) of the last resume the port may still be ON-OFF; every packet
    // gets UE, deterministically.
    if (this.elapsedPs(nowPs, this.lastResumePs) <= c.maxTonPs) {
      this.enter(TcdState.U, nowPs);
      return TcdCode.Undetermined;
    }
    switch (this.state) {
      case TcdState.U:
        // Step 2: just left the ON-OFF pattern. A queue that did not drain during a whole
        // max(T_on) of continuous ON is congestion; one that shrank is watched.
        if (queueBytes >= this.qAtResumeBytes) {
          this.enter(TcdState.C, nowPs);
          return decide(ce) ? TcdCode.Congestion : TcdCode.None;
        }
        this.checkTimePs = nowPs;
        this.checkQBytes = queueBytes;
        this.enter(TcdState.Check, nowPs);
        return TcdCode.None;
      case TcdState.Check:
        // Step 3: once per period, a queue growing by about a packet or more is congestion; a
        // queue that drained to two packets is not. CHECK itself marks nothing.
        if (this.elapsedPs(nowPs, this.checkTimePs) >= c.checkPeriodPs) {
          if (queueBytes >= this.checkQBytes + c.growBytes) {
            this.enter(TcdState.C, nowPs);
            return decide(ce) ? TcdCode.Congestion : TcdCode.None;
          }
          this.checkTimePs = nowPs;
          this.checkQBytes = queueBytes;
        }
        if (queueBytes <= c.drainedBytes) this.enter(TcdState.NC, nowPs);
        return TcdCode.None;
      default:
        // Step 4: NC and C as in a lossy network, following the CE rule's last outcome.
        if (decide(ce)) {
          this.enter(TcdState.C, nowPs);
          return TcdCode.Congestion;
        }
        this.enter(TcdState.NC, nowPs);
        return TcdCode.None;
    }
  }

  /** Time spent in `state` from the start up to `nowPs` (the current stay included), ps. */
  timeInStatePs(state: TcdState, nowPs: TimePs): number {
    const open = state === this.state ? nowPs - this.sincePs : 0;
    return this.spentPs[state]! + open;
  }

  private enter(state: TcdState, nowPs: TimePs): void {
    if (state === this.state) return;
    this.spentPs[this.state]! += nowPs - this.sincePs;
    this.sincePs = nowPs;
    this.state = state;
  }

  // now − then, in ps; with truncation each instant is first cut to whole µs (see config).
  private elapsedPs(nowPs: TimePs, thenPs: TimePs): number {
    if (thenPs === Number.NEGATIVE_INFINITY) return Number.POSITIVE_INFINITY;
    if (!this.config.truncateTonToUs) return nowPs - thenPs;
    return (Math.floor(nowPs / PS_PER_US) - Math.floor(thenPs / PS_PER_US)) * PS_PER_US;
  }
}

function decide(ce: CeDecision): boolean {
  return typeof ce === "boolean" ? ce : ce();
}
