import { DEFAULT_HCA_CONFIG, INJECTION_ORDERS } from "@cclab/fabric-hca";
import type { z } from "zod";
import { bytes, gbps, oneOf, strictObject } from "./fields.js";

/**
 * How a message gets its service level (docs/model.md, "Hosts"): `message`, the SL its traffic
 * gives; `destination`, its destination host's index (a VL per destination: VOQnet).
 */
export const SL_MAPPINGS = ["message", "destination"] as const;

const d = DEFAULT_HCA_CONFIG;

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
  pfc: strictObject(
    {
      xoffBytes: bytes("pause the switch when the receive buffer holds more than this"),
      xonBytes: bytes("resume when it holds this or less"),
    },
    "PFC thresholds of the receive buffer (flowControl pfc); default: the switches' pfc",
  ).optional(),
});

export type HostSection = z.output<typeof hostSchema>;
