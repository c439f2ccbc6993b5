import { nsToPs } from "@cclab/core-des";
import {
  type FlowControlDiscipline,
  INFINIBAND_VLS,
  MAX_VLS,
  type PauseRule,
  type QueueingPart,
  type ReceiveTiming,
} from "@cclab/fabric";
import type { ArbiterLanes } from "./arbiter.js";
import { singleQueue } from "./queues/single-queue.js";
import { voqPerDestination } from "./queues/voq-destination.js";
import { voqPerOutput } from "./queues/voq-port.js";

/** Built-in queueing schemes by name; a plug-in is passed as a {@link QueueingPart}. */
export const QUEUEING_SCHEMES = {
  "1q": singleQueue,
  "voq-port": voqPerOutput,
  "voq-dest": voqPerDestination,
} as const satisfies Record<string, QueueingPart>;
export type QueueingName = keyof typeof QUEUEING_SCHEMES;

/**
 * Input buffer memory (docs/model.md, "Input side"):
 * - `partitioned`: every input port has `bytesPerPortVl` for each VL (InfiniBand style);
 * - `shared`: one memory of `sharedBytes` for the whole switch; an ingress queue (port, VL)
 *   pauses its upstream when it holds more than `alpha × free shared memory` (dynamic
 *   threshold) and may then still use `headroomBytes` of reserved headroom (Ethernet style,
 *   PFC only).
 */
export type BufferConfig =
  | { readonly model: "partitioned"; readonly bytesPerPortVl: number }
  | {
      readonly model: "shared";
      readonly sharedBytes: number;
      readonly alpha: number;
      readonly headroomBytes: number;
      /** Resume when the queue is this far below its dynamic threshold. */
      readonly xonOffsetBytes: number;
    };

/** PFC thresholds of a partitioned ingress queue (per port and priority). */
export interface PfcThresholds {
  readonly xoffBytes: number;
  readonly xonBytes: number;
}

export interface SwitchConfig {
  /**
   * Virtual lanes (InfiniBand) or priorities (PFC) per port, 1..`MAX_VLS` (1024). InfiniBand
   * has at most 16; more model VOQnet, a lane per destination host (docs/model.md, "Input
   * side").
   */
  readonly vlCount: number;
  /** VLs served with strict priority over the data VLs (control lanes). */
  readonly controlVls: readonly number[];
  /**
   * VLs served only when no other data VL has a packet that may go (low-priority lanes, e.g.
   * SRP's speculative lane); none of them a control VL. Default none.
   */
  readonly lowPriorityVls: readonly number[];
  /**
   * Weighted round-robin weights of the VLs, in packets in a row (index = VL; control VLs'
   * entries are ignored). Default: 1 each, plain round-robin.
   */
  readonly vlWeights?: readonly number[];
  /** `vct`: virtual cut-through (a packet may leave once its header is in); `saf`: store-and-forward. */
  readonly switching: "vct" | "saf";
  /** Bytes that must arrive before a packet can be routed under VCT. */
  readonly headerBytes: number;
  /** From header arrival (VCT) or tail arrival (SAF) to eligibility at the output, ns. */
  readonly routingLatencyNs: number;
  /** Packets an input port can send through the crossbar at once. */
  readonly readPorts: number;
  /**
   * Which input a free output grants on a VL: `round-robin` (the input after the one granted
   * last; InfiniBand switches) or `oldest-first` (the input whose head packet arrived at the
   * switch first: with one VOQ per output this serves an output's packets in arrival order, as
   * one output-queued FIFO does). Default `round-robin`.
   */
  readonly arbitration?: "round-robin" | "oldest-first";
  /** Output buffer per port and VL, bytes; 0: none (packets go from input to link). */
  readonly outputBufferBytes: number;
  /** Crossbar speed relative to the output link (with output buffers). */
  readonly speedup: number;
  readonly queueing: QueueingName | QueueingPart;
  readonly buffer: BufferConfig;
  /** Required with PFC and a partitioned buffer. */
  readonly pfc?: PfcThresholds;
  /** When set, input occupancy per port and VL is also kept as a series of bins this wide, ns. */
  readonly occupancyBinNs: number | null;
}

/**
 * Defaults. routingLatencyNs 100: the InfiniScale IV switch latency of Gran's testbed
 * (thesis L1285). 32 KiB per port and VL: the thesis gives no buffer size for its simulator
 * (see packages/fabric-switch/README.md); 16 MTUs of 2048 B covers more than one credit round
 * trip at 32 Gb/s over metres of cable.
 */
