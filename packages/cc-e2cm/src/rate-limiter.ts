import { serializationPs, type TimePs } from "@cclab/core-des";

/** What a limiter shapes: a flow's reaction point, which holds it while it is slowed. */
export interface Shaped {
  limiter: RateLimiter | undefined;
}

/**
 * A rate limiter of a reaction point (docs/design/e2cm.md, "Reaction point"): it lets a frame
 * of the flows it shapes start once the previous one has left at its rate. With limiters per
 * flow (E2CM's adapter, seed 003_b214e58ba856b6a6.txt L166) it shapes one flow; with limiters
 * per congestion point (BCN's) every flow of the host last slowed by that point.
 */
export class RateLimiter {
  /** The flows the limiter shapes (their reaction points' hold on it). */
  readonly flows = new Set<Shaped>();
  /** Start and size of the last frame any of its flows sent. */
  lastStartPs: TimePs = Number.NEGATIVE_INFINITY;
  lastSizeBytes = 0;
  /** BCN(0,0): no frame before this time. */
  stoppedUntilPs: TimePs = Number.NEGATIVE_INFINITY;

  constructor(
    /** The congestion point of the last negative BCN (L167): the CM tag of its frames. */
    public cpid: number,
    /** Rate, Gb/s. */
    public rateGbps: number,
  ) {}

  /** Earliest start of the next frame of its flows. */
  nextSendPs(): TimePs {
    return Math.max(
      this.stoppedUntilPs,
      this.lastStartPs + serializationPs(this.lastSizeBytes, this.rateGbps),
    );
  }

  sent(nowPs: TimePs, sizeBytes: number): void {
    this.lastStartPs = nowPs;
    this.lastSizeBytes = sizeBytes;
  }
}
