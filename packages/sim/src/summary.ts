import { z } from "zod";

const percentiles = (unit: string) =>
  z
    .object({
      count: z.number().int().describe("samples"),
      mean: z.number().describe(`mean, ${unit}`),
      p50: z.number().describe(`median (nearest rank), ${unit}`),
      p99: z.number().describe(`99th percentile, ${unit}`),
      p999: z.number().describe(`99.9th percentile, ${unit}`),
      max: z.number().describe(`maximum, ${unit}`),
    })
    .strict();

const flowSchema = z
  .object({
    id: z.number().int().describe("flow id = (src × hostCount + dst) × vlCount + sl"),
    src: z.number().int().describe("source host index"),
    dst: z.number().int().describe("destination host index"),
    srcName: z.string(),
    dstName: z.string(),
    sl: z.number().int().describe("service level / priority"),
    group: z.string().describe("traffic group (fairness is computed per group)"),
    messages: z.number().int().describe("messages offered"),
    completedMessages: z.number().int().describe("messages delivered completely"),
    offeredBytes: z.number().describe("payload bytes offered, B"),
    deliveredBytes: z.number().describe("payload bytes delivered, B (whole run)"),
    windowGbps: z
      .number()
      .describe(
        "payload the flow delivered in the measurement window × 8 / the window's length, Gb/s: the flows through a link sum to no more than its rate, and all flows sum to totals.windowGbps",
      ),
    deliveredPackets: z.number().int().describe("data packets delivered (whole run)"),
    marks: z
      .object({
        fecn: z.number().int().describe("with FECN set (InfiniBand CC, TCD's CE on credits)"),
        ecnCe: z.number().int().describe("with ECN CE (11)"),
        ecnUe: z.number().int().describe("with ECN UE (10, TCD's undetermined on PFC)"),
      })
      .strict()
      .describe("data packets delivered with each mark (whole run)"),
    firstInjectionUs: z.number().nullable().describe("first packet injection, µs"),
    lastDeliveryUs: z.number().nullable().describe("last packet delivery, µs"),
    mctUs: percentiles("µs")
      .nullable()
      .describe("message completion times of the flow's completed messages after warm-up"),
    latencyNs: percentiles("ns")
      .nullable()
      .describe(
        "total packet latency (delivery − message arrival) after warm-up; exact nearest rank (within 0.5 % past 8,388,608 packets in the run)",
      ),
  })
  .strict();

const groupSchema = z
  .object({
    name: z.string(),
    flows: z.number().int(),
    deliveredBytes: z.number(),
    meanGbps: z.number().describe("mean of the flows' windowGbps, Gb/s"),
    minGbps: z.number().describe("lowest of the flows' windowGbps, Gb/s"),
    maxGbps: z.number().describe("highest of the flows' windowGbps, Gb/s"),
    jainIndex: z.number().nullable().describe("Jain's fairness index over the flows' windowGbps"),
  })
  .strict();

const portSchema = z
  .object({
    switch: z.string(),
    port: z.number().int(),
    portName: z.string().describe("the port's name, e.g. S3.p5 (docs/model.md, Port names)"),
    peer: z
      .string()
      .describe("what the port's cable leads to (where its packets come from): H17, S2.p1"),
    vl: z.number().int(),
    meanInputBytes: z.number(),
    maxInputBytes: z.number(),
    blockedUs: z
      .number()
      .describe("time the same port's output had a packet ready but was held by flow control, µs"),
    offTransitions: z.number().int(),
  })
  .strict();

/**
 * `summary.json`: the figures of one run. Deterministic: the same scenario and seed give the
 * same bytes on any machine (wall-clock figures are in `run.json`). The JSON Schema generated
 * from this is shipped as `schema/summary.schema.json`.
 */
