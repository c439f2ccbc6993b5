import { type TimePs, usToPs } from "@cclab/core-des";
import type { FlowGate, HostPartContext, PacketId } from "@cclab/fabric";
import { BcnType } from "./frames.js";
import { type E2cmParams, feedback, type Gains } from "./params.js";
import { RateLimiter } from "./rate-limiter.js";

/** What every flow of one host shares. */
export interface Shared {
  readonly context: HostPartContext;
  readonly p: E2cmParams;
  readonly g: Gains;
  readonly lineRateGbps: number;
  readonly minRateGbps: number;
  readonly unitGbps: number;
  readonly cpid: { values: Int32Array };
  readonly type: { values: Uint8Array };
  readonly time: { values: Float64Array };
  /** `rateLimiters: per-congestion-point`: the host's limiters by congestion point. */
  readonly byCp: Map<number, RateLimiter>;
  readonly counts: {
    bcnReceived: number;
    probesSent: number;
    probesReceived: number;
    rateCuts: number;
    rateIncreases: number;
    limitersCreated: number;
    limitersReleased: number;
    limitersActive: number;
  };
}

/**
 * One flow's reaction point (docs/design/e2cm.md, "Reaction point"): the rate limiter that
 * shapes the flow while it is slowed, and E2CM's per-flow probe state. It is the flow's gate.
 * With `rateLimiters: per-flow` (E2CM's adapter, one limiter per flow, seed
 * 003_b214e58ba856b6a6.txt L166) the limiter is the flow's own; with `per-congestion-point`
 * (BCN's) it is the host's limiter of the congestion point that last slowed the flow, shared
 * with the host's other flows slowed there.
 */
export class ReactionPoint implements FlowGate {
  /** The limiter shaping the flow; undefined while it sends freely. */
  limiter: RateLimiter | undefined = undefined;
  /** E2CM: the smallest latency seen (flight time L0), ps; 0 = none yet (L180–182). */
  flightPs = 0;
  /** E2CM: the path queue the last returned probe showed, bytes (0 when a limiter is made). */
  lastQBytes = 0;
  private bytesSinceProbe = 0;
  /** The flow's own last frame: a limiter made for it spaces from there. */
  private lastStartPs = Number.NEGATIVE_INFINITY;
  private lastSizeBytes = 0;

  constructor(private readonly s: Shared) {}

  /** The rate the flow is held to, Gb/s (line rate when it is not limited). */
  get rateGbps(): number {
    return this.limiter?.rateGbps ?? this.s.lineRateGbps;
  }

  nextSendPs(nowPs: TimePs): TimePs {
    return this.limiter === undefined ? nowPs : this.limiter.nextSendPs();
  }

  onSent(packet: PacketId): void {
    const s = this.s;
    const size = s.context.packets.sizeBytes[packet]!;
    const now = s.context.scheduler.nowPs;
    this.lastStartPs = now;
    this.lastSizeBytes = size;
    const limiter = this.limiter;
    if (limiter === undefined) return;
    limiter.sent(now, size);
    s.cpid.values[packet] = limiter.cpid;
    if (s.p.mode !== "e2cm") return;
    // One probe every probeEveryBytes of the flow's data (L138), the first at once.
    this.bytesSinceProbe += size;
    if (this.bytesSinceProbe < s.p.probeEveryBytes) return;
    this.bytesSinceProbe = 0;
    s.type.values[packet] = BcnType.probeForward;
    s.time.values[packet] = now;
    s.counts.probesSent++;
  }

  /** A BCN frame from congestion point `cpid`. */
  onBcn(kind: number, cpid: number, qoffBytes: number, qdeltaBytes: number): void {
    const s = this.s;
    const p = s.p;
    s.counts.bcnReceived++;
    if (kind === BcnType.bcnZero) {
      const limiter = this.limit(cpid);
      limiter.rateGbps = s.minRateGbps;
      const now = s.context.scheduler.nowPs;
      // Whole picoseconds: the host schedules its next send at the time the gate gives.
      limiter.stoppedUntilPs =
        now + Math.floor(s.context.rng.uniform() * usToPs(p.bcnZeroBackoffUs));
      // The stop replaces the spacing of the last frame: paced at R_min from that frame, the
      // flow would wait size / R_min (12 ms for 1500 B at 1 Mb/s), far beyond the backoff. The
      // first frame goes when the stop ends, the next ones at R_min; the host asks again, as
      // the stop may end before the time the gate last gave.
      limiter.lastStartPs = Number.NEGATIVE_INFINITY;
      s.counts.rateCuts++;
      s.context.gatesChanged();
      return;
    }
    const fb =
      kind === BcnType.bcnMax
        ? -(1 + 2 * p.w) * p.qeqBytes
        : feedback(qoffBytes, qdeltaBytes, p.qeqBytes, p.w);
    if (fb < 0) {
      this.decrease(this.limit(cpid), s.g.gdPerByte * fb);
    } else if (fb > 0) {
      // A positive BCN raises the limiter of the point that sent it: the flow's own, or the
      // host's limiter of that point (the flow may have moved to another since the frame left).
      const limiter = p.rateLimiters === "per-flow" ? this.limiter : s.byCp.get(cpid);
      if (limiter !== undefined) this.increase(limiter, s.g.giPerByte * fb);
    }
  }

