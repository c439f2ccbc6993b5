import { z } from "zod";

/**
 * The plugin's parameters: units in the keys, a default and a description each (the
 * descriptions are what `cclab list` shows). A scenario gives them under `params:`.
 */
export const params = z.strictObject({
  thresholdBytes: z
    .int()
    .positive()
    .default(8192)
    .describe("switch: mark a data packet when its input queue (port and VL) holds more bytes"),
  decreaseFactor: z
    .number()
    .gt(0)
    .lt(1)
    .default(0.5)
    .describe("sender: an echo multiplies the flow's rate by this (at most one cut per period)"),
  increaseStepGbps: z
    .number()
    .positive()
    .default(1)
    .describe("sender: rate added every increasePeriodUs after a cut, up to the link rate, Gb/s"),
  increasePeriodUs: z
    .number()
    .positive()
    .default(5)
    .describe("sender: time between rate increases, and the shortest time between cuts, µs"),
  minRateGbps: z
    .number()
    .positive()
    .default(0.1)
    .describe("sender: the rate never goes below this, Gb/s"),
});

export type Params = z.output<typeof params>;
