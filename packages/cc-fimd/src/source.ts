import { serializationPs, type TimePs } from "@cclab/core-des";
import type { FlowGate, PacketId, Packets } from "@cclab/fabric";
import type { ResponseFunction } from "./response.js";

/** What every flow of one host shares: the response function, the rate bounds, the window. */
export interface SourceRules {
  readonly response: ResponseFunction;
  readonly minRateGbps: number;
  readonly maxRateGbps: number;
  /** Unacknowledged packets allowed; null: no window (rate control alone). */
  readonly windowPackets: number | null;
}

/**
 * One flow's source (docs/design/santos.md, "Source"; seed 002_fea465e6cd934ce6.txt L248–258):
 * rate control with a window limit. A packet may start when fewer than `windowPackets` are
 * unacknowledged and one packet time at the flow's rate has passed since the previous start
 * (the inter-packet delay that enforces the rate, L205–206). Each ACK frees a window slot and
 * moves the rate: down on a marked ACK, up on an unmarked one, kept within [R_min, R_max].
 * A flow starts at R_max.
 */
export class Source implements FlowGate {
  rateGbps: number;
  outstanding = 0;
  decreases = 0;
  increases = 0;
  private lastStartPs: TimePs = Number.NEGATIVE_INFINITY;
  private lastSizeBytes = 0;
  /** One packet time of the last packet at the current rate: asked for on every send decision. */
  private gapPs = 0;

  constructor(
    private readonly rules: SourceRules,
    private readonly packets: Packets,
    private readonly nowPs: () => TimePs,
  ) {
    this.rateGbps = rules.maxRateGbps;
  }

  windowOpen(): boolean {
    const window = this.rules.windowPackets;
    return window === null || this.outstanding < window;
  }

  nextSendPs(nowPs: TimePs): TimePs {
    if (this.lastStartPs === Number.NEGATIVE_INFINITY) return nowPs;
    return this.lastStartPs + this.gapPs;
  }

  onSent(packet: PacketId): void {
    this.outstanding++;
    this.lastStartPs = this.nowPs();
    this.lastSizeBytes = this.packets.sizeBytes[packet]!;
    this.gapPs = serializationPs(this.lastSizeBytes, this.rateGbps);
  }

  /** An ACK of this flow arrived; `marked`: it echoes a mark. */
  acknowledged(marked: boolean): void {
    if (this.outstanding > 0) this.outstanding--;
    const { response, minRateGbps, maxRateGbps } = this.rules;
    const next = marked ? response.decrease(this.rateGbps) : response.increase(this.rateGbps);
    if (marked) this.decreases++;
    else this.increases++;
    this.rateGbps = Math.min(maxRateGbps, Math.max(minRateGbps, next));
    if (this.lastSizeBytes > 0) this.gapPs = serializationPs(this.lastSizeBytes, this.rateGbps);
  }
}
