import { INFINIBAND_VLS, MAX_VLS } from "@cclab/fabric";
import { DEFAULT_SWITCH_CONFIG, QUEUEING_SCHEMES } from "@cclab/fabric-switch";
import { z } from "zod";
import { bytes, count, oneOf, ratio, strictObject, time } from "./fields.js";

const d = DEFAULT_SWITCH_CONFIG;
const defaultPartitionedBytes =
  d.buffer.model === "partitioned" ? d.buffer.bytesPerPortVl : 32 * 1024;

const partitioned = strictObject({
  model: z.literal("partitioned"),
  bytesPerPortVl: bytes("input buffer per port and VL, bytes (InfiniBand style)", 64).default(
    defaultPartitionedBytes,
  ),
}).describe("a buffer of its own for each input port and VL");

const shared = strictObject({
  model: z.literal("shared"),
  sharedBytes: bytes("one memory for the whole switch (PFC only)", 64),
  alpha: ratio(
    "dynamic threshold: an ingress queue pauses its upstream above alpha × free shared memory",
    0,
    true,
  ).default(1 / 8),
  headroomBytes: bytes(
    "reserved per ingress queue above XOFF for what arrives after a pause (validated against 2 × latency × rate + MTU + 64)",
  ),
  xonOffsetBytes: bytes("resume when a queue is this far below its dynamic threshold").default(
    2048,
  ),
}).describe("one memory all input ports share, with a dynamic threshold per ingress queue");

const buffer = z
  .discriminatedUnion("model", [partitioned, shared], {
    error: (i) =>
      i.code === "invalid_union"
        ? `must be "partitioned" or "shared", got ${JSON.stringify((i.input as { model?: unknown } | undefined)?.model)}`
        : undefined,
  })
  .describe('input buffer memory model (docs/model.md, "Input side")');

const pfc = strictObject(
  {
    xoffBytes: bytes("pause the upstream when an ingress queue holds more than this"),
    xonBytes: bytes("resume when it holds this or less"),
  },
  "PFC thresholds of a partitioned ingress queue; required with flowControl pfc and a partitioned buffer",
);

/** The `switch` section: every switch of the fabric uses it (docs/model.md, "Through a switch"). */
export const switchSchema = strictObject({
  vlCount: count(
    `virtual lanes (InfiniBand) or priorities (PFC) per port, 1..${MAX_VLS}: InfiniBand has at most ${INFINIBAND_VLS}, more model VOQnet's lane per destination (host.slMapping: destination)`,
    1,
    MAX_VLS,
  ).default(d.vlCount),
  controlVls: z
    .array(count("a VL index", 0, MAX_VLS - 1))
    .default([...d.controlVls])
    .describe("VLs served with strict priority over data VLs"),
  vlWeights: z
    .array(count("packets in a row", 1))
    .optional()
    .describe("weighted round-robin weights of the data VLs, one per VL; default 1 each"),
  switching: oneOf(["vct", "saf"], "virtual cut-through or store-and-forward").default(d.switching),
  headerBytes: bytes("bytes that must arrive before a packet is routed (VCT)", 1).default(
    d.headerBytes,
  ),
  routingLatencyNs: time(
    "header (VCT) or tail (SAF) arrival to eligibility at the output",
    "ns",
  ).default(d.routingLatencyNs),
  readPorts: count("packets an input port sends through the crossbar at once", 1).default(
    d.readPorts,
  ),
  arbitration: oneOf(
    ["round-robin", "oldest-first"],
    'which input a free output grants: the next in round-robin order, or the one whose head arrived first (output-queued FIFO order; docs/model.md, "Arbitration")',
  ).default("round-robin"),
  outputBufferBytes: bytes("output buffer per port and VL; 0: none").default(d.outputBufferBytes),
  speedup: ratio("crossbar speed relative to the link (needs output buffers)", 1).default(
    d.speedup,
  ),
  queueing: z
    .string()
    .default(typeof d.queueing === "string" ? d.queueing : "voq-port")
    .describe(
      `input queueing: ${Object.keys(QUEUEING_SCHEMES).join(", ")}, or a queueing plugin's name`,
    ),
  buffer: buffer.prefault({ model: "partitioned" }),
  pfc: pfc.optional(),
});

export type SwitchSection = z.output<typeof switchSchema>;
