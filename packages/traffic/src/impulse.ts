import { nsToPs } from "@cclab/core-des";
import { z } from "zod";
import { allHosts, dstAndSendersErrors, hostListSchema, hostSchema } from "./hosts.js";
import { makeMessage } from "./message.js";
import { definePattern } from "./pattern.js";
import { bytesSchema } from "./size.js";
import { timeNs } from "./time-fields.js";
import type { TrafficMessage } from "./types.js";

/**
 * SRP's impulse (seed 000 L241): at one instant every node starts a small hot-spot message
 * to the same destination. Combine with a `uniform` entry for the warm-up and background.
 */
const params = z.strictObject({
  atNs: timeNs("≥ 0").describe("time every message of the impulse starts, ns"),
  dstHost: hostSchema
    .optional()
    .describe("destination of the impulse; default a seeded random host not among the senders"),
  senders: hostListSchema.optional().describe("hosts taking part; default every host but dstHost"),
  messages: z.int().positive().default(1).describe("messages each sender starts at atNs"),
  messageBytes: bytesSchema.default(4096).describe("size of each message, bytes"),
});

export const impulse = definePattern({
  name: "impulse",
  description: "impulse: every sender starts a burst of messages to one host at the same instant",
  params,
  finite: true,
  check: (p, ctx) => {
    const errors = dstAndSendersErrors(p, ctx.hostCount);
    if (
      p.senders !== undefined &&
      p.dstHost === undefined &&
      new Set(p.senders).size >= ctx.hostCount
    ) {
      errors.push("senders include every host: none is left to be the dstHost");
    }
    return errors;
  },
  create: (p, ctx) => {
    const startPs = nsToPs(p.atNs);
    const taken = new Set(p.senders ?? []);
    const dstHost =
      p.dstHost ?? ctx.rng.split("dst").pick(allHosts(ctx.hostCount).filter((h) => !taken.has(h)));
    const senders = p.senders
      ? [...p.senders].sort((a, b) => a - b)
      : allHosts(ctx.hostCount).filter((h) => h !== dstHost);
    const total = startPs < ctx.endPs ? senders.length * p.messages : 0;
    let i = 0;
    return {
      next(): TrafficMessage | undefined {
        if (i >= total) return undefined;
        // Sender by sender, each sender's messages together.
        const srcHost = senders[Math.floor(i / p.messages)]!;
        i++;
        return makeMessage(srcHost, dstHost, p.messageBytes, startPs, { group: "impulse" });
      },
    };
  },
});
