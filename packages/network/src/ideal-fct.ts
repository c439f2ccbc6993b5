import { nsToPs, serializationPs, type TimePs } from "@cclab/core-des";
import type { Topology } from "@cclab/fabric";
import { ReceiveRate, type ReceiveRateStep } from "@cclab/fabric-hca";
import { type PortPeer, traceRoute, type Wiring, wiringOf } from "@cclab/topologies";
import type { Network } from "./network.js";

/** What the ideal completion time depends on besides the path. */
export interface IdealFctParams {
  readonly mtuBytes: number;
  readonly headerBytes: number;
  readonly injectionCapGbps: number | null;
  readonly receiveRateGbps: number | null;
  /**
   * Per destination host index, its receive-rate schedule (`HcaConfig.receiveRateSchedule`);
   * missing or `undefined`: `receiveRateGbps` throughout.
   */
  readonly receiveRateSchedules?: readonly (readonly ReceiveRateStep[] | undefined)[];
  readonly switching: "vct" | "saf";
  /** Bytes a switch needs before routing under VCT. */
  readonly cutThroughBytes: number;
  readonly routingLatencyNs: number;
}

/** Host pairs up to which the signature of each pair is kept in a flat array (16 MiB). */
const FLAT_PAIRS_MAX = 1 << 22;

/** A destination with a receive-rate schedule: its rate at time 0 and its later steps. */
interface ScheduledReceiver {
  readonly rateGbps: number | null;
  readonly later: readonly ReceiveRateStep[];
}

/**
 * Routes with the same rates and latencies hop by hop: their hops, and their ideal times by
 * message size at the receive rate `receiveRateGbps` (`byBytes`) and at other rates a schedule
 * gives (`byRate`, keyed by the rate, 0 for null).
 */
interface Signature {
  readonly hops: readonly Hop[];
  readonly byBytes: Map<number, TimePs>;
  readonly byRate: Map<number, Map<number, TimePs>>;
}

interface Hop {
  readonly rateGbps: number;
  readonly latencyPs: TimePs;
}

// A node of the trie of route signatures: a path of cable classes from the source host.
interface SignatureNode {
  readonly next: Map<number, SignatureNode>;
  /** The signature id of the route that ends here, or −1. */
  id: number;
}

/**
 * The message completion time of a message alone on an idle network (docs/model.md, "What is
 * measured": the slowdown's denominator). It replays the model's timing rules packet by packet
 * along the route with no other traffic and no credit or pause limits: a packet starts on a
 * link when the port is free and (after the first link) when its header (VCT) or tail (SAF)
 * has arrived plus the routing latency; it cannot finish before its tail has arrived; the host
 * spaces starts by the injection cap, and the destination consumes at its receive rate in
 * force when each packet's service starts (with a receive-rate schedule, docs/model.md "Hosts",
 * that depends on when the message arrives). With equal link rates this is the closed form
 * `ser(all packets) + Σ (latency + routing) + per-hop header delay`. Multi-path routes use the
 * first candidate at every switch (equal-cost paths have equal ideal times in the fabrics
 * shipped).
 */
export class IdealFct {
  private readonly wiring: Wiring;
  /**
   * Per (src, dst) pair seen, the id of its route's signature: routes with the same rates and
   * latencies hop by hop have the same ideal times, and a fabric has few distinct ones (a
   * 648-node folded Clos has 419,256 pairs and a handful of signatures). Stored as id + 1
   * (0: not seen yet) in a flat array when the pairs fit in {@link FLAT_PAIRS_MAX} entries: it
   * is read once per completed message, and a Map of that many keys missed the cache.
   */
  private readonly signatureOfPair: Int32Array | Map<number, number>;
  /**
   * Per cable, its class: cables of equal rate and latency have the same id, and a route's
   * signature is the sequence of its cables' classes. New pairs look their signature up in a
   * trie of these ids. A string key and traceRoute's hop objects per pair (uniform256: 16 k
   * pairs) were 24 MB of the run's 130 MB of allocations, and 83 ms of a 5.3 s CPU profile.
   */
  private readonly cableClass: Int32Array;
  private readonly classHops: Hop[] = [];
  private readonly signatureRoot: SignatureNode = { next: new Map(), id: -1 };
  /** Per signature id, its hops and ideal times. */
  private readonly signatures: Signature[] = [];
  /** Per host index, its schedule if it has one. */
  private readonly scheduled: (ScheduledReceiver | undefined)[];
  /** The classes of the route being looked up (reused). */
  private readonly path: number[] = [];
  private readonly routingPs: TimePs;

