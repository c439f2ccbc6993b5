import type { PacketId, Packets, SwitchPart } from "@cclab/fabric";

/** A switch part as a switch runs it: the lanes whose packets it sees and may drop. */
export interface InstalledSwitchPart {
  readonly part: SwitchPart;
  /** How errors name it (e.g. `switch part "dcqcn" of scheme "dcqcn"`). */
  readonly label: string;
  /** The VLs whose packets the part's hooks see; `all`: every VL. */
  readonly vls: readonly number[] | "all";
  /**
   * The VLs on which `dropAtHead` is asked; `all`: every VL it sees (a contract-2 part, or one
   * that declares no lanes).
   */
  readonly droppableVls: readonly number[] | "all";
}

/**
 * The parts a switch runs, as the one part the switch calls. One part that sees every lane is
 * the part itself (no cost over a switch with one scheme). Otherwise a {@link SwitchPartChain}
 * calls them in order, each for the packets of its lanes.
 */
export function combineParts(
  parts: readonly InstalledSwitchPart[],
  packets: Packets,
  vlCount: number,
): SwitchPart | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1 && parts[0]!.vls === "all") return parts[0]!.part;
  return new SwitchPartChain(parts, packets, vlCount);
}

/**
 * Per VL, the part that may drop heads there (`undefined` where none may), or `undefined` when
 * no part drops at all. Throws if two parts would drop on one VL.
 */
export function droppersByVl(
  parts: readonly InstalledSwitchPart[],
  vlCount: number,
  switchName: string,
): (SwitchPart | undefined)[] | undefined {
  const droppers: (SwitchPart | undefined)[] = new Array(vlCount).fill(undefined);
  const owner: (InstalledSwitchPart | undefined)[] = new Array(vlCount).fill(undefined);
  let any = false;
  for (const installed of parts) {
    if (installed.part.dropAtHead === undefined) continue;
    for (let vl = 0; vl < vlCount; vl++) {
      if (!sees(installed.vls, vl) || !sees(installed.droppableVls, vl)) continue;
      const other = owner[vl];
      if (other !== undefined) {
        throw new TypeError(
          `cc: ${other.label} and ${installed.label} would both drop packets of VL ${vl} at switch ${switchName}; declare the lanes each may drop (lanes: [{ name, role, droppable: true }])`,
        );
      }
      owner[vl] = installed;
      droppers[vl] = installed.part;
      any = true;
    }
  }
  return any ? droppers : undefined;
}

function sees(vls: readonly number[] | "all", vl: number): boolean {
  return vls === "all" || vls.includes(vl);
}

/**
 * Several switch parts, called in their stated order, each with the packets of the VLs it sees.
 * Only runs with several parts (or one restricted to some VLs) pay for the dispatch.
 */
export class SwitchPartChain implements SwitchPart {
  readonly onEnqueue?: (packet: PacketId, inPort: number) => void;
  readonly onDequeue?: (packet: PacketId, inPort: number) => void;
  readonly onTransmit?: (packet: PacketId, inPort: number, outPort: number) => void;
  readonly onLinkControl?: (packet: PacketId, inPort: number) => void;
  readonly sampleQueues?: (
    visit: (outPort: number, vl: number, variable: string, value: number) => void,
  ) => void;
  private readonly parts: readonly SwitchPart[];
  /** Per part, 1 at `[part * vlCount + vl]` where it sees `vl`. */
  private readonly seen: Uint8Array;

  constructor(
    installed: readonly InstalledSwitchPart[],
    private readonly packets: Packets,
    private readonly vlCount: number,
  ) {
    this.parts = installed.map((i) => i.part);
    this.seen = new Uint8Array(installed.length * vlCount);
    installed.forEach((i, k) => {
      for (let vl = 0; vl < vlCount; vl++) if (sees(i.vls, vl)) this.seen[k * vlCount + vl] = 1;
    });
    const parts = this.parts;
    if (parts.some((p) => p.onEnqueue !== undefined)) {
      this.onEnqueue = (packet, inPort) => {
        const base = this.packets.vl[packet]!;
        for (let k = 0; k < parts.length; k++) {
          if (this.seen[k * this.vlCount + base] === 1) parts[k]!.onEnqueue?.(packet, inPort);
        }
      };
    }
    if (parts.some((p) => p.onDequeue !== undefined)) {
      this.onDequeue = (packet, inPort) => {
        const vl = this.packets.vl[packet]!;
        for (let k = 0; k < parts.length; k++) {
          if (this.seen[k * this.vlCount + vl] === 1) parts[k]!.onDequeue?.(packet, inPort);
        }
      };
    }
    if (parts.some((p) => p.onTransmit !== undefined)) {
      this.onTransmit = (packet, inPort, outPort) => {
        const vl = this.packets.vl[packet]!;
        for (let k = 0; k < parts.length; k++) {
          if (this.seen[k * this.vlCount + vl] === 1) {
            parts[k]!.onTransmit?.(packet, inPort, outPort);
          }
        }
      };
    }
    if (parts.some((p) => p.onLinkControl !== undefined)) {
      this.onLinkControl = (packet, inPort) => {
        for (const part of parts) part.onLinkControl?.(packet, inPort);
      };
    }
    // Each part reports its own queues (contract 3.3); a runner's queue series reads them all.
    if (parts.some((p) => p.sampleQueues !== undefined)) {
      this.sampleQueues = (visit) => {
        for (const part of parts) part.sampleQueues?.(visit);
      };
    }
  }

  /** The parts' counters, summed by name. */
  counters(): Readonly<Record<string, number>> {
    const total: Record<string, number> = {};
    for (const part of this.parts) {
      for (const [name, value] of Object.entries(part.counters?.() ?? {})) {
        total[name] = (total[name] ?? 0) + value;
      }
    }
    return total;
  }
}
