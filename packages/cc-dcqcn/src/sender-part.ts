import {
  OwnerTimers,
  serializationPs,
  type TimePs,
  type TimerOwner,
  usToPs,
} from "@cclab/core-des";
import {
  Ecn,
  type FlowGate,
  type FlowInfo,
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type SenderPart,
  type SenderPartFactory,
} from "@cclab/fabric";
import type { DcqcnParams } from "./params.js";
import { TCD_CODE_COLUMN } from "./tcd-code.js";
import { withTcdReaction } from "./tcd-sender-part.js";
import { DCQCN_TIMER_KIND } from "./timers.js";

// Codes of the named kinds are fixed (NAMED_PACKET_KINDS): one is compared per ACK, not a name.
const ACK_KIND = NAMED_PACKET_KINDS.indexOf("ack");
const CNP_KIND = NAMED_PACKET_KINDS.indexOf("cnp");

// A flow's timers.
const INCREASE = 0;
const DECREASE_CHECK = 1;

/** What every flow of one host shares. */
interface Shared {
  readonly context: HostPartContext;
  readonly p: DcqcnParams;
  readonly lineRateGbps: number;
  readonly minRateGbps: number;
  readonly aiGbps: number;
  readonly haiGbps: number;
  readonly alphaPs: number;
  readonly increasePs: number;
  readonly decreasePs: number;
  readonly counts: { cnpReceived: number; rateCuts: number; rateIncreases: number };
}

/**
 * The reaction point of one flow (a queue pair): its rate limiter and the DCQCN state that
 * drives it (spec sections 4 and 6). It is the flow's gate: a packet may start once the last
 * one has left at the current rate, `lastStart + size / RC`.
 *
 * α is kept lazily: it changes only at the boundaries of its period (every `alphaTimerUs`), so
 * instead of an event per flow per period (1 µs in the `nic` preset) the boundaries passed are
 * applied when α is needed. A boundary applies before anything else that happens at its time.
 */
export class ReactionPoint implements FlowGate, TimerOwner {
  /** Current rate RC and target rate RT, Gb/s. */
  rateGbps: number;
  targetGbps: number;
  /** α as of `alphaSincePs` (boundaries after it not yet applied). */
  private alpha: number;
  private alphaSincePs: TimePs = 0;
  /** `nic`: the time of the flow's first CNP flag, where the α and decrease-check grids start. */
  private gridStartPs: TimePs = 0;
  /** `nic`: a CNP flag arrived in the current α period / since the last decrease check. */
  private alphaCnp = false;
  private decreaseCnp = false;
  private firstCnpSeen = false;
  /** Increase events since the last cut: timer (T) and byte counter (BC) stages. */
  private timerStage = 0;
  private byteStage = 0;
  private bytesSinceCut = 0;
  private increasedSinceCut = false;
  /** Start and size of the last packet sent: the rate limiter counts from its start. */
  private lastStartPs = Number.NEGATIVE_INFINITY;
  private lastSizeBytes = 0;
  private readonly timers: OwnerTimers;

  constructor(private readonly s: Shared) {
    this.rateGbps = s.lineRateGbps;
    this.targetGbps = s.lineRateGbps;
    this.alpha = s.p.initialAlpha;
    this.timers = new OwnerTimers(s.context.scheduler, DCQCN_TIMER_KIND, this);
  }

  // --- the gate --------------------------------------------------------------------------

  nextSendPs(nowPs: TimePs): TimePs {
    if (this.rateGbps >= this.s.lineRateGbps) return nowPs;
    return this.lastStartPs + serializationPs(this.lastSizeBytes, this.rateGbps);
  }

  onSent(packet: PacketId): void {
    const s = this.s;
    const packets = s.context.packets;
    // DCQCN's packets are ECN-capable (ECT): the congestion point marks only those.
    packets.ecn[packet] = Ecn.capable;
    const size = packets.sizeBytes[packet]!;
    this.lastStartPs = s.context.scheduler.nowPs;
    this.lastSizeBytes = size;
    // Paper: the byte counter, below line rate only (spec 4.4).
    const counter = s.p.byteCounterBytes;
    if (s.p.variant !== "paper" || counter === null || this.rateGbps >= s.lineRateGbps) return;
    this.bytesSinceCut += size;
    if (this.bytesSinceCut >= counter) {
      this.bytesSinceCut -= counter;
      this.byteStage++;
      this.increase();
    }
  }

  // --- notifications ------------------------------------------------------------------------

  /** Paper (spec 4.2): a CNP cuts the rate at once. */
  onCnp(): void {
    const s = this.s;
    const now = s.context.scheduler.nowPs;
    s.counts.cnpReceived++;
    // α decays every K without CNPs since the last one (spec 4.3).
    const periods = Math.floor((now - this.alphaSincePs) / s.alphaPs);
    if (this.firstCnpSeen && periods > 0) this.alpha *= (1 - s.p.g) ** periods;
    this.firstCnpSeen = true;
    if (s.p.alphaBeforeCut) this.alpha = (1 - s.p.g) * this.alpha + s.p.g;
    this.cut();
    if (!s.p.alphaBeforeCut) this.alpha = (1 - s.p.g) * this.alpha + s.p.g;
    this.alphaSincePs = now;
    this.byteStage = 0;
    this.bytesSinceCut = 0;
    this.timers.armAt(INCREASE, now + s.increasePs);
  }