  /** The ideal times of a built network, with its host and switch parameters. */
  static of(network: Network): IdealFct {
    return new IdealFct(network.topology, {
      mtuBytes: network.hostConfig.mtuBytes,
      headerBytes: network.hostConfig.headerBytes,
      injectionCapGbps: network.hostConfig.injectionCapGbps,
      receiveRateGbps: network.hostConfig.receiveRateGbps,
      receiveRateSchedules: network.hostConfigs.map((c) =>
        c.receiveRateSchedule.length === 0 ? undefined : c.receiveRateSchedule,
      ),
      switching: network.switchConfig.switching,
      cutThroughBytes: network.switchConfig.headerBytes,
      routingLatencyNs: network.switchConfig.routingLatencyNs,
    });
  }

  constructor(
    private readonly topology: Topology,
    private readonly params: IdealFctParams,
  ) {
    this.wiring = wiringOf(topology.fabric);
    const hosts = topology.fabric.hosts.length;
    this.signatureOfPair =
      hosts * hosts <= FLAT_PAIRS_MAX ? new Int32Array(hosts * hosts) : new Map<number, number>();
    this.routingPs = nsToPs(params.routingLatencyNs);
    this.scheduled = Array.from({ length: hosts }, (_, h) => {
      const steps = params.receiveRateSchedules?.[h];
      if (steps === undefined || steps.length === 0) return undefined;
      // Steps at time 0 only set the rate the host starts with.
      const atStart = new ReceiveRate(params.receiveRateGbps, steps);
      atStart.advance(0);
      return { rateGbps: atStart.rateGbps, later: steps.filter((s) => s.atPs > 0) };
    });
    const cables = topology.fabric.cables;
    this.cableClass = new Int32Array(cables.length);
    const classOf = new Map<string, number>();
    for (let c = 0; c < cables.length; c++) {
      const hop: Hop = { rateGbps: cables[c]!.rateGbps, latencyPs: nsToPs(cables[c]!.latencyNs) };
      const key = `${hop.rateGbps}/${hop.latencyPs}`;
      let id = classOf.get(key);
      if (id === undefined) {
        id = this.classHops.length;
        classOf.set(key, id);
        this.classHops.push(hop);
      }
      this.cableClass[c] = id;
    }
  }

  /**
   * Ideal completion time of `bytes` of payload from `src` to `dst`, ps, for a message that
   * arrives at `startPs`: the arrival matters only when `dst`'s receive rate changes after
   * time 0 ({@link dependsOnStart}).
   */
  messagePs(src: number, dst: number, bytes: number, startPs: TimePs = 0): TimePs {
    const signature = this.signatures[this.signature(src, dst)]!;
    const receiver = this.scheduled[dst];
    if (receiver === undefined) {
      return this.atRate(signature, signature.byBytes, this.params.receiveRateGbps, bytes);
    }
    const receive = new ReceiveRate(receiver.rateGbps, receiver.later);
    receive.advance(startPs);
    const rateGbps = receive.rateGbps;
    const byBytes =
      rateGbps === this.params.receiveRateGbps
        ? signature.byBytes
        : this.byRate(signature, rateGbps);
    const value = this.atRate(signature, byBytes, rateGbps, bytes);
    // A message whose every packet is consumed before the next change sees one rate; one that
    // spans a change is replayed with the steps (not kept: its time depends on its start).
    if (startPs + value < receive.nextChangePs) return value;
    return this.compute(signature.hops, bytes, receive, startPs);
  }

  /** Whether a message's ideal time to `dst` depends on when it arrives (its rate changes). */
  dependsOnStart(dst: number): boolean {
    return (this.scheduled[dst]?.later.length ?? 0) > 0;
  }

  private atRate(
    signature: Signature,
    byBytes: Map<number, TimePs>,
    rateGbps: number | null,
    bytes: number,
  ): TimePs {
    const cached = byBytes.get(bytes);
    if (cached !== undefined) return cached;
    const value = this.compute(signature.hops, bytes, new ReceiveRate(rateGbps, []), 0);
    byBytes.set(bytes, value);
    return value;
  }

  private byRate(signature: Signature, rateGbps: number | null): Map<number, TimePs> {
    const key = rateGbps ?? 0;
    let byBytes = signature.byRate.get(key);
    if (byBytes === undefined) {
      byBytes = new Map();
      signature.byRate.set(key, byBytes);
    }
    return byBytes;
  }

