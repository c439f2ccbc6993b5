import { Ecn, type PacketColumn, type Packets } from "@cclab/fabric";

/**
 * The interface with a Ternary Congestion Detection switch (TCD, Zhang et al., SIGCOMM 2021;
 * the `cc-tcd` package): a scheme-owned packet column of 2-bit codes. The switch writes it on
 * data packets; with `tcdReaction` the DCQCN receiver ORs the codes of a flow's packets and
 * returns the result in the same column of its CNP, and the sender reacts to that.
 */
export const TCD_CODE_COLUMN = "tcd.code";

/**
 * The codes (the slides' Table 1, seed 004_abc94112a2f36164.txt lines 256–266): UE is 10
 * (undetermined encountered: the packet crossed a port in ON-OFF, paused or credit-starved),
 * CE is 11 (congestion encountered, overwrites UE); 0 means nothing was marked. Their OR is
 * CE as soon as one CE is in it, which is why the receiver may simply OR them.
 */
export const TcdCode = {
  none: 0b00,
  undetermined: Ecn.undetermined,
  congestion: Ecn.congestion,
} as const;

/** The column itself (made on first request, shared by every part that names it). */
export function tcdCodeColumn(packets: Packets): PacketColumn<Uint8Array<ArrayBuffer>> {
  return packets.column(TCD_CODE_COLUMN, Uint8Array);
}
