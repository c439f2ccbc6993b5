import type { LaneDeclaration } from "@cclab/fabric";

/**
 * The fields of E2CM's frame format (seed 003_b214e58ba856b6a6.txt L199–226) as packet
 * columns. A BCN frame carries the congestion point, the queue offset and delta; a data frame
 * carries the CM tag (the congestion point its flow's rate limiter is associated with) and, on
 * a probe, the source's timestamp; a returned probe carries the forward latency and the flow's
 * throughput the destination measured.
 */
export const COLUMN = {
  /** BCN type of a BCN frame or of a probe (see {@link BcnType}); 0 on plain data. */
  type: "e2cm.type",
  /** Congestion point id: on a BCN frame its source; on data, the CM tag (0: untagged). */
  cpid: "e2cm.cpid",
  /** BCN: Qoff = Qeq − Q, bytes. */
  qoffBytes: "e2cm.qoffBytes",
  /** BCN: Qdelta = Q − Qold, bytes. */
  qdeltaBytes: "e2cm.qdeltaBytes",
  /** Forward probe: the source's timestamp; returned probe: the forward latency, ps. */
  timePs: "e2cm.timePs",
  /** Returned probe: the flow's throughput since its previous probe, bytes/s (−1: unknown). */
  throughputBytesPerS: "e2cm.throughputBytesPerS",
} as const;

/** BCN types (L204–206). */
export const BcnType = {
  none: 0,
  bcn: 1,
  bcnMax: 2,
  bcnZero: 3,
  probeForward: 4,
  probeReverse: 5,
} as const;

/** BCN frames and returned probes travel ahead of data, on a control lane of their own. */
export const CONTROL_LANE = "control";
export const LANES: readonly LaneDeclaration[] = [{ name: CONTROL_LANE, role: "control" }];

// A congestion point is an output queue (port, VL) of a switch: 17 + 10 + 4 bits, so ids fit
// the Int32 column; 0 stays "no congestion point".
const PORT_BITS = 10;
const VL_BITS = 4;
export const MAX_CP_PORTS = 1 << PORT_BITS;
export const MAX_CP_VLS = 1 << VL_BITS;

/** The id of the congestion point at output `port`, VL `vl` of switch `switchIndex`. */
export function cpidOf(switchIndex: number, port: number, vl: number): number {
  return ((switchIndex << PORT_BITS) + port) * MAX_CP_VLS + vl + 1;
}
