/**
 * Paper IV's forests of congestion trees (seed 001, "Congestion trees", L1640–1688, and the
 * simulation set-up, L1704–1726 and L1762–1770).
 *
 * Interpretation (each choice cites the lines it follows):
 * - Nodes. A fraction `windyFraction` (x) of all nodes are B nodes; of the others, a fraction
 *   `contributorFraction` are C nodes and the rest V nodes (L1770: "(100 − x)% of the nodes
 *   are divided into 80% C nodes and 20% V nodes"). Counts are rounded to the nearest whole
 *   node; which nodes play which role is a seeded random permutation (L1762: "the V nodes
 *   are randomly distributed in the topology").
 * - Hotspots. `hotspots` distinct hosts drawn at random (L1766: "randomly distributed in the
 *   network"), independently of the roles: a hotspot is also a C, B or V node and keeps
 *   sending. The contributors (B nodes, then C nodes, in permutation order) are dealt round
 *   robin into one subset per hotspot (L1766, L1770: "evenly divided into eight subsets").
 * - Rates. Every node injects at `injectionGbps` (C) all the time (L1762: "constantly try to
 *   inject traffic at maximum capacity; 13.5Gbps"). A C node sends all of it to its hotspot;
 *   a V node all of it uniformly; a B node p to its hotspot and 1 − p uniformly (L1710).
 *   Uniform destinations include every node but the sender, hotspots too (L1710).
 * - Budgets. Hot and cold traffic of a node are two independent message streams, each with
 *   its own time budget: by time t (from startNs) at most p·t·C bytes have entered the queue
 *   for the hotspot and (1 − p)·t·C for other nodes (L1724). Message k of a stream enters at
 *   ceil((k + 1)·bytes·8000 / rate) ps, when the budget has earned it, so neither stream
 *   can borrow the other's share, and a throttled hot queue never holds back cold traffic
 *   (the host adapter keeps one queue pair per destination). The paper's generator draws the
 *   hot/cold choice per message (Frame I, L1708–1719); with per-stream budgets the long-run
 *   shares are the same and the order within the link is left to the host's arbiter.
 * - Moving. Every `lifetimeUs` all hotspots move at once to a fresh random set of hosts; a
 *   subset keeps its index, so subset i follows "hotspot i" (L1722: "hs_i changes into hs_j",
 *   L1810: "moved n times" in a 0.1 s timeslot). A message goes to the hotspot of the lifetime it
 *   enters the queue in.
 * - A node is never its own destination: when a node is its subset's hotspot it sends that
 *   lifetime's hot traffic to the next subset's hotspot, or, with a single hotspot, sends no
 *   hot traffic (its hot budget is unused). Not covered by the paper.
 * - Groups: messages to a hotspot are `hot`, a B node's uniform traffic `cold`, a V node's
 *   traffic `victim`.
 * - Default message: 4096 bytes, two packets of MTU 2048 (L1704).
 */
import { type RngStream, type TimePs, usToPs } from "@cclab/core-des";
import { z } from "zod";
import { allHosts, otherHost } from "./hosts.js";
import { mergeSources } from "./merge.js";
import { earnedPs, PacedStream, type PacedStreamOptions } from "./paced.js";
import { type CheckContext, definePattern } from "./pattern.js";
import { bytesSchema } from "./size.js";
import { timeUs } from "./time-fields.js";
import type { BudgetStream, TrafficContext, TrafficSource } from "./types.js";
import { windowErrors, windowPs, windowShape } from "./window.js";

/** A node's role in Paper IV's forest: C (contributor), B (windy) or V (victim). */
export type TreeRole = "contributor" | "windy" | "victim";

/** Every parameter of a forest; the three patterns fix or default some of them. */
export interface CongestionTreesParams {
  readonly hotspots: number;
  readonly contributorFraction: number;
  readonly windyFraction: number;
  readonly hotFraction: number;
  /** Hotspot lifetime; undefined: the hotspots never move. */
  readonly lifetimeUs?: number | undefined;
  /**
   * False: the nodes' hot traffic is not sent (C nodes are silent, B nodes send only their
   * uniform share): Paper IV's "no hotspots" runs (Table II, L1743–1747). Default true.
   */
  readonly hotTraffic?: boolean | undefined;
  /**
   * Messages a node's stream may hold in its host's queue before its generator pauses (a
   * runner then releases them on demand: {@link BudgetStream}); null: every message enters
   * at its budget time, however long the queue.
   */
  readonly queueLimitMessages?: number | null | undefined;
  readonly injectionGbps?: number | undefined;
  readonly messageBytes: number;
  readonly startNs: number;
  readonly stopNs?: number | undefined;
}

/** Who does what in a forest: derived from the pattern's random stream only. */
export interface CongestionTreesLayout {
  /** Role of each host. */
  readonly roles: readonly TreeRole[];
  /** Hotspot subset of each host (C and B nodes), −1 for V nodes. */
  readonly subsets: readonly number[];
  /** Length of a hotspot lifetime, ps (`Infinity` when the hotspots do not move). */
  readonly lifetimePs: number;
  /** The hotspots (subset i's is element i) during lifetime `epoch` (0 from startNs). */
  hotspotsAt(epoch: number): readonly number[];
}

