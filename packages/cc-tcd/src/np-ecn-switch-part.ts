import {
  DATA_KIND,
  Ecn,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
} from "@cclab/fabric";
import { redRule } from "./ce-rule.js";
import type { TcdParams } from "./params.js";
import { PausedPackets } from "./paused-packets.js";

/** The NP-ECN switch part, with read-only access to its queues for tests and samplers. */
export interface NpEcnSwitchPart extends SwitchPart {
  /** Bytes in the egress queue of output `outPort` and `vl` now (what RED compares). */
  queueBytes(outPort: number, vl: number): number;
  /** Packets of the port's last paused period still in that egress queue. */
  pausedPackets(outPort: number, vl: number): number;
}

/**
 * PCN's non-PAUSE ECN (NP-ECN; Cheng et al., NSDI 2020), the baseline the TCD authors compare
 * TCD with besides plain DCQCN ECN, exactly as their ns-3 code runs it with `EnableNPECN`
 * (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`, `DequeueAndTransmit`): a data packet leaving an
 * egress queue gets CE when
 *
 * 1. RED says so on the egress queue it leaves behind (`ShouldSendCN` in `broadcom-node.cc`,
 *    asked for every data packet, its own bytes already taken off), and
 * 2. no packet of the port's last paused period is still queued, this one included
 *    (`pausedPacketsNum == 0`; see paused-packets.ts for which packets those are).
 *
 * So the packets queued at a resume (those that arrived while the port was paused, and those
 * already waiting when the pause began) are never marked, nor are later packets that leave
 * while any of them still waits; once they have all left, marking is RED's. Nothing else of TCD
 * runs: no states, no UE, no `tcd.code`. CE goes to `ecn` on any data packet, ECN-capable or
 * not, as in the reference (which sets 0x03 regardless). The egress queue is counted as the TCD
 * part and cc-dcqcn count it: a packet joins at enqueue at its input and leaves when it starts
 * on the output link; the switch's own control packets never join it.
 */
export function createNpEcnSwitchPart(p: TcdParams, context: SwitchPartContext): NpEcnSwitchPart {
  const ports = context.portCount;
  const views = Array.from({ length: ports }, (_, i) => context.port(i));
  const vls = views[0]?.vlCount ?? 1;
  const packets = context.packets;
  const red = redRule(p.red, context.rng);
  // Per output port and VL, at [out * vls + vl].
  const queued = new Float64Array(ports * vls);
  const paused = new PausedPackets(ports * vls, packets, (q) =>
    views[Math.floor(q / vls)]!.lastOnPs(q % vls),
  );
  const ceByQueue = new Float64Array(ports * vls);
  const carried = new Uint8Array(ports * vls);
  const control = new Set(context.controlVls);
  const dataVls = Array.from({ length: vls }, (_, vl) => vl).filter((vl) => !control.has(vl));
  let ceMarked = 0;
  // RED said CE, but paused-period packets were still queued: what NP-ECN saves a victim.
  let ceSpared = 0;

  return {
    onEnqueue(packet: PacketId): void {
      const q = packets.outPort[packet]! * vls + packets.vl[packet]!;
      paused.enqueue(packet, q);
      queued[q]! += packets.sizeBytes[packet]!;
    },
    onTransmit(packet: PacketId, inPort: number, outPort: number): void {
      if (inPort === FROM_SWITCH_CONTROL) return;
      const q = outPort * vls + packets.vl[packet]!;
      const pausedBefore = paused.dequeue(packet, q);
      const bytes = queued[q]! - packets.sizeBytes[packet]!;
      queued[q] = bytes;
      if (packets.kindCode[packet] !== DATA_KIND) return;
      carried[q] = 1;
      if (!red(outPort, packets.vl[packet]!, bytes)) return;
      if (pausedBefore > 0) {
        ceSpared++;
        return;
      }
      packets.ecn[packet] = Ecn.congestion;
      ceMarked++;
      ceByQueue[q]!++;
    },
    queueBytes: (outPort, vl) => queued[outPort * vls + vl]!,
    pausedPackets: (outPort, vl) => paused.pausedLeft(outPort * vls + vl),
    // Contract 3.3's per-queue sample (the `cc-queues` series), for every queue that carried data.
    sampleQueues(visit) {
      for (let out = 0; out < ports; out++) {
        for (const vl of dataVls) {
          const q = out * vls + vl;
          if (carried[q] === 0) continue;
          visit(out, vl, "ceMarked", ceByQueue[q]!);
          visit(out, vl, "queueBytes", queued[q]!);
          visit(out, vl, "pausedPackets", paused.pausedLeft(q));
        }
      }
    },
    counters: () => ({ ceMarked, ceSpared }),
  };
}
