import { PS_PER_US, type RngStream } from "@cclab/core-des";
import { z } from "zod";
import { allHosts, dstAndSendersErrors, hostListSchema, hostSchema, otherHost } from "./hosts.js";
import { mergeSources } from "./merge.js";
import { makeMessage } from "./message.js";
import { offsetPs } from "./paced.js";
import { definePattern } from "./pattern.js";
import { bytesSchema } from "./size.js";
import { timeUs } from "./time-fields.js";
import type { TrafficMessage, TrafficSource } from "./types.js";
import { type WindowPs, windowErrors, windowPs, windowShape } from "./window.js";

type Durations = "fixed" | "exponential";

const params = z.strictObject({
  senders: hostListSchema
    .optional()
    .describe("hosts that send bursts; default every host (but dstHost)"),
  dstHost: hostSchema
    .optional()
    .describe("destination of every burst; default a uniformly random other host per burst"),
  onUs: timeUs("> 0").describe("length of an on period (mean, if exponential), µs"),
  offUs: timeUs("> 0").describe("length of an off period (mean, if exponential), µs"),
  durations: z
    .enum(["fixed", "exponential"])
    .default("exponential")
    .describe("on and off lengths: fixed, or exponentially distributed with those means"),
  synchronized: z
    .boolean()
    .default(false)
    .describe(
      "every sender starts an on period at startNs; otherwise each starts at a random point of its on/off cycle",
    ),
  rateGbps: z
    .number()
    .positive()
    .optional()
    .describe("offered rate while on, Gb/s; default the sender's host link rate"),
  messageBytes: bytesSchema.default(4096).describe("size of each message, bytes"),
  ...windowShape,
});

/**
 * One host alternating on and off periods. Messages are laid out on the host's "on-time"
 * axis, message k at k·T of accumulated on time (T = one message at the rate), and mapped to
 * real time through the on periods. So the offered rate is exactly `rate × on fraction` in
 * the long run, with no rounding of a fraction of a message per period, and (at the link rate)
 * the send queue has data for the whole of every on period.
 */
class OnOffHost implements TrafficSource {
  private readonly onPs: number;
  private readonly offPs: number;
  /** Real start of the current on period (exact, fractional ps). */
  private periodPs: number;
  /** Length of the current on period, ps. */
  private lengthPs: number;
  /** Accumulated on time before the current on period, ps. */
  private onAxisPs = 0;
  private dstHost: number;
  private k = 0;
  private done = false;

  constructor(
    private readonly srcHost: number,
    private readonly hostCount: number,
    private readonly fixedDst: number | undefined,
    onUs: number,
    offUs: number,
    private readonly durations: Durations,
    synchronized: boolean,
    private readonly rateGbps: number,
    private readonly messageBytes: number,
    private readonly window: WindowPs,
    private readonly rng: RngStream,
  ) {
    // Kept fractional: durations are real numbers; only message times are rounded to ps.
    this.onPs = onUs * PS_PER_US;
    this.offPs = offUs * PS_PER_US;
    this.periodPs = window.fromPs;
    if (synchronized) {
      this.lengthPs = this.draw(this.onPs);
    } else if (rng.bernoulli(this.onPs / (this.onPs + this.offPs))) {
      // Start in the stationary state: on with probability on/(on + off), for the residual
      // of that period (a fresh exponential by memorylessness, uniform for fixed lengths).
      this.lengthPs = this.residual(this.onPs);
    } else {
      this.periodPs += this.residual(this.offPs);
      this.lengthPs = this.draw(this.onPs);
    }
    this.dstHost = this.burstDestination();
  }

  next(): TrafficMessage | undefined {
    if (this.done) return undefined;
    const axisPs = offsetPs(this.k * this.messageBytes, this.rateGbps);
    while (axisPs >= this.onAxisPs + this.lengthPs) {
      this.periodPs += this.lengthPs + this.draw(this.offPs);
      this.onAxisPs += this.lengthPs;
      this.lengthPs = this.draw(this.onPs);
      this.dstHost = this.burstDestination();
      if (!(this.periodPs < this.window.untilPs)) break;
    }
    // Rounded to the nearest ps; exact times are kept, so rounding never accumulates.
    const startPs = Math.round(this.periodPs + (axisPs - this.onAxisPs));
    if (!(startPs < this.window.untilPs)) {
      this.done = true;
      return undefined;
    }
    this.k++;
    return makeMessage(this.srcHost, this.dstHost, this.messageBytes, startPs, {});
  }

  private draw(meanPs: number): number {
    return this.durations === "fixed" ? meanPs : this.rng.exponential(meanPs);
  }

  private residual(meanPs: number): number {
    return this.durations === "fixed"
      ? this.rng.uniformRange(0, meanPs)
      : this.rng.exponential(meanPs);
  }

  private burstDestination(): number {
    return this.fixedDst ?? otherHost(this.rng, this.srcHost, this.hostCount);
  }
}

export const onOff = definePattern({
  name: "on-off",
  description: "on/off bursts: senders alternate on periods at a rate and silent off periods",
  params,
  finite: (p) => p.stopNs !== undefined,
  check: (p, ctx) => {
    const errors = dstAndSendersErrors(p, ctx.hostCount);
    errors.push(...windowErrors(p));
    return errors;
  },
  create: (p, ctx) => {
    const window = windowPs(p, ctx.endPs);
    const senders = p.senders ?? allHosts(ctx.hostCount).filter((h) => h !== p.dstHost);
    return mergeSources(
      senders.map(
        (h) =>
          new OnOffHost(
            h,
            ctx.hostCount,
            p.dstHost,
            p.onUs,
            p.offUs,
            p.durations,
            p.synchronized,
            p.rateGbps ?? ctx.hostRateGbps(h),
            p.messageBytes,
            window,
            ctx.rng.split(`host/${h}`),
          ),
      ),
    );
  },
});
