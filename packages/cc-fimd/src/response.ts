/**
 * The source response functions of Santos, Turner and Janakiraman (seed
 * 002_fea465e6cd934ce6.txt L255–342; docs/design/santos.md, "Response functions"). On an ACK
 * the source sets its rate to `decrease(r)` when the ACK is marked and to `increase(r)` when it
 * is not. Rates are in any one unit (cclab passes Gb/s); `minRate` is R_min, `maxRate` R_max
 * (the link rate).
 *
 * The slides' design rule (L300–330): choose f_dec, then take the fastest f_inc that keeps
 * - congestion avoidance, f_inc(f_dec(r)) ≤ r (L271–273), with equality where a decrease lands on
 *   R_min: one unmarked ACK at R_min (a time 1/R_min) undoes it (L304–306);
 * - the recovery time T_rec after a decrease the same, 1/R_min, at every rate (L307–312).
 *
 * - FIMD (L334–337): f_dec(r) = r/m, f_inc(r) = r·m^(R_min/r).
 * - LIPD (L338–342): a decrease adds one packet time to the inter-packet delay,
 *   r = R_max/(ipd + 1), so f_dec(r) = R_max/(R_max/r + 1); f_inc(r) = r/(1 − R_min/R_max).
 * - AIMD, the baseline (L335 "same as AIMD" for the decrease): f_dec(r) = r/m and an increase
 *   that is additive in time, so a flow gains the same rate per unit time whatever its rate (the
 *   classic AIMD of Chiu and Jain that L279 cites). Its slope is the slides' limiting case
 *   at R_min: within one packet time at R_min a decrease to R_min is undone, a gain of
 *   (m − 1)·R_min in 1/R_min. An ACK comes every packet time 1/r, so per ACK
 *   f_inc(r) = r + (m − 1)·R_min²/r. INFERRED (the slides give only the name): it meets the
 *   congestion-avoidance condition on the same rates as FIMD, and its T_rec = r/(m·R_min²)
 *   grows with r, which is why FIMD and LIPD reclaim bandwidth faster (L337).
 */
export type ResponseName = "aimd" | "fimd" | "lipd";

export const RESPONSE_NAMES: readonly ResponseName[] = ["aimd", "fimd", "lipd"];

export interface ResponseFunction {
  readonly name: ResponseName;
  /** The rate after a marked ACK (before the source keeps it within [R_min, R_max]). */
  decrease(rate: number): number;
  /** The rate after an unmarked ACK (before the source keeps it within [R_min, R_max]). */
  increase(rate: number): number;
}

export interface ResponseRates {
  /** m > 1, the divisor of a multiplicative decrease (AIMD, FIMD). */
  readonly m: number;
  readonly minRate: number;
  readonly maxRate: number;
}

export function responseFunction(name: ResponseName, rates: ResponseRates): ResponseFunction {
  const { m, minRate, maxRate } = rates;
  if (!(m > 1)) throw new RangeError(`response ${name}: m must be > 1 (got ${m})`);
  if (!(minRate > 0 && minRate < maxRate)) {
    throw new RangeError(
      `response ${name}: need 0 < minRate < maxRate (got ${minRate} and ${maxRate})`,
    );
  }
  switch (name) {
    case "aimd": {
      const gain = (m - 1) * minRate * minRate;
      return { name, decrease: (r) => r / m, increase: (r) => r + gain / r };
    }
    case "fimd":
      return { name, decrease: (r) => r / m, increase: (r) => r * m ** (minRate / r) };
    case "lipd": {
      const factor = 1 / (1 - minRate / maxRate);
      return { name, decrease: (r) => maxRate / (maxRate / r + 1), increase: (r) => r * factor };
    }
  }
}

/**
 * The lowest rate whose decrease still lands on R_min or above: from there on the
 * congestion-avoidance condition holds (below it the source's floor at R_min takes over).
 */
export function lowestUnflooredRate(name: ResponseName, rates: ResponseRates): number {
  if (name === "lipd") return rates.maxRate / (rates.maxRate / rates.minRate - 1);
  return rates.m * rates.minRate;
}
