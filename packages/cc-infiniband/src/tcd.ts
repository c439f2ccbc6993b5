import type { PacketColumn, Packets } from "@cclab/fabric";

/**
 * What IB CC's hosts share with a Ternary Congestion Detection (TCD; Zhang et al., SIGCOMM
 * 2021) switch part, when `tcdReaction` is on.
 *
 * TCD marks each data packet with one of the code points of its Table 1 (seed
 * `004_abc94112a2f36164.txt` lines 262–266): 10 "Undetermined Encountered" (UE), 11
 * "Congestion Encountered" (CE), so that end hosts can "conduct different rate adjustments
 * for undetermined flows and congested flows" (line 251). InfiniBand's header has one FECN
 * bit, and how the paper carries the code in IB is not published; here the detector writes
 * the code into the scheme column `tcd.code` and, on CE, also sets FECN as IB CC marking does,
 * so a plain IB CC receiver still sees every CE packet. UE never overwrites CE (line 258): a
 * packet with FECN is CE whatever its code.
 *
 * The destination copies the code into the BECN it returns (the packet's own `tcd.code`), so
 * the source can tell a CE-BECN from a UE-BECN. The values are the two-bit code points read as
 * numbers.
 */
export const TCD_CODE_COLUMN = "tcd.code";

/** No TCD mark (or a BECN from a receiver that does not write the code: treated as CE). */
export const TCD_NONE = 0;
/** Undetermined Encountered: code point 10 (line 265). */
export const TCD_UE = 2;
/** Congestion Encountered: code point 11 (line 266). */
export const TCD_CE = 3;

/** The `tcd.code` column: one code per packet id. */
export type TcdCodeColumn = PacketColumn<Uint8Array<ArrayBuffer>>;

/** The network's `tcd.code` column (the one the detector writes: columns are shared by name). */
export function tcdCodeColumn(packets: Packets): TcdCodeColumn {
  return packets.column(TCD_CODE_COLUMN, Uint8Array);
}