/**
 * The roles, subsets and hotspots of a forest for `hostCount` hosts, from the traffic
 * entry's random stream `rng` (the one its `create` receives): what a report needs to tell
 * hotspots from non-hotspots, as Paper IV's tables do (L1742–1756).
 */
export function congestionTreesLayout(
  p: CongestionTreesParams,
  hostCount: number,
  rng: RngStream,
): CongestionTreesLayout {
  const order = rng.split("roles").shuffle(allHosts(hostCount));
  const windyCount = Math.round(p.windyFraction * hostCount);
  const contributorCount = Math.round(p.contributorFraction * (hostCount - windyCount));
  const roles: TreeRole[] = new Array<TreeRole>(hostCount).fill("victim");
  const subsets: number[] = new Array<number>(hostCount).fill(-1);
  order.forEach((host, i) => {
    if (i >= windyCount + contributorCount) return;
    roles[host] = i < windyCount ? "windy" : "contributor";
    subsets[host] = i % p.hotspots;
  });
  const all = allHosts(hostCount);
  // A stream asks for the lifetime of its next message only once its previous message has
  // been merged, so lifetimes are asked for in nearly increasing order and a few recent ones
  // suffice; an evicted lifetime is drawn again from its own named stream, with the same result.
  const cache = new Map<number, readonly number[]>();
  const hotspotsAt = (epoch: number): readonly number[] => {
    let hotspots = cache.get(epoch);
    if (hotspots === undefined) {
      hotspots = rng
        .split(`hotspots/${epoch}`)
        .shuffle([...all])
        .slice(0, p.hotspots);
      if (cache.size >= 4) cache.delete(cache.keys().next().value!);
      cache.set(epoch, hotspots);
    }
    return hotspots;
  };
  const lifetimePs = p.lifetimeUs === undefined ? Number.POSITIVE_INFINITY : usToPs(p.lifetimeUs);
  return { roles, subsets, lifetimePs, hotspotsAt };
}

function congestionTreesErrors(p: CongestionTreesParams, ctx: CheckContext): string[] {
  const errors: string[] = [];
  if (p.hotspots > ctx.hostCount) {
    errors.push(`hotspots = ${p.hotspots} exceeds the ${ctx.hostCount} hosts`);
  }
  errors.push(...windowErrors(p));
  return errors;
}

/** One node's hot or cold stream: a paced stream's options without its release rule. */
type TreeStream = Omit<PacedStreamOptions, "release" | "destination"> & {
  readonly group: string;
  readonly destination: (startPs: TimePs) => number | undefined;
};

/** All nodes' hot and cold streams, in host order, hot before cold. */
function treeStreams(p: CongestionTreesParams, ctx: TrafficContext): TreeStream[] {
  const layout = congestionTreesLayout(p, ctx.hostCount, ctx.rng);
  const window = windowPs(p, ctx.endPs);
  const moving = Number.isFinite(layout.lifetimePs);
  const hotDestination = (host: number, subset: number, startPs: TimePs): number | undefined => {
    const epoch = moving ? Math.floor((startPs - window.fromPs) / layout.lifetimePs) : 0;
    const hotspots = layout.hotspotsAt(epoch);
    const hotspot = hotspots[subset]!;
    if (hotspot !== host) return hotspot;
    return hotspots.length > 1 ? hotspots[(subset + 1) % hotspots.length]! : undefined;
  };
  const streams: TreeStream[] = [];
  for (let host = 0; host < ctx.hostCount; host++) {
    const role = layout.roles[host]!;
    const subset = layout.subsets[host]!;
    const rateGbps = p.injectionGbps ?? ctx.hostRateGbps(host);
    const hotShare = role === "contributor" ? 1 : role === "windy" ? p.hotFraction : 0;
    const stream = (share: number) => ({
      srcHost: host,
      messageBytes: p.messageBytes,
      rateGbps: share * rateGbps,
      window,
    });
    // A sole, unmoving hotspot never sends hot traffic: skip the stream instead of skipping
    // each of its messages until the end of the run.
    const idle = !moving && p.hotspots === 1 && layout.hotspotsAt(0)[0] === host;
    if (hotShare > 0 && !idle && p.hotTraffic !== false) {
      streams.push({
        ...stream(hotShare),
        destination: (startPs) => hotDestination(host, subset, startPs),
        group: "hot",
        tags: { group: "hot" },
      });
    }
    if (hotShare < 1) {
      const rng = ctx.rng.split(`host/${host}`);
      const group = role === "victim" ? "victim" : "cold";
      streams.push({
        ...stream(1 - hotShare),
        destination: () => otherHost(rng, host, ctx.hostCount),
        group,
        tags: { group },
      });
    }
  }
  return streams;
}

