import {
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type SenderPart,
} from "@cclab/fabric";
import type { ReactionPoint } from "./sender-part.js";
import { TcdCode, tcdCodeColumn } from "./tcd-code.js";

// Codes of the named kinds are fixed (NAMED_PACKET_KINDS).
const CNP_KIND = NAMED_PACKET_KINDS.indexOf("cnp");

/**
 * The sender with `tcdReaction` (`paper` variant, checked by the parameters): a CNP's
 * `tcd.code` says what the receiver saw in the interval. CE (3) cuts as any CNP does; UE (2)
 * holds the rate (`onUeCnp`); no code (0: a receiver without the reaction, answering a plain
 * RED mark) is taken as CE, so these hosts still react to plain ECN marking. The reference
 * ignores a CNP without a code (`ecnbits` neither 3 nor 2); its receivers always send one.
 */
export function withTcdReaction(
  part: SenderPart,
  context: HostPartContext,
  byFlow: ReadonlyMap<number, ReactionPoint>,
): SenderPart {
  const codes = tcdCodeColumn(context.packets);
  let ceCnpReceived = 0;
  let ueCnpReceived = 0;
  return {
    ...part,
    onControl(packet: PacketId): void {
      const packets = context.packets;
      if (packets.kindCode[packet] !== CNP_KIND) return;
      const rp = byFlow.get(packets.flowId[packet]!);
      if (rp === undefined) return;
      if (codes.values[packet] === TcdCode.undetermined) {
        ueCnpReceived++;
        rp.onUeCnp();
      } else {
        ceCnpReceived++;
        rp.onCnp();
      }
    },
    counters: () => ({ ...part.counters?.(), ceCnpReceived, ueCnpReceived }),
  };
}
