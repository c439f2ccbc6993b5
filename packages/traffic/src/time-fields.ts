import { MAX_TIME_NS, MAX_TIME_US, TIME_TOO_LATE } from "@cclab/core-des";
import { z } from "zod";

type Lower = "≥ 0" | "> 0";

// A time parameter no later than the simulator's largest time (2^53 − 1 ps): a later one
// could not be reached, and converting it to ps would lose the integer.
function timeField(lower: Lower, max: number) {
  return (lower === "> 0" ? z.number().positive() : z.number().nonnegative()).max(
    max,
    TIME_TOO_LATE,
  );
}

/** A time or duration parameter in ns, ≥ 0 or > 0. */
export const timeNs = (lower: Lower) => timeField(lower, MAX_TIME_NS);

/** A time or duration parameter in µs, ≥ 0 or > 0. */
export const timeUs = (lower: Lower) => timeField(lower, MAX_TIME_US);
