import { z } from "zod";
import { RESPONSE_NAMES, type ResponseName } from "./response.js";

/**
 * Which packets a switch marks (docs/design/santos.md, "Marking"; seed 002_fea465e6cd934ce6.txt):
 * - `naive`: when an input buffer becomes full, the packets in that buffer (L72–75);
 * - `input`: input-triggered, when an input buffer becomes full, every packet in the switch
 *   headed to an output that some packet of the full buffer is headed to (L114–123);
 * - `input-output`: input-triggered, and also every packet headed to an output once more than
 *   `outputThresholdPackets` packets in the switch are headed to it (L155–158);
 * - `none`: no marks (the sources then run at R_max, window-limited).
 */
export type Marking = "none" | "naive" | "input" | "input-output";
export const MARKINGS: readonly Marking[] = ["none", "naive", "input", "input-output"];

/**
 * Which outputs a full input makes roots (input and input-output marking): `all`, the output of
 * every packet in the full buffer (the slides' literal "destination of packets at full buffer",
 * L121–122); `oldest`, the output of the oldest packet in it, the one that blocks a FIFO input
 * (the blocked packet).
 */
export type Roots = "all" | "oldest";
export const ROOTS: readonly Roots[] = ["all", "oldest"];

export const params = z.strictObject({
  marking: z
    .enum(MARKINGS as [Marking, ...Marking[]])
    .default("input")
    .describe(
      "switch marking: naive (packets of a full input buffer), input (input-triggered: every packet headed to an output a full buffer's packets are headed to), input-output (also when an output's packet count exceeds outputThresholdPackets), none",
    ),
  outputThresholdPackets: z
    .int()
    .positive()
    .default(8)
    .describe(
      "input-output marking: packets in the switch headed to one output above which they are marked (the slides: 4, 6, 8, 16)",
    ),
  roots: z
    .enum(ROOTS as [Roots, ...Roots[]])
    .default("oldest")
    .describe(
      "input and input-output marking: the outputs a full input buffer makes roots: oldest (of its oldest packet, the one a FIFO input is blocked by) or all (of every packet in it, the slides' literal reading)",
    ),
  response: z
    .enum(RESPONSE_NAMES as [ResponseName, ...ResponseName[]])
    .default("fimd")
    .describe("source response function: aimd, fimd or lipd"),
  m: z
    .number()
    .gt(1)
    .default(2)
    .describe("AIMD and FIMD: a marked ACK divides the rate by m (> 1)"),
  minRateFraction: z
    .number()
    .gt(0)
    .lt(1)
    .default(0.01)
    .describe("R_min as a fraction of R_max: the lowest rate, and the scale of every increase"),
  maxRateGbps: z
    .number()
    .positive()
    .nullable()
    .default(null)
    .describe("R_max, Gb/s; null: the host's link rate"),
  windowPackets: z
    .int()
    .positive()
    .nullable()
    .default(1)
    .describe(
      "packets a flow may have unacknowledged (the slides' proposal: 1); null: no window, rate control alone",
    ),
});

export type FimdParams = z.output<typeof params>;
