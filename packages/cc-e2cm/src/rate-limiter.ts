import { serializationPs, type TimePs, usToPs } from "@cclab/core-des";
import type { FlowGate, HostPartContext, PacketId } from "@cclab/fabric";
import { BcnType } from "./frames.js";
import { type E2cmParams, feedback, type Gains } from "./params.js";

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
 * One flow's reaction point (docs/design/e2cm.md, "Reaction point"): the flow's rate limiter,
 * which exists only while the flow is slowed (one per flow, seed 003_b214e58ba856b6a6.txt
 * L166), and E2CM's per-flow probe state. It is the flow's gate: while limited, a frame may
 * start once the last one has left at the current rate.
 */
export class ReactionPoint implements FlowGate {
  /** Rate of the flow's limiter, Gb/s; line rate when it has none. */
  rateGbps: number;
  limited = false;
  /** The congestion point of the last negative BCN (L167): the CM tag of the flow's frames. */
  cpid = 0;
  /** E2CM: the smallest latency seen (flight time L0), ps; 0 = none yet (L180–182). */
  flightPs = 0;
  /** E2CM: the path queue of the previous probe, bytes. */
  lastQBytes = 0;
  /** E2CM: the path queue the last returned probe showed, bytes (a series). */
  pathQBytes = 0;
  private bytesSinceProbe = 0;
  private lastStartPs = Number.NEGATIVE_INFINITY;
  private lastSizeBytes = 0;
  /** BCN(0,0): no frame before this time. */
  private stoppedUntilPs = Number.NEGATIVE_INFINITY;

  constructor(private readonly s: Shared) {
    this.rateGbps = s.lineRateGbps;
  }

  nextSendPs(nowPs: TimePs): TimePs {
    if (!this.limited) return nowPs;
    return Math.max(
      this.stoppedUntilPs,
      this.lastStartPs + serializationPs(this.lastSizeBytes, this.rateGbps),
    );
  }

  onSent(packet: PacketId): void {
    const s = this.s;
    const size = s.context.packets.sizeBytes[packet]!;
    this.lastStartPs = s.context.scheduler.nowPs;
    this.lastSizeBytes = size;
    if (!this.limited) return;
    s.cpid.values[packet] = this.cpid;
    if (s.p.mode !== "e2cm") return;
    // One probe every probeEveryBytes of the flow's data (L138), the first at once.
    this.bytesSinceProbe += size;
    if (this.bytesSinceProbe < s.p.probeEveryBytes) return;
    this.bytesSinceProbe = 0;
    s.type.values[packet] = BcnType.probeForward;
    s.time.values[packet] = this.lastStartPs;
    s.counts.probesSent++;
  }

  /** A BCN frame from congestion point `cpid`. */
  onBcn(kind: number, cpid: number, qoffBytes: number, qdeltaBytes: number): void {
    const s = this.s;
    const p = s.p;
    s.counts.bcnReceived++;
    if (kind === BcnType.bcnZero) {
      this.limit(cpid);
      this.rateGbps = s.minRateGbps;
      const now = s.context.scheduler.nowPs;
      // Whole picoseconds: the host schedules its next send at the time the gate gives.
      this.stoppedUntilPs = now + Math.floor(s.context.rng.uniform() * usToPs(p.bcnZeroBackoffUs));
      // The stop replaces the spacing of the last frame: paced at R_min from that frame, the
      // flow would wait size / R_min (12 ms for 1500 B at 1 Mb/s), far beyond the backoff. The
      // first frame goes when the stop ends, the next ones at R_min; the host asks again, as
      // the stop may end before the time the gate last gave.
      this.lastStartPs = Number.NEGATIVE_INFINITY;
      s.counts.rateCuts++;
      s.context.gatesChanged();
      return;
    }
    const fb =
      kind === BcnType.bcnMax
        ? -(1 + 2 * p.w) * p.qeqBytes
        : feedback(qoffBytes, qdeltaBytes, p.qeqBytes, p.w);
    if (fb < 0) {
      this.limit(cpid);
      this.decrease(s.g.gdPerByte * fb);
    } else if (fb > 0 && this.limited) {
      this.increase(s.g.giPerByte * fb);
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
    if (!this.limited || bytesPerS <= 0) return;
    const q = (bytesPerS * (latencyPs - this.flightPs)) / 1e12;
    this.pathQBytes = q;
    const fb =
      q > p.flowQmaxBytes
        ? -(1 + 2 * p.w) * p.flowQeqBytes
        : feedback(p.flowQeqBytes - q, q - this.lastQBytes, p.flowQeqBytes, p.w);
    this.lastQBytes = q;
    if (fb > 0) this.increase(s.g.flowGiPerByte * fb);
    else if (fb < 0) this.decrease(s.g.flowGdPerByte * fb);
  }

  /** A limiter for the flow if it has none (at line rate, its rate so far), tagged `cpid`. */
  private limit(cpid: number): void {
    const s = this.s;
    this.cpid = cpid;
    if (this.limited) return;
    this.limited = true;
    this.rateGbps = s.lineRateGbps;
    this.bytesSinceProbe = s.p.probeEveryBytes;
    this.lastQBytes = 0;
    s.counts.limitersCreated++;
    s.counts.limitersActive++;
  }

  // rate ← rate · (1 + Gd·Fb), Fb < 0, no lower than R_min.
  private decrease(gdFb: number): void {
    const s = this.s;
    this.rateGbps = Math.max(s.minRateGbps, this.rateGbps * Math.max(0, 1 + gdFb));
    s.counts.rateCuts++;
  }

  // rate ← rate + Gi·Fb·R_unit; at line rate the limiter is released and tagging stops.
  private increase(giFb: number): void {
    const s = this.s;
    s.counts.rateIncreases++;
    this.rateGbps += giFb * s.unitGbps;
    if (this.rateGbps < s.lineRateGbps) {
      s.context.gatesChanged();
      return;
    }
    this.rateGbps = s.lineRateGbps;
    this.limited = false;
    this.cpid = 0;
    this.stoppedUntilPs = Number.NEGATIVE_INFINITY;
    s.counts.limitersReleased++;
    s.counts.limitersActive--;
    s.context.gatesChanged();
  }
}
