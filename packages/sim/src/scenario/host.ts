import { DEFAULT_HCA_CONFIG, INJECTION_ORDERS } from "@cclab/fabric-hca";
import { z } from "zod";
import { bytes, count, gbps, oneOf, strictObject, time } from "./fields.js";

/**
 * How a message gets its service level (docs/model.md, "Hosts"): `message`, the SL its traffic
 * gives; `destination`, its destination host's index (a VL per destination: VOQnet).
 */
export const SL_MAPPINGS = ["message", "destination"] as const;

const d = DEFAULT_HCA_CONFIG;

/**
 * One entry of `host.receiveRates`: from `atUs` on, these hosts consume at their own rate
 * (docs/model.md, "Hosts"). Host names become indices before this schema sees them.
 */
const receiveRateEntry = strictObject(
  {
    hosts: z
      .array(count("a host index", 0), { error: "must be a list of hosts (names or indices)" })
      .min(1, "must list at least one host")
      .describe("the hosts this rate applies to, by name (H6) or index"),
    receiveRateGbps: gbps(
      "rate at which these hosts consume packets from atUs on, instead of host.receiveRateGbps; null: at once",
    ).nullable(),
    atUs: time("when the rate takes effect, µs from the start of the run", "µs").default(0),
  },
  "a receive rate of some hosts from a time on",
);

/** The `host` section: every host adapter uses it (docs/model.md, "Hosts"). */
export const hostSchema = strictObject({
  mtuBytes: bytes("largest payload per data packet", 1).default(d.mtuBytes),
  headerBytes: bytes("header bytes added to every data packet").default(d.headerBytes),
  controlPacketBytes: bytes("size of a control packet (ACK, CNP, …) on the wire", 1).default(
    d.controlPacketBytes,
  ),
  injectionCapGbps: gbps("spaces packet starts at size × 8 / cap (PCIe limit); null: line rate")
    .nullable()
    .default(d.injectionCapGbps),
  receiveRateGbps: gbps("rate at which the host consumes packets; null: at once")
    .nullable()
    .default(d.receiveRateGbps),
  receiveRates: z
    .array(receiveRateEntry, { error: "must be a list of { hosts, receiveRateGbps, atUs }" })
    .optional()
    .describe(
      "receive rates of their own for some hosts, changing at given times: from each entry's atUs on, its hosts consume at its receiveRateGbps instead of host.receiveRateGbps (a slow receiver, the root of a hot spot); a host's later entry replaces its earlier one, one entry per host and time",
    ),
  receiveBufferBytes: bytes("receive buffer per VL: the credits the host grants", 64).default(
    d.receiveBufferBytes,
  ),
  injectionOrder: oneOf(
    INJECTION_ORDERS,
    "which queue pair sends next among those allowed to: round-robin (packet by packet), or oldest-first (the head message that arrived first: one FIFO that only a CC gate overtakes, Paper IV's generator)",
  ).default(d.injectionOrder),
  slMapping: oneOf(
    SL_MAPPINGS,
    'the SL of each message, and so its VL: "message" keeps the SL its traffic gives (default 0); "destination" makes it the destination host\'s index, so every destination has a VL of its own, with its own buffer and credits (VOQnet, Gran\'s Paper VI; needs the switch section\'s vlCount ≥ the host count)',
  ).default("message"),
  egressBuffer: strictObject(
    {
      bytes: bytes("bytes the egress FIFO of one VL may hold (≥ mtuBytes + headerBytes)", 1),
      xoffBytes: bytes(
        "the FIFO stops taking packets from the queue pairs once it holds more than this (high watermark; ≤ bytes)",
        1,
      ),
      xonBytes: bytes(
        "and takes them again once it holds this or less (low watermark; < xoffBytes)",
      ),
    },
    "an egress FIFO per VL between the CC gates (rate limiters) and the link, with PAUSE at its watermarks: the adapter of IBM's E2CM slides (150 KB, PAUSE at 140/130 KB); null: none, packets go from the queue pairs straight onto the link",
  )
    .nullable()
    .default(d.egressBuffer),
  pfc: strictObject(
    {
      xoffBytes: bytes("pause the switch when the receive buffer holds more than this"),
      xonBytes: bytes("resume when it holds this or less"),
    },
    "PFC thresholds of the receive buffer (flowControl pfc); default: the switches' pfc",
  ).optional(),
});

export type HostSection = z.output<typeof hostSchema>;
