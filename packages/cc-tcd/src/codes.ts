/**
 * TCD's two-bit code points (seed 004_abc94112a2f36164.txt lines 260–266, Table 1): 00 not
 * TCD-capable, 01 TCD-capable, 10 UE (undetermined encountered), 11 CE (congestion
 * encountered). The detector writes them to a scheme column of their own, so that a host part
 * of any package can tell UE from CE without TCD taking over the ECN or FECN bits.
 */
export enum TcdCode {
  None = 0,
  Capable = 1,
  Undetermined = 2,
  Congestion = 3,
}

/** The scheme column (a `Uint8Array` by packet id) that carries a packet's {@link TcdCode}. */
export const TCD_CODE_COLUMN = "tcd.code";

/**
 * The code a packet carries after a port marks it `mark`: CE is written whatever the packet
 * had, UE only over a code that is not CE ("UE can only be marked when the current code point is
 * not CE", seed line 258; the reference code tests `GetEcn() <= 0x02` before writing 0x02 in
 * `DequeueAndTransmit`, Yi-ran/DCQCN-TCD `qbb-net-device.cc`). So a packet ends CE if any port
 * marked it CE, else UE if any port marked it UE (seed lines 256–258).
 */
export function withMark(code: number, mark: TcdCode): number {
  if (mark === TcdCode.Congestion) return TcdCode.Congestion;
  if (mark === TcdCode.Undetermined && code !== TcdCode.Congestion) return TcdCode.Undetermined;
  return code;
}
