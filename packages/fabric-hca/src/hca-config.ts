import { type EgressBufferConfig, egressBufferProblem } from "./egress-buffer.js";
import { type ReceiveRateStep, receiveRateScheduleProblem } from "./receive-rate.js";

/** Host adapter parameters (docs/model.md, "Hosts"). Every field has a documented default. */
export interface HcaConfig {
  /** Largest payload per packet, bytes. */
  readonly mtuBytes: number;
  /** Header bytes added to every data packet. */
  readonly headerBytes: number;
  /** Size of a control packet (ACK, CNP, ...) on the wire, bytes. */
  readonly controlPacketBytes: number;
  /**
   * Spaces packet starts at `size × 8 / cap` at least: the PCIe limit of Gran's testbed
   * (13 Gb/s, thesis L1336). `null`: line rate.
   */
  readonly injectionCapGbps: number | null;
  /** Rate at which the host consumes received packets (a slow receiver); `null`: at once. */
  readonly receiveRateGbps: number | null;
  /**
   * Changes of the receive rate over time (docs/model.md, "Hosts"): from each step's `atPs` on,
   * the host consumes at its `rateGbps` (`null`: at once) instead of `receiveRateGbps`, which
   * holds until the first step. Steps in strictly increasing time order. A packet in service
   * keeps the rate it started with. Default `[]`: `receiveRateGbps` throughout.
   */
  readonly receiveRateSchedule: readonly ReceiveRateStep[];
  /** Receive buffer per VL, bytes: the credits the host grants its switch. */
  readonly receiveBufferBytes: number;
  /**
   * Which queue pair sends next among those allowed to (CC gate open, room on the uplink):
   * - `round-robin` (docs/model.md, "Hosts"): packet by packet over the queue pairs;
   * - `oldest-first`: the one whose head message arrived first (ties: the order the host was
   *   handed them), i.e. one FIFO of messages that only a CC gate can overtake. Paper IV's generator (Frame I, L1708–1726): hot and
   *   cold traffic leave in the order generated unless CC holds the hot traffic back.
   */
  readonly injectionOrder: InjectionOrder;
  /**
   * An egress FIFO per VL between the CC gates and the uplink, with PAUSE at its watermarks
   * (docs/model.md, "Hosts"): the adapter of IBM's E2CM slides, 150 KB with PAUSE at 140 KB and
   * 130 KB (seed 003_b214e58ba856b6a6.txt, L309–314). `null` (default): none, packets go from
   * the queue pairs straight onto the uplink.
   */
  readonly egressBuffer: EgressBufferConfig | null;
}

export const INJECTION_ORDERS = ["round-robin", "oldest-first"] as const;
export type InjectionOrder = (typeof INJECTION_ORDERS)[number];

/**
 * Defaults. MTU 2048: Papers II–IV of the Gran thesis (L1356, L1704). Header 26 B: the
 * InfiniBand local route header (8), base transport header (12), ICRC (4) and VCRC (2).
 */
export const DEFAULT_HCA_CONFIG: HcaConfig = {
  mtuBytes: 2048,
  headerBytes: 26,
  controlPacketBytes: 64,
  injectionCapGbps: null,
  receiveRateGbps: null,
  receiveRateSchedule: [],
  receiveBufferBytes: 32 * 1024,
  injectionOrder: "round-robin",
  egressBuffer: null,
};

const KEYS = new Set(Object.keys(DEFAULT_HCA_CONFIG));

/** Fills defaults and validates; errors name the field and what is allowed. */
export function resolveHcaConfig(partial: Partial<HcaConfig>, where = "host"): HcaConfig {
  for (const key of Object.keys(partial)) {
    if (!KEYS.has(key)) {
      throw new TypeError(`${where}: unknown key "${key}"; allowed: ${[...KEYS].join(", ")}`);
    }
  }
  const config: HcaConfig = { ...DEFAULT_HCA_CONFIG, ...partial };
  const positiveInt = (name: keyof HcaConfig, min: number) => {
    const value = config[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      throw new RangeError(
        `${where}.${name} must be a whole number ≥ ${min} bytes, got ${String(value)}`,
      );
    }
  };
  positiveInt("mtuBytes", 1);
  positiveInt("headerBytes", 0);
  positiveInt("controlPacketBytes", 1);
  positiveInt("receiveBufferBytes", 64);
  for (const name of ["injectionCapGbps", "receiveRateGbps"] as const) {
    const value = config[name];
    if (value !== null && !(typeof value === "number" && value > 0 && Number.isFinite(value))) {
      throw new RangeError(
        `${where}.${name} must be a rate > 0 Gb/s or null, got ${String(value)}`,
      );
    }
  }
  const scheduleProblem = receiveRateScheduleProblem(
    config.receiveRateSchedule,
    `${where}.receiveRateSchedule`,
  );
  if (scheduleProblem !== undefined) throw new RangeError(scheduleProblem);
  if (!INJECTION_ORDERS.includes(config.injectionOrder)) {
    throw new RangeError(
      `${where}.injectionOrder must be one of ${INJECTION_ORDERS.join(", ")}, got ${String(config.injectionOrder)}`,
    );
  }
  if (config.mtuBytes + config.headerBytes > config.receiveBufferBytes) {
    throw new RangeError(
      `${where}.receiveBufferBytes (${config.receiveBufferBytes}) must hold one full packet (mtuBytes + headerBytes = ${config.mtuBytes + config.headerBytes})`,
    );
  }
  const egressProblem = egressBufferProblem(
    config.egressBuffer,
    config.mtuBytes + config.headerBytes,
    `${where}.egressBuffer`,
  );
  if (egressProblem !== undefined) throw new RangeError(egressProblem);
  return config;
}