  /**
   * TCD (`tcdReaction`): a UE-CNP holds the rate. The authors' reference code passes it to
   * `rpr_cnm_received` (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`), which does a CNP's bookkeeping
   * but skips the α update and the cut for it: RT ← RC (as a cut clamps it), the byte counter
   * and both stage counters reset, the α period and the increase timer restart, fast recovery
   * again. So while UE-CNPs keep coming (one per CNP interval, shorter than the increase timer)
   * RC neither falls nor rises and α does not decay; when they stop, recovery starts from RC.
   */
  onUeCnp(): void {
    const s = this.s;
    const now = s.context.scheduler.nowPs;
    s.counts.cnpReceived++;
    // The α periods that ended before now still apply; a new one starts now.
    const periods = Math.floor((now - this.alphaSincePs) / s.alphaPs);
    if (this.firstCnpSeen && periods > 0) this.alpha *= (1 - s.p.g) ** periods;
    this.firstCnpSeen = true;
    this.alphaSincePs = now;
    if (s.p.clampTargetRate || this.increasedSinceCut) this.targetGbps = this.rateGbps;
    this.timerStage = 0;
    this.increasedSinceCut = false;
    this.byteStage = 0;
    this.bytesSinceCut = 0;
    this.timers.armAt(INCREASE, now + s.increasePs);
  }

  /** Nic (spec section 6): a CNP flag on an ACK. */
  onCnpFlag(): void {
    const s = this.s;
    const now = s.context.scheduler.nowPs;
    s.counts.cnpReceived++;
    if (!this.firstCnpSeen) {
      // The first flag of the flow: α starts, its period and the decrease checks start now
      // (the checks 1 ns after the α boundaries, so that α is updated first).
      this.firstCnpSeen = true;
      this.alpha = s.p.initialAlpha;
      this.gridStartPs = now;
      this.alphaSincePs = now;
      this.alphaCnp = false;
      this.decreaseCnp = true;
      this.timers.armAt(DECREASE_CHECK, now + s.decreasePs + 1);
      const rate = s.p.rateOnFirstCnp * this.rateGbps;
      this.rateGbps = rate;
      this.targetGbps = rate;
      return;
    }
    this.advanceAlpha(now);
    this.alphaCnp = true;
    if (!this.decreaseCnp) {
      this.decreaseCnp = true;
      // Checks fall on their grid from the first flag (1 ns after the α boundaries); the
      // next one strictly after now.
      const offset = this.gridStartPs + 1;
      const j = Math.max(1, Math.floor((now - offset) / s.decreasePs) + 1);
      this.timers.armAt(DECREASE_CHECK, offset + j * s.decreasePs);
    }
  }

  // --- timers -------------------------------------------------------------------------------

  expire(timer: number): void {
    if (timer === DECREASE_CHECK) this.decreaseCheck();
    else this.increaseTimer();
  }

  // Nic: at most one cut per check, with α as of now (spec section 6, item 4).
  private decreaseCheck(): void {
    if (!this.decreaseCnp) return;
    const s = this.s;
    const now = s.context.scheduler.nowPs;
    this.advanceAlpha(now);
    this.decreaseCnp = false;
    this.cut();
    this.timers.armAt(INCREASE, now + s.increasePs);
  }

  private increaseTimer(): void {
    const s = this.s;
    // Nothing to recover at line rate: the timer stops until the next cut.
    // (RC ≤ RT always: at line rate both are.)
    if (this.rateGbps >= s.lineRateGbps) return;
    this.timers.armAt(INCREASE, s.context.scheduler.nowPs + s.increasePs);
    if (s.p.variant === "paper") {
      this.timerStage++;
      this.increase();
    } else {
      this.increaseNic();
      this.timerStage++;
    }
  }

  // --- rate changes -------------------------------------------------------------------------

  // RT ← RC (unless clamping waits for an increase), RC ← max(min, RC·(1 − α/2)).
  private cut(): void {
    const s = this.s;
    if (s.p.clampTargetRate || this.increasedSinceCut) this.targetGbps = this.rateGbps;
    this.rateGbps = Math.max(s.minRateGbps, this.rateGbps * (1 - this.alpha / 2));
    this.timerStage = 0;
    this.increasedSinceCut = false;
    s.counts.rateCuts++;
  }

  // Paper (spec 4.4): fast recovery while max(T, BC) ≤ F, hyper increase by i·R_HAI when
  // min(T, BC) > F (i = min − F), additive increase otherwise.
  private increase(): void {
    const s = this.s;
    const f = s.p.fastRecoverySteps;
    const most = Math.max(this.timerStage, this.byteStage);
    const least = Math.min(this.timerStage, this.byteStage);
    if (most > f) {
      if (least > f) this.targetGbps += (least - f) * s.haiGbps;
      else this.targetGbps += s.aiGbps;
    }
    this.raise();
  }

