import { nsToPs, serializationPs, type TimePs } from "@cclab/core-des";
import type { Topology } from "@cclab/fabric";
import { type PortPeer, traceRoute, type Wiring, wiringOf } from "@cclab/topologies";
import type { Network } from "./network.js";

/** What the ideal completion time depends on besides the path. */
export interface IdealFctParams {
  readonly mtuBytes: number;
  readonly headerBytes: number;
  readonly injectionCapGbps: number | null;
  readonly receiveRateGbps: number | null;
  readonly switching: "vct" | "saf";
  /** Bytes a switch needs before routing under VCT. */
  readonly cutThroughBytes: number;
  readonly routingLatencyNs: number;
}

/** Host pairs up to which the signature of each pair is kept in a flat array (16 MiB). */
const FLAT_PAIRS_MAX = 1 << 22;

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
 * spaces starts by the injection cap and consumes at its receive rate. With equal link rates
 * this is the closed form `ser(all packets) + Σ (latency + routing) + per-hop header delay`.
 * Multi-path routes use the first candidate at every switch (equal-cost paths have equal ideal
 * times in the fabrics shipped).
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
  /** Per signature id: its hops, and its ideal times by message size. */
  private readonly signatures: {
    readonly hops: readonly Hop[];
    readonly byBytes: Map<number, TimePs>;
  }[] = [];
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

  /** Ideal completion time of `bytes` of payload from `src` to `dst`, ps. */
  messagePs(src: number, dst: number, bytes: number): TimePs {
    const signature = this.signatures[this.signature(src, dst)]!;
    const cached = signature.byBytes.get(bytes);
    if (cached !== undefined) return cached;
    const value = this.compute(signature.hops, bytes);
    signature.byBytes.set(bytes, value);
    return value;
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
      this.signatures.push({ hops: path.map((cls) => this.classHops[cls]!), byBytes: new Map() });
    }
    return node.id;
  }

  private compute(hops: readonly Hop[], bytes: number): TimePs {
    const { mtuBytes, headerBytes, injectionCapGbps, receiveRateGbps } = this.params;
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
      consumedPs =
        receiveRateGbps === null
          ? tailArrival
          : Math.max(tailArrival, consumedPs) + serializationPs(size, receiveRateGbps);
    }
    return consumedPs;
  }
}