/** All nodes' streams, merged, each message entering at its budget time (ties: by host, hot first). */
function congestionTreesSource(p: CongestionTreesParams, ctx: TrafficContext): TrafficSource {
  return mergeSources(treeStreams(p, ctx).map((s) => new PacedStream({ ...s, release: "budget" })));
}

/**
 * The streams released on demand (seed 001 L1724: a node sends "back-to-back when not held
 * back", within its budget), or undefined when `queueLimitMessages` is null. Message k is
 * earned at (k + 1)·T, as in the merged source; it goes to the hotspot of the lifetime in
 * which it enters the queue.
 */
function congestionTreesBudgetStreams(
  p: CongestionTreesParams,
  ctx: TrafficContext,
): BudgetStream[] | undefined {
  const limit = p.queueLimitMessages;
  if (limit === null || limit === undefined) return undefined;
  return treeStreams(p, ctx).map((s) => ({
    srcHost: s.srcHost,
    group: s.group,
    messageBytes: s.messageBytes,
    queueLimitMessages: limit,
    budgetPs: (k: number) => earnedPs(s.window, k + 1, s.messageBytes, s.rateGbps),
    destination: (_k: number, nowPs: TimePs) => s.destination(nowPs),
  }));
}

const hotspotsField = z
  .int()
  .positive()
  .default(8)
  .describe("number of hotspots, one congestion tree each (Paper IV: 8)");
const contributorFractionField = z
  .number()
  .min(0)
  .max(1)
  .default(0.8)
  .describe(
    "fraction of the non-B nodes that are C nodes (send only to their hotspot); the rest are V nodes (send uniformly)",
  );
const commonShape = {
  queueLimitMessages: z
    .int()
    .positive()
    .nullable()
    .default(8)
    .describe(
      "messages each node stream (hot, cold) may hold in its host's queue before its generator pauses, catching up within its budget later; null: no limit (every message enters at its budget time, and a blocked node's queue grows without bound)",
    ),
  injectionGbps: z
    .number()
    .positive()
    .optional()
    .describe("injection rate C of every node, Gb/s; default its host link rate (Paper IV: 13.5)"),
  messageBytes: bytesSchema
    .default(4096)
    .describe("size of each message, bytes (Paper IV: 2 packets of MTU 2048)"),
  ...windowShape,
};
const hotFractionField = z
  .number()
  .min(0)
  .max(1)
  .default(0.5)
  .describe("fraction p of a B node's traffic sent to its hotspot; the rest goes uniformly");

export const silentTrees = definePattern({
  name: "silent-trees",
  description:
    "Paper IV silent forest: C nodes send only to one of N fixed hotspots, V nodes uniformly",
  params: z.strictObject({
    hotspots: hotspotsField,
    contributorFraction: contributorFractionField,
    hotTraffic: z
      .boolean()
      .default(true)
      .describe(
        "false: the C nodes send nothing and only the V nodes' uniform traffic runs (Paper IV's \"no hotspots\" baseline, Table II)",
      ),
    ...commonShape,
  }),
  finite: (p) => p.stopNs !== undefined,
  check: (p, ctx) => congestionTreesErrors({ ...p, windyFraction: 0, hotFraction: 1 }, ctx),
  create: (p, ctx) => congestionTreesSource({ ...p, windyFraction: 0, hotFraction: 1 }, ctx),
  budgetStreams: (p, ctx) =>
    congestionTreesBudgetStreams({ ...p, windyFraction: 0, hotFraction: 1 }, ctx),
});

const windyFractionField = (fallback: number, meaning: string) =>
  z.number().min(0).max(1).default(fallback).describe(meaning);

export const windyTrees = definePattern({
  name: "windy-trees",
  description:
    "Paper IV windy forest: B nodes send a fraction p to their hotspot and the rest uniformly",
  params: z.strictObject({
    hotspots: hotspotsField,
    windyFraction: windyFractionField(
      1,
      "fraction x of the nodes that are B nodes (Paper IV: 0.25 to 1)",
    ),
    hotFraction: hotFractionField,
    contributorFraction: contributorFractionField,
    ...commonShape,
  }),
  finite: (p) => p.stopNs !== undefined,
  check: congestionTreesErrors,
  create: congestionTreesSource,
  budgetStreams: congestionTreesBudgetStreams,
});

export const movingTrees = definePattern({
  name: "moving-trees",
  description:
    "Paper IV moving forest: silent or windy trees whose hotspots all move every lifetime",
  params: z.strictObject({
    hotspots: hotspotsField,
    lifetimeUs: timeUs("> 0")
      .default(1000)
      .describe(
        "hotspot lifetime: all hotspots move to new random hosts this often, µs (1000 to 10000)",
      ),
    windyFraction: windyFractionField(
      0,
      "fraction x of the nodes that are B nodes; 0: moving silent trees",
    ),
    hotFraction: hotFractionField,
    contributorFraction: contributorFractionField,
    ...commonShape,
  }),
  finite: (p) => p.stopNs !== undefined,
  check: congestionTreesErrors,
  create: congestionTreesSource,
  budgetStreams: congestionTreesBudgetStreams,
});
