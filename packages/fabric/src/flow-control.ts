import { serializationPs, type TimePs } from "@cclab/core-des";

/** InfiniBand flow-control credits count 64-byte blocks (MODEL.md, "Flow control"). */
export const CREDIT_BLOCK_BYTES = 64;

/** Size of a PFC pause or resume frame on the wire (MODEL.md). */
export const PAUSE_FRAME_BYTES = 64;

/** Credit blocks a packet of `bytes` needs: ceil(bytes / 64). */
export function creditBlocks(bytes: number): number {
  return Math.ceil(bytes / CREDIT_BLOCK_BYTES);
}

/**
 * The link-level flow-control discipline of a fabric:
 * - `credit`: InfiniBand credits per VL, 64-byte blocks, returned as buffer space frees;
 * - `pfc`: Ethernet priority flow control, pause/resume per priority at XOFF/XON.
 */
export type FlowControlDiscipline = "credit" | "pfc";

/**
 * The sending side of one port's flow control: credits per VL (credit discipline) or the
 * pause state per priority (PFC), as the port's transmitter sees them. A port is ON for a VL
 * while it could send there and OFF while blocked (MODEL.md: ON/OFF, observed by TCD).
 */
export class PortFlowState {
  /** Credits held per VL, in 64-byte blocks (credit discipline). */
  readonly credits: Int32Array;
  /** 1 while the priority is paused by the downstream port (PFC). */
  readonly paused: Uint8Array;
  /** Simulated time at which each VL last became blocked, or −1 while it is not blocked. */
  readonly blockedSincePs: Float64Array;
  /** Total time each VL spent blocked (paused or without credits for its head packet), ps. */
  readonly blockedPs: Float64Array;
  /** Number of ON→OFF transitions per VL. */
  readonly offTransitions: Float64Array;

  constructor(
    readonly discipline: FlowControlDiscipline,
    vlCount: number,
    initialCreditBlocks: number,
  ) {
    this.credits = new Int32Array(vlCount);
    this.paused = new Uint8Array(vlCount);
    this.blockedSincePs = new Float64Array(vlCount).fill(-1);
    this.blockedPs = new Float64Array(vlCount);
    this.offTransitions = new Float64Array(vlCount);
    if (discipline === "credit") this.credits.fill(initialCreditBlocks);
  }

  /** True if a packet of `sizeBytes` may start on `vl` now. */
  canSend(vl: number, sizeBytes: number): boolean {
    return this.discipline === "credit"
      ? this.credits[vl]! >= creditBlocks(sizeBytes)
      : this.paused[vl] === 0;
  }

  /** Takes the credits for a packet that starts now (no-op under PFC). */
  consume(vl: number, sizeBytes: number): void {
    if (this.discipline === "credit") this.credits[vl]! -= creditBlocks(sizeBytes);
  }

  /** Marks `vl` blocked from `nowPs` (a packet is ready but flow control holds it). */
  markBlocked(vl: number, nowPs: TimePs): void {
    if (this.blockedSincePs[vl]! < 0) {
      this.blockedSincePs[vl] = nowPs;
      this.offTransitions[vl]!++;
    }
  }

  /** Ends a blocked period of `vl` at `nowPs`, if one is open. */
  markUnblocked(vl: number, nowPs: TimePs): void {
    const since = this.blockedSincePs[vl]!;
    if (since >= 0) {
      this.blockedPs[vl]! += nowPs - since;
      this.blockedSincePs[vl] = -1;
    }
  }

  isBlocked(vl: number): boolean {
    return this.blockedSincePs[vl]! >= 0;
  }
}

/** What the PFC headroom must absorb on one ingress queue. */
export interface HeadroomInputs {
  readonly rateGbps: number;
  readonly latencyNs: number;
  /** Largest packet on the link, header included. */
  readonly maxPacketBytes: number;
  /** Delay from a header's arrival to the switch counting the packet (routing latency), ns. */
  readonly processingNs: number;
  /**
   * Bytes the receiver waits for before it counts a packet: the header under virtual
   * cut-through, the largest packet for a host or a store-and-forward switch.
   */
  readonly cutThroughBytes: number;
}

/**
 * Bytes an ingress queue must still accept after it crosses XOFF. MODEL.md gives
 * `2 × latency × rate + MTU + 64`: the pause frame (64 B) and one propagation delay to reach
 * the upstream port, the packet already in transmission there (MTU), and one propagation
 * delay of bytes already on the wire. This model counts a packet when its header (or, at a
 * host, its tail) has been received and routed, so the bytes the link carries during that
 * delay are added too.
 */
export function pfcHeadroomBytes(inputs: HeadroomInputs): number {
  const bytesPerPs = inputs.rateGbps / 8000;
  const pausePs = serializationPs(PAUSE_FRAME_BYTES, inputs.rateGbps);
  const headerPs =
    inputs.cutThroughBytes > 0 ? serializationPs(inputs.cutThroughBytes, inputs.rateGbps) : 0;
  const exposurePs = 2 * inputs.latencyNs * 1000 + pausePs + headerPs + inputs.processingNs * 1000;
  return Math.ceil(exposurePs * bytesPerPs) + inputs.maxPacketBytes;
}