export const DEFAULT_SWITCH_CONFIG: SwitchConfig = {
  vlCount: 1,
  controlVls: [],
  lowPriorityVls: [],
  switching: "vct",
  headerBytes: 64,
  routingLatencyNs: 100,
  readPorts: 1,
  outputBufferBytes: 0,
  speedup: 1,
  queueing: "voq-port",
  buffer: { model: "partitioned", bytesPerPortVl: 32 * 1024 },
  occupancyBinNs: null,
};

const KEYS = new Set<string>([
  "vlCount",
  "controlVls",
  "lowPriorityVls",
  "vlWeights",
  "switching",
  "headerBytes",
  "routingLatencyNs",
  "readPorts",
  "arbitration",
  "outputBufferBytes",
  "speedup",
  "queueing",
  "buffer",
  "pfc",
  "occupancyBinNs",
]);

function requireNumber(
  where: string,
  value: unknown,
  { min, integer }: { min: number; integer: boolean },
): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new RangeError(
      `${where} must be a ${integer ? "whole " : ""}number ≥ ${min}, got ${String(value)}`,
    );
  }
  if (integer && !Number.isInteger(value)) {
    throw new RangeError(`${where} must be a whole number, got ${value}`);
  }
}

/**
 * Fills defaults and checks a switch configuration against the flow-control discipline;
 * throws an error naming the field and what is allowed.
 */
export function resolveSwitchConfig(
  partial: Partial<SwitchConfig>,
  discipline: FlowControlDiscipline,
  where = "switch",
): SwitchConfig {
  for (const key of Object.keys(partial)) {
    if (!KEYS.has(key)) {
      throw new TypeError(`${where}: unknown key "${key}"; allowed: ${[...KEYS].join(", ")}`);
    }
  }
  const config: SwitchConfig = { ...DEFAULT_SWITCH_CONFIG, ...partial };
  requireNumber(`${where}.vlCount`, config.vlCount, { min: 1, integer: true });
  if (config.vlCount > MAX_VLS) {
    throw new RangeError(
      `${where}.vlCount must be in 1..${MAX_VLS} (InfiniBand has ${INFINIBAND_VLS} VLs; more model VOQnet's lane per destination), got ${config.vlCount}`,
    );
  }
  for (const vl of config.controlVls) {
    if (!Number.isInteger(vl) || vl < 0 || vl >= config.vlCount) {
      throw new RangeError(`${where}.controlVls: ${vl} is not a VL in 0..${config.vlCount - 1}`);
    }
  }
  for (const vl of config.lowPriorityVls) {
    if (!Number.isInteger(vl) || vl < 0 || vl >= config.vlCount) {
      throw new RangeError(
        `${where}.lowPriorityVls: ${vl} is not a VL in 0..${config.vlCount - 1}`,
      );
    }
    if (config.controlVls.includes(vl)) {
      throw new RangeError(`${where}.lowPriorityVls: ${vl} is a control VL (controlVls)`);
    }
  }
  if (config.vlWeights !== undefined) {
    if (!Array.isArray(config.vlWeights) || config.vlWeights.length !== config.vlCount) {
      throw new RangeError(
        `${where}.vlWeights must list one weight per VL (${config.vlCount}), got ${JSON.stringify(config.vlWeights)}`,
      );
    }
    for (const [vl, w] of config.vlWeights.entries()) {
      requireNumber(`${where}.vlWeights[${vl}]`, w, { min: 1, integer: true });
    }
  }
  if (config.switching !== "vct" && config.switching !== "saf") {
    throw new TypeError(
      `${where}.switching must be "vct" or "saf", got ${String(config.switching)}`,
    );
  }
  requireNumber(`${where}.headerBytes`, config.headerBytes, { min: 1, integer: true });
  requireNumber(`${where}.routingLatencyNs`, config.routingLatencyNs, { min: 0, integer: false });
  requireNumber(`${where}.readPorts`, config.readPorts, { min: 1, integer: true });
  if (
    config.arbitration !== undefined &&
    config.arbitration !== "round-robin" &&
    config.arbitration !== "oldest-first"
  ) {
    throw new TypeError(
      `${where}.arbitration must be "round-robin" or "oldest-first", got ${String(config.arbitration)}`,
    );
  }
  requireNumber(`${where}.outputBufferBytes`, config.outputBufferBytes, { min: 0, integer: true });
  requireNumber(`${where}.speedup`, config.speedup, { min: 1, integer: false });
  if (config.outputBufferBytes === 0 && config.speedup !== 1) {
    throw new RangeError(
      `${where}.speedup ${config.speedup} needs output buffers: set ${where}.outputBufferBytes > 0 (without them the crossbar runs at link rate)`,
    );
  }
  if (typeof config.queueing === "string" && !(config.queueing in QUEUEING_SCHEMES)) {
    throw new TypeError(
      `${where}.queueing: unknown scheme "${config.queueing}"; built in: ${Object.keys(QUEUEING_SCHEMES).join(", ")}, or pass a QueueingPart`,
    );
  }
  if (config.occupancyBinNs !== null) {
    requireNumber(`${where}.occupancyBinNs`, config.occupancyBinNs, { min: 1, integer: true });
  }
  const buffer = config.buffer;
  if (buffer.model === "partitioned") {
    requireNumber(`${where}.buffer.bytesPerPortVl`, buffer.bytesPerPortVl, {
      min: 64,
      integer: true,
    });
  } else if (buffer.model === "shared") {
    if (discipline === "credit") {
      throw new TypeError(
        `${where}.buffer.model "shared" needs PFC flow control; with credits use "partitioned"`,
      );
    }
    requireNumber(`${where}.buffer.sharedBytes`, buffer.sharedBytes, { min: 64, integer: true });
    requireNumber(`${where}.buffer.headroomBytes`, buffer.headroomBytes, { min: 0, integer: true });
    requireNumber(`${where}.buffer.xonOffsetBytes`, buffer.xonOffsetBytes, {
      min: 0,
      integer: true,
    });
    if (!(buffer.alpha > 0) || !Number.isFinite(buffer.alpha)) {
      throw new RangeError(
        `${where}.buffer.alpha must be a number > 0, got ${String(buffer.alpha)}`,
      );
    }
  } else {
    throw new TypeError(
      `${where}.buffer.model must be "partitioned" or "shared", got ${String((buffer as { model: unknown }).model)}`,
    );
  }
  if (discipline === "credit" && config.pfc !== undefined) {
    throw new TypeError(
      `${where}.pfc applies to PFC flow control only; this fabric uses credits (remove it, or set flowControl: pfc)`,
    );
  }
  if (discipline === "pfc" && buffer.model === "partitioned") {
    const pfc = config.pfc;
    if (pfc === undefined) {
      throw new TypeError(
        `${where}.pfc {xoffBytes, xonBytes} is required with PFC and a partitioned buffer`,
      );
    }
    requireNumber(`${where}.pfc.xoffBytes`, pfc.xoffBytes, { min: 0, integer: true });
    requireNumber(`${where}.pfc.xonBytes`, pfc.xonBytes, { min: 0, integer: true });
    if (pfc.xonBytes > pfc.xoffBytes) {
      throw new RangeError(
        `${where}.pfc.xonBytes (${pfc.xonBytes}) must be ≤ xoffBytes (${pfc.xoffBytes})`,
      );
    }
    if (pfc.xoffBytes >= buffer.bytesPerPortVl) {
      throw new RangeError(
        `${where}.pfc.xoffBytes (${pfc.xoffBytes}) must be below buffer.bytesPerPortVl (${buffer.bytesPerPortVl}) to leave headroom`,
      );
    }
  }
  return config;
}

