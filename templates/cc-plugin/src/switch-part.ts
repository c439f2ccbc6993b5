import {
  DATA_KIND,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import type { Params } from "./params.js";
import { MARK_COLUMN, SCHEME } from "./scheme.js";

/**
 * The congestion point: a data packet that arrives at an input queue (its port and VL) holding
 * more than `thresholdBytes`, itself included, is marked in the scheme's own packet column.
 */
export function createSwitchPart(p: Params, sw: SwitchPartContext): SwitchPart {
  const packets = sw.packets;
  const marked = packets.column(MARK_COLUMN, Uint8Array);
  let packetsMarked = 0;
  return {
    onEnqueue(packet: PacketId, inPort: number): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const queuedBytes = sw.port(inPort).inputBytes(packets.vl[packet]!);
      if (queuedBytes <= p.thresholdBytes) return;
      // `values` is read at each use: the store replaces its arrays when it grows.
      marked.values[packet] = 1;
      packetsMarked++;
    },
    counters: () => ({ [`${SCHEME}.packetsMarked`]: packetsMarked }),
  };
}

export function switchPartFactory(p: Params): SwitchPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `${SCHEME} marking`,
    writes: [MARK_COLUMN],
    create: (sw) => createSwitchPart(p, sw),
  };
}
