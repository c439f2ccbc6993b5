import type { RngStream } from "@cclab/core-des";
import { z } from "zod";
import { bytesSchema } from "./bytes.js";
import { cdfPointsOf, cdfSizeSchema } from "./cdf-size.js";
import { cdfTable, sampleCdf } from "./cdf-table.js";

export { bytesSchema };

/**
 * Message-size distribution shared by the patterns with random message sizes: every message
 * the same size, two sizes (short control-like and long bulk messages), uniform over a range
 * of whole bytes, or an empirical CDF (datacenter flow sizes: `src/cdf-table.ts`).
 */
export const sizeSchema = z
  .discriminatedUnion("kind", [
    z
      .strictObject({
        kind: z.literal("fixed"),
        bytes: bytesSchema.describe("size of every message, bytes"),
      })
      .describe("every message the same size"),
    z
      .strictObject({
        kind: z.literal("bimodal"),
        smallBytes: bytesSchema.describe("size of a small message, bytes"),
        largeBytes: bytesSchema.describe("size of a large message, bytes"),
        largeFraction: z
          .number()
          .min(0)
          .max(1)
          .describe("probability that a message is large, fraction of messages"),
      })
      .describe("two sizes, large with probability largeFraction"),
    z
      .strictObject({
        kind: z.literal("uniform"),
        minBytes: bytesSchema.describe("smallest message, bytes"),
        maxBytes: bytesSchema.describe("largest message (inclusive), bytes"),
      })
      .refine((s) => s.minBytes <= s.maxBytes, {
        message: "minBytes must not exceed maxBytes",
        path: ["maxBytes"],
      })
      .describe("whole bytes uniformly in [minBytes, maxBytes]"),
    cdfSizeSchema,
  ])
  .describe("message-size distribution: fixed, bimodal, uniform or cdf");

export type MessageSize = z.output<typeof sizeSchema>;

/** The default message: 4 KiB, Paper IV's two packets of MTU 2048 (seed 001 L1704). */
export const DEFAULT_SIZE: Readonly<MessageSize> = Object.freeze({ kind: "fixed", bytes: 4096 });

/** Mean message size, bytes: what a load is converted to a message rate with. */
export function meanBytes(size: MessageSize): number {
  switch (size.kind) {
    case "fixed":
      return size.bytes;
    case "bimodal":
      return (1 - size.largeFraction) * size.smallBytes + size.largeFraction * size.largeBytes;
    case "uniform":
      return (size.minBytes + size.maxBytes) / 2;
    case "cdf":
      return cdfTable(cdfPointsOf(size)).meanBytes;
  }
}

/** E[size²], bytes²: the variance of offered bytes under Poisson arrivals is rate·E[S²]. */
export function meanSquareBytes(size: MessageSize): number {
  switch (size.kind) {
    case "fixed":
      return size.bytes ** 2;
    case "bimodal":
      return (
        (1 - size.largeFraction) * size.smallBytes ** 2 + size.largeFraction * size.largeBytes ** 2
      );
    case "uniform": {
      // Discrete uniform on n = max − min + 1 values: variance (n² − 1)/12.
      const n = size.maxBytes - size.minBytes + 1;
      return meanBytes(size) ** 2 + (n * n - 1) / 12;
    }
    case "cdf":
      return cdfTable(cdfPointsOf(size)).meanSquareBytes;
  }
}

/** One message size drawn from `size` (a fixed size draws nothing from `rng`). */
export function sampleBytes(size: MessageSize, rng: RngStream): number {
  switch (size.kind) {
    case "fixed":
      return size.bytes;
    case "bimodal":
      return rng.bernoulli(size.largeFraction) ? size.largeBytes : size.smallBytes;
    case "uniform":
      return rng.intRange(size.minBytes, size.maxBytes);
    case "cdf":
      return sampleCdf(cdfTable(cdfPointsOf(size)), rng);
  }
}
