import type { TimePs } from "@cclab/core-des";

/** One step of a host's receive-rate schedule (`HcaConfig.receiveRateSchedule`). */
export interface ReceiveRateStep {
  /** From this time on the step's rate holds, ps since the start of the run. */
  readonly atPs: TimePs;
  /** Rate at which the host consumes received packets, Gb/s; `null`: at once. */
  readonly rateGbps: number | null;
}

/**
 * A host's receive rate as time passes (docs/model.md, "Hosts"): `receiveRateGbps` until the
 * first step of its schedule, then each step's rate from its time on. Simulated time only
 * grows, so the host moves a pointer through the sorted steps when it needs the rate (a packet
 * arrives, a service starts) instead of scheduling an event per change; without steps,
 * `nextChangePs` is +∞ and the pointer never moves.
 */
export class ReceiveRate {
  /** The rate in force at the last time given to {@link advance}, Gb/s; `null`: at once. */
  rateGbps: number | null;
  /** When the rate next changes, ps; +∞: never. */
  nextChangePs: TimePs;
  /** Index of the first step not yet in force. */
  private next = 0;

  constructor(
    baseRateGbps: number | null,
    private readonly steps: readonly ReceiveRateStep[],
  ) {
    this.rateGbps = baseRateGbps;
    this.nextChangePs = steps[0]?.atPs ?? Number.POSITIVE_INFINITY;
  }

  /** Takes the rate in force at `nowPs`, which must not be earlier than the last time given. */
  advance(nowPs: TimePs): void {
    const steps = this.steps;
    let next = this.next;
    while (next < steps.length && steps[next]!.atPs <= nowPs) {
      this.rateGbps = steps[next]!.rateGbps;
      next++;
    }
    this.next = next;
    this.nextChangePs = next < steps.length ? steps[next]!.atPs : Number.POSITIVE_INFINITY;
  }
}

/**
 * Why `steps` is not a valid schedule (times whole ps ≥ 0 in strictly increasing order, rates
 * > 0 Gb/s or null), naming the step's field under `where`; undefined when it is.
 */
export function receiveRateScheduleProblem(steps: unknown, where: string): string | undefined {
  if (!Array.isArray(steps)) return `${where} must be a list of { atPs, rateGbps } steps`;
  let lastPs = -1;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Partial<ReceiveRateStep> | null;
    const at = `${where}[${i}]`;
    if (typeof step !== "object" || step === null) return `${at} must be { atPs, rateGbps }`;
    const { atPs, rateGbps } = step;
    if (typeof atPs !== "number" || !Number.isSafeInteger(atPs) || atPs < 0) {
      return `${at}.atPs must be a whole number of ps in 0..2^53 − 1, got ${String(atPs)}`;
    }
    if (atPs <= lastPs) {
      return `${at}.atPs must be later than the step before (${lastPs} ps): steps in increasing time order, one per time, got ${atPs}`;
    }
    if (
      rateGbps !== null &&
      !(typeof rateGbps === "number" && rateGbps > 0 && Number.isFinite(rateGbps))
    ) {
      return `${at}.rateGbps must be a rate > 0 Gb/s or null, got ${String(rateGbps)}`;
    }
    lastPs = atPs;
  }
  return undefined;
}
