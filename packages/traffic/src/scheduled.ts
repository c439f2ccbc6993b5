import { z } from "zod";
import { hostError, hostSchema } from "./hosts.js";
import { mergeSources } from "./merge.js";
import { slError } from "./message.js";
import { PacedStream } from "./paced.js";
import { definePattern } from "./pattern.js";
import { bytesSchema } from "./size.js";
import { timeNs } from "./time-fields.js";
import { windowPs } from "./window.js";

/**
 * One flow with a start and an optional stop: a sender that always has data for `dst`
 * between the two times, at its host link rate unless `rateGbps` says otherwise. The
 * parking-lot experiments start one flow per second this way (seed 001 Paper II, L1037–1101:
 * H1→H4 steady, then H2, H3, H6, H7 → H5 added one per second), with 64 KiB messages.
 */
const flowSchema = z
  .strictObject({
    src: hostSchema.describe("sending host"),
    dst: hostSchema.describe("receiving host"),
    startNs: timeNs("≥ 0").default(0).describe("time the flow starts, ns"),
    stopNs: timeNs("> 0")
      .optional()
      .describe("time the flow stops (exclusive), ns; default: the run's end"),
    totalBytes: z
      .int()
      .positive()
      .optional()
      .describe("the flow ends after offering this many bytes (last message shorter)"),
    rateGbps: z
      .number()
      .positive()
      .optional()
      .describe("offered rate, Gb/s; default the sender's host link rate (always has data)"),
    messageBytes: bytesSchema.default(65_536).describe("size of each message, bytes"),
    sl: z.int().nonnegative().optional().describe("service level (IB) or priority (PFC)"),
    group: z.string().min(1).optional().describe("group the flow is reported in"),
  })
  .describe("one flow: src→dst from startNs to stopNs (or totalBytes) at rateGbps");

const params = z.strictObject({
  flows: z.array(flowSchema).min(1).describe("the flows, each with its own start and stop"),
});

export const scheduled = definePattern({
  name: "scheduled",
  description: "scheduled flows: greedy src→dst flows with start and stop times (parking lot)",
  params,
  finite: (p) => p.flows.every((f) => f.stopNs !== undefined || f.totalBytes !== undefined),
  howToEnd: "give every flow a stopNs or a totalBytes",
  check: (p, ctx) =>
    p.flows.flatMap((f, i) => {
      const at = `flows[${i}]`;
      const errors: string[] = [];
      for (const [field, host] of [
        ["src", f.src],
        ["dst", f.dst],
      ] as const) {
        const e = hostError(`${at}.${field}`, host, ctx.hostCount);
        if (e !== undefined) errors.push(e);
      }
      if (f.src === f.dst) errors.push(`${at}: src and dst are both host ${f.src}`);
      const slCount = ctx.slCount ?? Number.POSITIVE_INFINITY;
      if (f.sl !== undefined && f.sl >= slCount) errors.push(slError(`${at}.sl`, f.sl, slCount));
      if (f.stopNs !== undefined && f.stopNs <= f.startNs) {
        errors.push(`${at}.stopNs = ${f.stopNs} must be after startNs = ${f.startNs}`);
      }
      return errors;
    }),
  create: (p, ctx) =>
    mergeSources(
      p.flows.map(
        (f) =>
          new PacedStream({
            srcHost: f.src,
            messageBytes: f.messageBytes,
            rateGbps: f.rateGbps ?? ctx.hostRateGbps(f.src),
            window: windowPs(f, ctx.endPs),
            release: "start",
            totalBytes: f.totalBytes,
            destination: () => f.dst,
            tags: { sl: f.sl, group: f.group },
          }),
      ),
    ),
});