  /**
   * E2CM: a returned probe (the reaction point's pseudo-code, L176–196): L0 is the smallest
   * latency so far; Little's law gives the flow's bytes queued on its forward path,
   * Q = R · (L − L0); Fb from Q with the per-flow Qeq, or the per-flow BCN_MAX above Qmax.
   * The limiter is never associated with the probe (L143). A probe of a flow that is no longer
   * limited, or without a rate, only teaches L0.
   */
  onProbe(latencyPs: number, bytesPerS: number): void {
    const s = this.s;
    const p = s.p;
    s.counts.probesReceived++;
    if (this.flightPs === 0 || latencyPs < this.flightPs) this.flightPs = latencyPs;
    const limiter = this.limiter;
    if (limiter === undefined || bytesPerS <= 0) return;
    const q = (bytesPerS * (latencyPs - this.flightPs)) / 1e12;
    const fb =
      q > p.flowQmaxBytes
        ? -(1 + 2 * p.w) * p.flowQeqBytes
        : feedback(p.flowQeqBytes - q, q - this.lastQBytes, p.flowQeqBytes, p.w);
    this.lastQBytes = q;
    if (fb > 0) this.increase(limiter, s.g.flowGiPerByte * fb);
    else if (fb < 0) this.decrease(limiter, s.g.flowGdPerByte * fb);
  }

  /**
   * The limiter that shapes the flow after a negative BCN from `cpid` (L167): per flow, the
   * flow's own (made at line rate, the flow's rate so far, if it has none) now tagged `cpid`;
   * per congestion point, the host's limiter of `cpid` (made at line rate if the host has
   * none), which the flow leaves its previous one for.
   */
  private limit(cpid: number): RateLimiter {
    const s = this.s;
    let limiter = this.limiter;
    if (s.p.rateLimiters === "per-flow") {
      if (limiter !== undefined) {
        limiter.cpid = cpid;
        return limiter;
      }
      limiter = this.made(cpid);
    } else {
      if (limiter?.cpid === cpid) return limiter;
      if (limiter !== undefined) this.leave(limiter);
      limiter = s.byCp.get(cpid) ?? this.made(cpid);
      s.byCp.set(cpid, limiter);
    }
    limiter.flows.add(this);
    this.limiter = limiter;
    this.bytesSinceProbe = s.p.probeEveryBytes;
    this.lastQBytes = 0;
    return limiter;
  }

  private made(cpid: number): RateLimiter {
    const s = this.s;
    const limiter = new RateLimiter(cpid, s.lineRateGbps);
    limiter.sent(this.lastStartPs, this.lastSizeBytes);
    s.counts.limitersCreated++;
    s.counts.limitersActive++;
    return limiter;
  }

  /** The flow stops using `limiter`; a shared limiter without flows is released. */
  private leave(limiter: RateLimiter): void {
    limiter.flows.delete(this);
    this.limiter = undefined;
    if (limiter.flows.size === 0) this.released(limiter);
  }

  private released(limiter: RateLimiter): void {
    const s = this.s;
    if (s.byCp.get(limiter.cpid) === limiter) s.byCp.delete(limiter.cpid);
    s.counts.limitersReleased++;
    s.counts.limitersActive--;
  }

  // rate ← rate · (1 + Gd·Fb), Fb < 0, no lower than R_min.
  private decrease(limiter: RateLimiter, gdFb: number): void {
    const s = this.s;
    limiter.rateGbps = Math.max(s.minRateGbps, limiter.rateGbps * Math.max(0, 1 + gdFb));
    s.counts.rateCuts++;
  }

  // rate ← rate + Gi·Fb·R_unit; at line rate the limiter is released: its flows send freely
  // and untagged.
  private increase(limiter: RateLimiter, giFb: number): void {
    const s = this.s;
    s.counts.rateIncreases++;
    limiter.rateGbps += giFb * s.unitGbps;
    if (limiter.rateGbps >= s.lineRateGbps) {
      for (const flow of limiter.flows) flow.limiter = undefined;
      limiter.flows.clear();
      this.released(limiter);
    }
    s.context.gatesChanged();
  }
}