  // Nic (spec section 6, item 5): with the stage before this event, fast recovery below F,
  // one additive increase at F, hyper increase by a constant R_HAI after.
  private increaseNic(): void {
    const s = this.s;
    const f = s.p.fastRecoverySteps;
    if (this.timerStage === f) this.targetGbps += s.aiGbps;
    else if (this.timerStage > f) this.targetGbps += s.haiGbps;
    this.raise();
  }

  // RC ← (RT + RC) / 2, both capped at line rate; the host asks its gates again.
  private raise(): void {
    const s = this.s;
    this.targetGbps = Math.min(this.targetGbps, s.lineRateGbps);
    this.rateGbps = Math.min((this.targetGbps + this.rateGbps) / 2, s.lineRateGbps);
    this.increasedSinceCut = true;
    s.counts.rateIncreases++;
    s.context.gatesChanged();
  }

  // --- α ------------------------------------------------------------------------------------

  /** α as it stands at `nowPs` (for the per-flow samples; changes nothing). */
  alphaAt(nowPs: TimePs): number {
    const s = this.s;
    const periods = Math.floor((nowPs - this.alphaSincePs) / s.alphaPs);
    if (!this.firstCnpSeen || periods <= 0) return this.alpha;
    if (s.p.variant === "paper") return this.alpha * (1 - s.p.g) ** periods;
    const first = (1 - s.p.g) * this.alpha + (this.alphaCnp ? s.p.g : 0);
    return first * (1 - s.p.g) ** (periods - 1);
  }

  // Nic: applies the α boundaries passed by `nowPs`: the first with the CNP bit of its period
  // (α ← (1 − g)α + g if a flag arrived in it, (1 − g)α if not), the others without.
  private advanceAlpha(nowPs: TimePs): void {
    const periods = Math.floor((nowPs - this.alphaSincePs) / this.s.alphaPs);
    if (periods <= 0) return;
    this.alpha = this.alphaAt(nowPs);
    this.alphaCnp = false;
    this.alphaSincePs += periods * this.s.alphaPs;
  }
}

/**
 * The reaction point (spec sections 4 and 6): per flow, a rate limiter at the current rate RC
 * with a target rate RT and α, cut on CNPs and raised by increase events, from line rate down
 * to the minimum rate. Per-flow series: `rateGbps`, `targetRateGbps`, `alpha`.
 */
export function createSenderPart(p: DcqcnParams, context: HostPartContext): SenderPart {
  const counts = { cnpReceived: 0, rateCuts: 0, rateIncreases: 0 };
  const shared: Shared = {
    context,
    p,
    lineRateGbps: context.uplinkRateGbps,
    minRateGbps: Math.min(p.minRateMbps / 1000, context.uplinkRateGbps),
    aiGbps: p.additiveIncreaseMbps / 1000,
    haiGbps: p.hyperIncreaseMbps / 1000,
    alphaPs: usToPs(p.alphaTimerUs),
    increasePs: usToPs(p.increaseTimerUs),
    decreasePs: usToPs(p.decreaseCheckUs),
    counts,
  };
  const byFlow = new Map<number, ReactionPoint>();
  const part: SenderPart = {
    openFlow(flow: FlowInfo): FlowGate {
      const rp = new ReactionPoint(shared);
      byFlow.set(flow.flowId, rp);
      return rp;
    },
    onControl(packet: PacketId): void {
      const packets = context.packets;
      const rp = byFlow.get(packets.flowId[packet]!);
      if (rp === undefined) return;
      const code = packets.kindCode[packet];
      if (p.variant === "paper") {
        if (code === CNP_KIND) rp.onCnp();
      } else if (code === ACK_KIND && packets.becn[packet] === 1) {
        rp.onCnpFlag();
      }
    },
    counters: () => ({ ...counts }),
    sampleFlows(visit): void {
      const now = context.scheduler.nowPs;
      for (const [flowId, rp] of byFlow) {
        visit(flowId, "rateGbps", rp.rateGbps);
        visit(flowId, "targetRateGbps", rp.targetGbps);
        visit(flowId, "alpha", rp.alphaAt(now));
      }
    },
  };
  return p.tcdReaction ? withTcdReaction(part, context, byFlow) : part;
}

export function senderPartFactory(p: DcqcnParams): SenderPartFactory {
  if (p.tcdReaction) {
    // Reads the CNPs' codes (a scheme column, contract 3.0); declaring it refuses a fabric
    // whose switches write no TCD codes at all.
    return {
      specVersion: "^3.0.0",
      name: "dcqcn sender (rate control; TCD: CE cuts, UE holds)",
      reads: [TCD_CODE_COLUMN],
      create: (context) => createSenderPart(p, context),
    };
  }
  return {
    specVersion: 2,
    name: "dcqcn sender (rate control)",
    create: (context) => createSenderPart(p, context),
  };
}