export function queueingPartOf(config: SwitchConfig): QueueingPart {
  return typeof config.queueing === "string" ? QUEUEING_SCHEMES[config.queueing] : config.queueing;
}

/**
 * When an input buffer pauses its upstream under PFC (undefined under credits): the dynamic
 * threshold of a shared memory, or the fixed thresholds of a partitioned one.
 */
export function pauseRuleOf(
  config: SwitchConfig,
  discipline: FlowControlDiscipline,
): PauseRule | undefined {
  if (discipline === "credit") return undefined;
  const buffer = config.buffer;
  if (buffer.model === "shared") {
    return {
      kind: "dynamic",
      alpha: buffer.alpha,
      sharedBytes: buffer.sharedBytes,
      xonOffsetBytes: buffer.xonOffsetBytes,
    };
  }
  return { kind: "static", xoffBytes: config.pfc!.xoffBytes, xonBytes: config.pfc!.xonBytes };
}

/** Credit blocks an input port holds per VL: what its upstream starts with (credits only). */
export function inputCreditBlocksOf(config: SwitchConfig): number {
  const buffer = config.buffer;
  return buffer.model === "partitioned" ? Math.floor(buffer.bytesPerPortVl / 64) : 0;
}

/** How a link hands packets to the switch: after the header (VCT) or tail (SAF), plus routing. */
export function receiveTimingOf(config: SwitchConfig): ReceiveTiming {
  return {
    cutThroughBytes: config.switching === "vct" ? config.headerBytes : Number.POSITIVE_INFINITY,
    processingPs: nsToPs(config.routingLatencyNs),
  };
}

/** The lanes as the arbiter serves them. */
export function arbiterLanesOf(config: SwitchConfig): ArbiterLanes {
  return {
    vlCount: config.vlCount,
    controlVls: config.controlVls,
    lowPriorityVls: config.lowPriorityVls,
    ...(config.vlWeights === undefined ? {} : { weights: config.vlWeights }),
  };
}
