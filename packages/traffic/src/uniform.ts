import type { RngStream } from "@cclab/core-des";
import { z } from "zod";
import { allHosts, hostListErrors, hostListSchema, otherHost } from "./hosts.js";
import { mergeSources } from "./merge.js";
import { makeMessage } from "./message.js";
import { definePattern } from "./pattern.js";
import { DEFAULT_SIZE, type MessageSize, meanBytes, sampleBytes, sizeSchema } from "./size.js";
import type { TrafficContext, TrafficMessage, TrafficSource } from "./types.js";
import { type WindowPs, windowErrors, windowPs, windowShape } from "./window.js";

/** Offered load as a fraction of the sender's host link rate. */
export const loadFractionSchema = z.number().positive().max(1);

/**
 * One host's Poisson arrivals: exponential gaps with mean meanBytes·8000/(load·rate) ps, so
 * the offered load is `loadFraction` of the host link on average; each message goes to a
 * uniformly random other host and has a size drawn from the distribution.
 */
class PoissonHost implements TrafficSource {
  private readonly meanGapPs: number;
  /** Exact (fractional) arrival time; emitted times are this rounded to the nearest ps. */
  private timePs: number;
  private done = false;

  constructor(
    private readonly srcHost: number,
    private readonly hostCount: number,
    rateGbps: number,
    loadFraction: number,
    private readonly size: MessageSize,
    private readonly window: WindowPs,
    private readonly rng: RngStream,
    private readonly group: string | undefined,
  ) {
    this.meanGapPs = (meanBytes(size) * 8000) / (loadFraction * rateGbps);
    this.timePs = window.fromPs;
  }

  next(): TrafficMessage | undefined {
    if (this.done) return undefined;
    this.timePs += this.rng.exponential(this.meanGapPs);
    // Rounding a non-decreasing sequence keeps it non-decreasing, and the exact times are
    // kept, so rounding errors do not accumulate.
    const startPs = Math.round(this.timePs);
    if (!(startPs < this.window.untilPs)) {
      this.done = true;
      return undefined;
    }
    const dstHost = otherHost(this.rng, this.srcHost, this.hostCount);
    const bytes = sampleBytes(this.size, this.rng);
    return makeMessage(this.srcHost, dstHost, bytes, startPs, { group: this.group });
  }
}

/**
 * Uniform random traffic from `senders`, each host with its own stream
 * `rng.split("host/<h>")`, so a host's messages do not depend on how many hosts there are or
 * in which order they are built.
 */
export function uniformSources(
  senders: readonly number[],
  loadFraction: number,
  size: MessageSize,
  window: WindowPs,
  ctx: TrafficContext,
  rng: RngStream,
  group: string | undefined,
): TrafficSource {
  return mergeSources(
    senders.map(
      (h) =>
        new PoissonHost(
          h,
          ctx.hostCount,
          ctx.hostRateGbps(h),
          loadFraction,
          size,
          window,
          rng.split(`host/${h}`),
          group,
        ),
    ),
  );
}

const params = z.strictObject({
  loadFraction: loadFractionSchema.describe(
    "offered load of each sender, fraction of its host link rate (Poisson arrivals)",
  ),
  size: sizeSchema
    .default(DEFAULT_SIZE)
    .describe("message-size distribution; default fixed 4096 bytes"),
  senders: hostListSchema.optional().describe("hosts that send; default every host"),
  ...windowShape,
});

export const uniform = definePattern({
  name: "uniform",
  description:
    "uniform random: Poisson arrivals at a load per sender, each message to a random other host",
  params,
  finite: (p) => p.stopNs !== undefined,
  check: (p, ctx) => [
    ...(p.senders ? hostListErrors("senders", p.senders, ctx.hostCount) : []),
    ...windowErrors(p),
  ],
  create: (p, ctx) =>
    uniformSources(
      p.senders ?? allHosts(ctx.hostCount),
      p.loadFraction,
      p.size,
      windowPs(p, ctx.endPs),
      ctx,
      ctx.rng,
      undefined,
    ),
});
