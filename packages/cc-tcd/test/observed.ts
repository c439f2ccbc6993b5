/**
 * The TCD scheme with every switch's part kept for the test, and a check at each dequeue: no
 * packet may get CE from a queue that is in state U after judging it (in the reference's
 * state machine Step 1 marks UE only; U is left, to C, before a CE mark).
 */
import { type CcScheme, DATA_KIND, type PacketId, type SwitchPartContext } from "@cclab/fabric";
import { TCD_CODE_COLUMN, TcdCode } from "../src/codes.js";
import type { TcdParams } from "../src/params.js";
import { createSwitchPart, switchPartFactory, type TcdSwitchPart } from "../src/switch-part.js";
import { TcdState } from "../src/tcd-queue.js";

/** One dequeue of a data packet as the test sees it. */
export interface Dequeue {
  readonly switchIndex: number;
  readonly outPort: number;
  readonly packet: PacketId;
  readonly flowId: number;
  /** The queue's state after judging the packet. */
  readonly state: TcdState;
  /** Egress queue the packet left behind, bytes. */
  readonly queueBytes: number;
  readonly codeBefore: number;
  readonly codeAfter: number;
}

export function observedTcd(p: TcdParams, onDequeue?: (d: Dequeue) => void) {
  const parts: TcdSwitchPart[] = [];
  const contexts: SwitchPartContext[] = [];
  const violations: string[] = [];
  const factory = switchPartFactory(p);
  const scheme: CcScheme = {
    specVersion: "^3.0.0",
    name: "tcd",
    switchPart: {
      ...factory,
      create(context) {
        const part = createSwitchPart(p, context);
        parts[context.switchIndex] = part;
        contexts[context.switchIndex] = context;
        const packets = context.packets;
        const code = packets.column(TCD_CODE_COLUMN, Uint8Array);
        return {
          ...part,
          onTransmit(packet, inPort, outPort) {
            const codeBefore = code.values[packet]!;
            part.onTransmit!(packet, inPort, outPort);
            if (packets.kindCode[packet] !== DATA_KIND) return;
            const vl = packets.vl[packet]!;
            const state = part.stateOf(outPort, vl);
            const codeAfter = code.values[packet]!;
            if (
              state === TcdState.U &&
              codeAfter === TcdCode.Congestion &&
              codeBefore !== TcdCode.Congestion
            ) {
              violations.push(
                `switch ${context.switchIndex} port ${outPort} VL ${vl}: CE in state U at ${context.scheduler.nowPs} ps`,
              );
            }
            onDequeue?.({
              switchIndex: context.switchIndex,
              outPort,
              packet,
              flowId: packets.flowId[packet]!,
              state,
              queueBytes: part.queueBytes(outPort, vl),
              codeBefore,
              codeAfter,
            });
          },
        };
      },
    },
  };
  return { scheme, parts, contexts, violations };
}
