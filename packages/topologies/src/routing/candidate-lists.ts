import type { FabricDescription } from "@cclab/fabric";

/**
 * Largest forwarding-table size: switches × hosts candidate lists. 2^25 lists of shared
 * arrays is ≈ 270 MB of references; a 36-port three-level fat tree (11 664 hosts, 1 620
 * switches, 18.9 M lists) still fits, a mistyped `k` that would exhaust memory does not.
 */
export const MAX_TABLE_ENTRIES = 2 ** 25;

/** Throws a `RangeError` before a routing function builds tables too large to hold. */
export function assertTableBudget(fabric: FabricDescription, fn: string): void {
  assertTableSize(fn, fabric.switches.length, fabric.hosts.length);
}

/** The same check from sizes alone, for builders to run before they build anything. */
export function assertTableSize(fn: string, switches: number, hosts: number): void {
  const entries = switches * hosts;
  if (entries > MAX_TABLE_ENTRIES) {
    throw new RangeError(
      `${fn}: forwarding tables would hold ${switches} switches × ${hosts} hosts = ${entries} candidate lists, above the limit of ${MAX_TABLE_ENTRIES}`,
    );
  }
}

const NONE: readonly number[] = Object.freeze([]);

/**
 * Hands out candidate lists for one switch's table, sharing equal lists between destinations:
 * one array per single port, and the previous multi-port list when the next one is equal
 * (in a tree most destinations of a switch share its up-port list). This keeps a 1 024-host,
 * 1 280-switch table set at one reference per entry instead of one array per entry.
 */
export class CandidateLists {
  private readonly singles: (readonly number[] | undefined)[];
  private last: readonly number[] = NONE;

  constructor(portCount: number) {
    this.singles = new Array<readonly number[] | undefined>(portCount).fill(undefined);
  }

  /** The shared list for `ports` (ascending port numbers); `ports` itself may be reused. */
  of(ports: readonly number[]): readonly number[] {
    if (ports.length === 0) return NONE;
    if (ports.length === 1) return this.single(ports[0]!);
    const last = this.last;
    if (last.length === ports.length && last.every((p, i) => p === ports[i])) return last;
    this.last = ports.slice();
    return this.last;
  }

  single(port: number): readonly number[] {
    let list = this.singles[port];
    if (list === undefined) {
      list = [port];
      this.singles[port] = list;
    }
    return list;
  }
}