export const summarySchema = z
  .object({
    schemaVersion: z
      .literal(2)
      .describe(
        "2: a flow's throughput is windowGbps, over the measurement window (1: meanGbps, over its active time)",
      ),
    scenario: z.string().describe("scenario name"),
    seed: z.number().int(),
    status: z
      .enum(["complete", "time-reached", "incomplete"])
      .describe(
        "complete: every message delivered (untilComplete); time-reached: ran for run.durationUs; incomplete: untilComplete stopped at the durationUs cap with messages left",
      ),
    simulatedUs: z.number().describe("simulated time at the end of the run, µs"),
    windowUs: z
      .object({ from: z.number(), to: z.number() })
      .strict()
      .describe("the measurement window: warm-up end to run end, µs"),
    eventsProcessed: z.number().int(),
    totals: z
      .object({
        messages: z.number().int().describe("messages offered"),
        completedMessages: z.number().int(),
        offeredBytes: z.number(),
        deliveredBytes: z.number().describe("payload bytes delivered, whole run"),
        windowGbps: z.number().describe("payload delivered in the window × 8 / window, Gb/s"),
        dataDrops: z
          .number()
          .int()
          .describe(
            "data packets dropped by a CC scheme (lossless fabric: 0 unless a scheme drops)",
          ),
        pauseFrames: z.number().int().describe("PFC pause (XOFF) frames sent"),
        resumeFrames: z.number().int().describe("PFC resume (XON) frames sent"),
        marks: z
          .object({
            fecn: z.number().int(),
            becn: z.number().int(),
            ecnCe: z.number().int(),
          })
          .strict()
          .describe("marked packets delivered to hosts, by mark"),
        controlPackets: z
          .record(z.string(), z.number().int())
          .describe("control packets delivered to hosts, by kind"),
        ccCounters: z
          .record(z.string(), z.number())
          .describe(
            "the CC parts' own counters summed over every switch and host, by name (e.g. fecnMarked, cnpSent, becnReceived); empty without CC",
          ),
      })
      .strict(),
    fct: z
      .object({
        completionUs: percentiles("µs"),
        slowdown: percentiles("×").describe("MCT / ideal MCT alone on an idle network"),
        lastCompletionUs: z.number().describe("time the last message completed, µs"),
      })
      .strict()
      .nullable()
      .describe("message completion over messages that arrived after warm-up and completed"),
    latencyNs: z
      .object({ total: percentiles("ns").nullable(), network: percentiles("ns").nullable() })
      .strict()
      .describe("packet latency of all data packets delivered after warm-up"),
    groups: z.array(groupSchema),
    hosts: z
      .array(
        z
          .object({
            name: z.string(),
            sendGbps: z.number().describe("payload it sent that was delivered in the window, Gb/s"),
            receiveGbps: z.number().describe("payload delivered to it in the window, Gb/s"),
            receiveGbpsByGroup: z
              .record(z.string(), z.number())
              .describe(
                "receiveGbps split by the traffic group of the flows it came from (e.g. hot, cold, victim), groups in name order; groups that sent it nothing are left out",
              ),
            egressBuffer: z
              .object({
                peakBytes: z
                  .number()
                  .describe("the most bytes the egress FIFO of any one VL held, whole run"),
                xoffUs: z
                  .number()
                  .describe("time its FIFOs were XOFF (queue pairs held), summed over VLs, µs"),
                xoffEvents: z.number().int().describe("times a FIFO went XOFF, every VL"),
              })
              .strict()
              .optional()
              .describe('its egress FIFOs (only with host.egressBuffer; docs/model.md, "Hosts")'),
          })
          .strict(),
      )
      .describe("every host's delivered throughput over the measurement window, in host order"),
    flows: z
      .array(flowSchema)
      .describe("every flow, in id order; empty when the scenario sets metrics.flowTable to false"),
    congestedPorts: z
      .array(portSchema)
      .describe("up to 16 switch input ports and VLs with the highest mean occupancy"),
  })
  .strict();

export type Summary = z.output<typeof summarySchema>;
export type Percentiles = z.output<ReturnType<typeof percentiles>>;

/** The JSON Schema of `summary.json` (draft 2020-12). */
export function summaryJsonSchema(): Record<string, unknown> {
  return {
    title: "cclab summary.json",
    ...(z.toJSONSchema(summarySchema) as Record<string, unknown>),
  };
}
