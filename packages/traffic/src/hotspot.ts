import type { TimePs } from "@cclab/core-des";
import { z } from "zod";
import {
  allHosts,
  chooseHosts,
  hostError,
  hostListErrors,
  hostListSchema,
  hostSchema,
} from "./hosts.js";
import { mergeSources } from "./merge.js";
import { earnedPs, PacedStream } from "./paced.js";
import { type CheckContext, definePattern } from "./pattern.js";
import { bytesSchema } from "./size.js";
import type { BudgetStream, TrafficContext, TrafficSource } from "./types.js";
import { type WindowPs, windowErrors, windowPs, windowShape } from "./window.js";

/**
 * N:1 hot-spot: a set of senders continuously sending to one destination (SRP, seed 000 L100:
 * "a subset of nodes transmit exclusively to the hot-spot"; L131: 40 randomly selected nodes
 * continuously transmit to a single destination).
 */
export const hotspotShape = {
  hotspot: hostSchema
    .optional()
    .describe(
      "the hot-spot (destination) host; default a seeded random host not among the senders",
    ),
  senders: hostListSchema
    .optional()
    .describe("hosts sending to the hot-spot; default senderCount hosts, or every other host"),
  senderCount: z
    .int()
    .positive()
    .optional()
    .describe("number of senders drawn at random (seeded) among the hosts other than the hot-spot"),
  messageBytes: bytesSchema.default(4096).describe("size of each hot-spot message, bytes"),
  rateGbps: z
    .number()
    .positive()
    .optional()
    .describe("offered rate of each sender, Gb/s; default its host link rate (always has data)"),
  ...windowShape,
};

export interface HotspotParams {
  readonly hotspot?: number | undefined;
  readonly senders?: readonly number[] | undefined;
  readonly senderCount?: number | undefined;
  readonly messageBytes: number;
  readonly rateGbps?: number | undefined;
  readonly startNs: number;
  readonly stopNs?: number | undefined;
}

export function hotspotErrors(p: HotspotParams, ctx: CheckContext): string[] {
  const n = ctx.hostCount;
  const errors: string[] = [];
  if (p.hotspot !== undefined) {
    const e = hostError("hotspot", p.hotspot, n);
    if (e !== undefined) errors.push(e);
  }
  if (p.senders !== undefined) {
    errors.push(...hostListErrors("senders", p.senders, n));
    p.senders.forEach((h, i) => {
      if (h === p.hotspot) errors.push(`senders[${i}] = ${h} is the hotspot`);
    });
    if (p.senderCount !== undefined) errors.push("give senders or senderCount, not both");
    if (p.hotspot === undefined && new Set(p.senders).size >= n) {
      errors.push("senders include every host: none is left to be the hotspot");
    }
  }
  if (p.senderCount !== undefined && p.senderCount > n - 1) {
    errors.push(`senderCount = ${p.senderCount} exceeds the ${n - 1} hosts besides the hotspot`);
  }
  errors.push(...windowErrors(p));
  return errors;
}

/** The hot-spot and its senders (ascending), drawn from `ctx.rng` where not given. */
export function resolveHotspot(
  p: HotspotParams,
  ctx: TrafficContext,
): { hotspot: number; senders: number[] } {
  const n = ctx.hostCount;
  if (p.senders !== undefined) {
    const senders = [...p.senders].sort((a, b) => a - b);
    const taken = new Set(senders);
    const hotspot =
      p.hotspot ?? ctx.rng.split("hotspot").pick(allHosts(n).filter((h) => !taken.has(h)));
    return { hotspot, senders };
  }
  const hotspot = p.hotspot ?? ctx.rng.split("hotspot").intRange(0, n - 1);
  const others = allHosts(n).filter((h) => h !== hotspot);
  const senders =
    p.senderCount === undefined
      ? others
      : chooseHosts(ctx.rng.split("senders"), others, p.senderCount);
  return { hotspot, senders };
}

/** Every sender greedy to the hot-spot, messages tagged `hot`. */
export function hotspotSources(
  p: HotspotParams,
  hotspot: number,
  senders: readonly number[],
  window: WindowPs,
  ctx: TrafficContext,
): TrafficSource {
  return mergeSources(
    senders.map(
      (srcHost) =>
        new PacedStream({
          srcHost,
          messageBytes: p.messageBytes,
          rateGbps: p.rateGbps ?? ctx.hostRateGbps(srcHost),
          window,
          release: "start",
          destination: () => hotspot,
          tags: { group: "hot" },
        }),
    ),
  );
}

/**
 * The senders as greedy sources that keep at most `limit` messages queued (released on demand
 * by the runner, see {@link BudgetStream}): each sends as fast as it may, at most at its rate,
 * and a message its rate earned in the window but that could not enter the queue before the
 * window's end is never sent. So a sender held back by the network stops injecting when its
 * window ends, where with `queueLimitMessages: null` it goes on sending what it queued (Gran
 * thesis Paper V, seed 001 L2059: the hot sources "stop injecting traffic after this time").
 */
function hotspotBudgetStreams(
  p: HotspotParams,
  limit: number,
  ctx: TrafficContext,
): BudgetStream[] {
  const { hotspot, senders } = resolveHotspot(p, ctx);
  const window = windowPs(p, ctx.endPs);
  return senders.map((srcHost) => ({
    srcHost,
    group: "hot",
    messageBytes: p.messageBytes,
    queueLimitMessages: limit,
    budgetPs: (k: number) =>
      earnedPs(window, k, p.messageBytes, p.rateGbps ?? ctx.hostRateGbps(srcHost)),
    destination: (_k: number, nowPs: TimePs) => (nowPs < window.untilPs ? hotspot : undefined),
  }));
}

export const hotspot = definePattern({
  name: "hotspot",
  description: "N:1 hot-spot: chosen or random senders continuously sending to one host",
  params: z.strictObject({
    ...hotspotShape,
    queueLimitMessages: z
      .int()
      .positive()
      .nullable()
      .default(null)
      .describe(
        "messages each sender may hold in its host's queue: it then sends as fast as the network lets it, at most at its rate, and stops at stopNs, dropping what it could not queue by then; null: every message enters the queue at its time, and a held-back sender's queue grows and is still sent after stopNs",
      ),
  }),
  finite: (p) => p.stopNs !== undefined,
  check: hotspotErrors,
  create: (p, ctx) => {
    const { hotspot, senders } = resolveHotspot(p, ctx);
    return hotspotSources(p, hotspot, senders, windowPs(p, ctx.endPs), ctx);
  },
  budgetStreams: (p, ctx) =>
    p.queueLimitMessages === null ? undefined : hotspotBudgetStreams(p, p.queueLimitMessages, ctx),
});
