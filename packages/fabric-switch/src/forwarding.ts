import type { RngStream } from "@cclab/core-des";
import type { ForwardingTable, PacketId, Packets } from "@cclab/fabric";
import { flowHashModulo } from "./flow-hash.js";

// Port selection rules (ForwardingTable["selection"]) as codes: an enum, which bundling writes
// as literals (module `const`s become `var`s that V8 loads at every use).
enum Select {
  First = 0,
  Hash = 1,
  Random = 2,
}

/**
 * A switch's forwarding table, flattened (docs/model.md, "Through a switch"): destination `d`'s
 * candidate ports are the `count[d]` entries of `ports` from `start[d]`, and the selection rule
 * among them is a code. An array of arrays and a string compare per packet measured 5 % of
 * uniform256's time. Destinations that share a candidate list (the routing builders reuse one
 * array per distinct list) share its entries: a leaf sends most destinations up the same ports.
 */
export class Forwarding {
  private readonly selection: number;
  private readonly start: Int32Array;
  private readonly count: Int32Array;
  private readonly ports: Int32Array;

  constructor(
    table: ForwardingTable,
    private readonly switchIndex: number,
    /** Used by `random` port selection. */
    private readonly rng: RngStream,
  ) {
    this.selection =
      table.selection === "first"
        ? Select.First
        : table.selection === "flow-hash"
          ? Select.Hash
          : Select.Random;
    // Each distinct list is copied once. A copy per destination made a leaf of an 8192-host
    // leaf–spine hold 524 k entries (268 MB over its 128 leaves); `Int32Array.from` over the
    // flattened lists went through an iterator per entry (4.3 s of an 8.8 s `cclab validate`
    // at 4096 hosts).
    const candidates = table.candidates;
    this.start = new Int32Array(candidates.length);
    this.count = new Int32Array(candidates.length);
    const startOf = new Map<readonly number[], number>();
    let entries = 0;
    for (const list of candidates) {
      if (!startOf.has(list)) {
        startOf.set(list, entries);
        entries += list.length;
      }
    }
    this.ports = new Int32Array(entries);
    for (const [list, start] of startOf) this.ports.set(list, start);
    for (let d = 0; d < candidates.length; d++) {
      this.start[d] = startOf.get(candidates[d]!)!;
      this.count[d] = candidates[d]!.length;
    }
  }

  /**
   * The output port for `packet` (by its destination, and its flow under `flow-hash`), or −1
   * when the table has no port for it (a destination out of range included). The flow id is
   * read only where it matters: one more packet column per hop is one more cache miss.
   */
  outPort(packets: Packets, packet: PacketId): number {
    const dst = packets.dstHost[packet]!;
    const start = this.start[dst];
    const count = start === undefined ? 0 : this.count[dst]!;
    if (count === 0) return -1;
    if (count === 1 || this.selection === Select.First) return this.ports[start!]!;
    if (this.selection === Select.Hash) {
      return this.ports[start! + flowHashModulo(packets.flowId[packet]!, this.switchIndex, count)]!;
    }
    return this.ports[start! + this.rng.intRange(0, count - 1)]!;
  }
}

/** The error for a packet a switch has no port for. */
export function noRouteError(switchName: string, packets: Packets, packet: PacketId): Error {
  return new Error(
    `switch ${switchName} has no route to host ${packets.dstHost[packet]} (packet of flow ${packets.flowId[packet]}); check the routing tables`,
  );
}