  private signature(src: number, dst: number): number {
    const pair = src * this.topology.fabric.hosts.length + dst;
    const ofPair = this.signatureOfPair;
    if (ofPair instanceof Int32Array) {
      const known = ofPair[pair]!;
      if (known !== 0) return known - 1;
    } else {
      const known = ofPair.get(pair);
      if (known !== undefined) return known;
    }
    const id = this.routeSignature(src, dst);
    if (ofPair instanceof Int32Array) ofPair[pair] = id + 1;
    else ofPair.set(pair, id);
    return id;
  }

  // The signature id of the route from `src` to `dst` along the first candidates, as
  // traceRoute follows it. A route traceRoute rejects (an uncabled host, a dead end, a loop, a
  // wrong host at the end) is handed to it, to throw its message.
  private routeSignature(src: number, dst: number): number {
    const { fabric, routing } = this.topology;
    const { hostPeers, switchPorts } = this.wiring;
    const path = this.path;
    path.length = 0;
    let at: PortPeer | undefined = hostPeers[src];
    while (at !== undefined && at.kind === "switch" && path.length <= fabric.switches.length) {
      path.push(this.cableClass[at.cable]!);
      const candidates = routing.tables[at.index]?.candidates[dst];
      at = candidates?.length ? switchPorts[at.index]![candidates[0]!] : undefined;
    }
    if (at === undefined || at.kind !== "host" || at.index !== dst) {
      traceRoute(this.wiring, routing, src, dst);
      throw new Error(`ideal FCT: no route from host ${src} to host ${dst}`);
    }
    path.push(this.cableClass[at.cable]!);
    let node = this.signatureRoot;
    for (const cls of path) {
      let next = node.next.get(cls);
      if (next === undefined) {
        next = { next: new Map(), id: -1 };
        node.next.set(cls, next);
      }
      node = next;
    }
    if (node.id < 0) {
      node.id = this.signatures.length;
      this.signatures.push({
        hops: path.map((cls) => this.classHops[cls]!),
        byBytes: new Map(),
        byRate: new Map(),
      });
    }
    return node.id;
  }

  // The replay, from the message's arrival (time 0 here, `startPs` for `receive`): each packet's
  // service starts when it has arrived and the one before is consumed, at the rate in force
  // then (docs/model.md, "Hosts"); a null rate consumes it at that moment.
  private compute(
    hops: readonly Hop[],
    bytes: number,
    receive: ReceiveRate,
    startPs: TimePs,
  ): TimePs {
    const { mtuBytes, headerBytes, injectionCapGbps } = this.params;
    const cutThrough =
      this.params.switching === "vct" ? this.params.cutThroughBytes : Number.POSITIVE_INFINITY;
    const k = hops.length;
    // Per link: when its port is next free (end of the previous packet's transmission).
    const portFree = new Array<number>(k).fill(0);
    let nextInjectPs = 0;
    let consumedPs = 0;
    for (let sent = 0; sent < bytes; ) {
      const payload = Math.min(mtuBytes, bytes - sent);
      sent += payload;
      const size = payload + headerBytes;
      let start = Math.max(nextInjectPs, portFree[0]!);
      if (injectionCapGbps !== null) nextInjectPs = start + serializationPs(size, injectionCapGbps);
      let tailArrival = 0;
      for (let j = 0; j < k; j++) {
        const { rateGbps, latencyPs } = hops[j]!;
        if (j > 0) {
          const prev = hops[j - 1]!;
          const eligible =
            size > cutThrough
              ? start + prev.latencyPs + serializationPs(cutThrough, prev.rateGbps) + this.routingPs
              : tailArrival + this.routingPs;
          start = Math.max(eligible, portFree[j]!);
        }
        const end = Math.max(start + serializationPs(size, rateGbps), tailArrival);
        portFree[j] = end;
        tailArrival = end + latencyPs;
      }
      // Tails only grow, so at a null rate throughout this is each packet's tail.
      const servicePs = Math.max(tailArrival, consumedPs);
      if (startPs + servicePs >= receive.nextChangePs) receive.advance(startPs + servicePs);
      const rateGbps = receive.rateGbps;
      consumedPs = rateGbps === null ? servicePs : servicePs + serializationPs(size, rateGbps);
    }
    return consumedPs;
  }
}
