import { serializationPs, type TimePs } from "@cclab/core-des";

/** InfiniBand flow-control credits count 64-byte blocks (docs/model.md, "Flow control"). */
export const CREDIT_BLOCK_BYTES = 64;

/** Size of a PFC pause or resume frame on the wire (docs/model.md, "Flow control"). */
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
 * Flow-control state of transmitters as columns indexed by `transmitter * vlCount + vl`
 * (a `LinkSet` keeps its links' this way).
 */
export interface FlowStateColumns {
  /** Credits held, in 64-byte blocks (credit discipline). */
  readonly credits: Int32Array<ArrayBuffer>;
  /** 1 while the priority is paused by the downstream port (PFC). */
  readonly paused: Uint8Array<ArrayBuffer>;
  /** Simulated time at which the VL last became blocked, or −1 while it is not blocked. */
  readonly blockedSincePs: Float64Array<ArrayBuffer>;
  /** Total time the VL spent blocked (paused or without credits for its head packet), ps. */
  readonly blockedPs: Float64Array<ArrayBuffer>;
  /** Number of ON→OFF transitions (blocked periods begun). */
  readonly offTransitions: Float64Array<ArrayBuffer>;
  /** When the last blocked period ended (a packet started again), ps; −Infinity: never. */
  readonly unblockedPs: Float64Array<ArrayBuffer>;
  /** PFC: pauses that took effect (the priority went from running to paused). */
  readonly pauses: Float64Array<ArrayBuffer>;
  /** PFC: when the last resume took effect, ps; −Infinity: never. */
  readonly resumedPs: Float64Array<ArrayBuffer>;
}

/** Empty flow-state columns (a `LinkSet` grows them with its links). */
export function emptyFlowStateColumns(): FlowStateColumns {
  return {
    credits: new Int32Array(0),
    paused: new Uint8Array(0),
    blockedSincePs: new Float64Array(0),
    blockedPs: new Float64Array(0),
    offTransitions: new Float64Array(0),
    unblockedPs: new Float64Array(0),
    pauses: new Float64Array(0),
    resumedPs: new Float64Array(0),
  };
}

// The rules of one transmitter and VL, entry `i` of `columns` (docs/model.md, "Flow control"): what
// `LinkSet` applies to its links and `PortFlowState` to a port, written once.

/** True if a packet of `sizeBytes` may start on entry `i` now. */
export function canSendAt(
  discipline: FlowControlDiscipline,
  columns: FlowStateColumns,
  i: number,
  sizeBytes: number,
): boolean {
  return discipline === "credit"
    ? columns.credits[i]! >= creditBlocks(sizeBytes)
    : columns.paused[i] === 0;
}

/** Takes the credits for a packet that starts now on entry `i` (no-op under PFC). */
export function consumeAt(
  discipline: FlowControlDiscipline,
  columns: FlowStateColumns,
  i: number,
  sizeBytes: number,
): void {
  if (discipline === "credit") columns.credits[i]! -= creditBlocks(sizeBytes);
}

/** Marks entry `i` blocked from `nowPs` (a packet is ready but flow control holds it). */
export function markBlockedAt(columns: FlowStateColumns, i: number, nowPs: TimePs): void {
  if (columns.blockedSincePs[i]! < 0) {
    columns.blockedSincePs[i] = nowPs;
    columns.offTransitions[i]!++;
  }
}

/** Ends a blocked period of entry `i` at `nowPs`, if one is open. */
export function markUnblockedAt(columns: FlowStateColumns, i: number, nowPs: TimePs): void {
  const since = columns.blockedSincePs[i]!;
  if (since >= 0) {
    columns.blockedPs[i]! += nowPs - since;
    columns.blockedSincePs[i] = -1;
    columns.unblockedPs[i] = nowPs;
  }
}

/**
 * A pause (`paused` 1) or resume (0) frame takes effect at entry `i` now (PFC). A pause while
 * paused, or a resume while running, changes nothing (TCD, seed 004: only real transitions
 * start or end an OFF period).
 */
export function setPausedAt(
  columns: FlowStateColumns,
  i: number,
  paused: 0 | 1,
  nowPs: TimePs,
): void {
  if (columns.paused[i] === paused) return;
  columns.paused[i] = paused;
  if (paused === 1) columns.pauses[i]!++;
  else columns.resumedPs[i] = nowPs;
}

/**
 * The sending side of one port's flow control: credits per VL (credit discipline) or the
 * pause state per priority (PFC), as the port's transmitter sees them. A port is ON for a VL
 * while it could send there and OFF while blocked (docs/model.md, "Flow control": ON/OFF, observed by TCD).
 *
 * A view of one transmitter's entries in {@link FlowStateColumns} (a link's, see
 * `LinkSet.flowState`), or standalone. Its per-VL arrays are views of the columns: writes go
 * through to them.
 */
export class PortFlowState {
  private constructor(
    readonly discipline: FlowControlDiscipline,
    private readonly columns: FlowStateColumns,
    private readonly base: number,
    readonly vlCount: number,
  ) {}

  /** A standalone state with `initialCreditBlocks` credits on every VL (credit discipline). */
  static create(
    discipline: FlowControlDiscipline,
    vlCount: number,
    initialCreditBlocks: number,
  ): PortFlowState {
    const columns: FlowStateColumns = {
      credits: new Int32Array(vlCount),
      paused: new Uint8Array(vlCount),
      blockedSincePs: new Float64Array(vlCount).fill(-1),
      blockedPs: new Float64Array(vlCount),
      offTransitions: new Float64Array(vlCount),
      unblockedPs: new Float64Array(vlCount).fill(Number.NEGATIVE_INFINITY),
      pauses: new Float64Array(vlCount),
      resumedPs: new Float64Array(vlCount).fill(Number.NEGATIVE_INFINITY),
    };
    if (discipline === "credit") columns.credits.fill(initialCreditBlocks);
    return new PortFlowState(discipline, columns, 0, vlCount);
  }

  /** The state of the transmitter whose entries start at `base` in `columns`. */
  static view(
    discipline: FlowControlDiscipline,
    columns: FlowStateColumns,
    base: number,
    vlCount: number,
  ): PortFlowState {
    return new PortFlowState(discipline, columns, base, vlCount);
  }

  /** Credits held per VL, in 64-byte blocks (credit discipline). */
  get credits(): Int32Array {
    return this.columns.credits.subarray(this.base, this.base + this.vlCount);
  }

  /** 1 while the priority is paused by the downstream port (PFC). */
  get paused(): Uint8Array {
    return this.columns.paused.subarray(this.base, this.base + this.vlCount);
  }

  /** Simulated time at which each VL last became blocked, or −1 while it is not blocked. */
  get blockedSincePs(): Float64Array {
    return this.columns.blockedSincePs.subarray(this.base, this.base + this.vlCount);
  }

  /** Total time each VL spent blocked (paused or without credits for its head packet), ps. */
  get blockedPs(): Float64Array {
    return this.columns.blockedPs.subarray(this.base, this.base + this.vlCount);
  }

  /** Number of ON→OFF transitions per VL. */
  get offTransitions(): Float64Array {
    return this.columns.offTransitions.subarray(this.base, this.base + this.vlCount);
  }

  /** Credits held on `vl`, in 64-byte blocks (credit discipline). */
  creditsOn(vl: number): number {
    return this.columns.credits[this.base + vl]!;
  }

  /** True while `vl` is paused by the downstream port (PFC). */
  isPaused(vl: number): boolean {
    return this.columns.paused[this.base + vl] === 1;
  }

  /** True if a packet of `sizeBytes` may start on `vl` now. */
  canSend(vl: number, sizeBytes: number): boolean {
    return canSendAt(this.discipline, this.columns, this.base + vl, sizeBytes);
  }

  /** Takes the credits for a packet that starts now (no-op under PFC). */
  consume(vl: number, sizeBytes: number): void {
    consumeAt(this.discipline, this.columns, this.base + vl, sizeBytes);
  }

  /** Marks `vl` blocked from `nowPs` (a packet is ready but flow control holds it). */
  markBlocked(vl: number, nowPs: TimePs): void {
    markBlockedAt(this.columns, this.base + vl, nowPs);
  }

  /** Ends a blocked period of `vl` at `nowPs`, if one is open. */
  markUnblocked(vl: number, nowPs: TimePs): void {
    markUnblockedAt(this.columns, this.base + vl, nowPs);
  }

  isBlocked(vl: number): boolean {
    return this.columns.blockedSincePs[this.base + vl]! >= 0;
  }

  /**
   * When `vl` last went from OFF to ON, ps (−Infinity: never): under PFC when a resume took
   * effect, under credits when a packet started again after its head lacked credits.
   */
  lastOnPs(vl: number): TimePs {
    const i = this.base + vl;
    return this.discipline === "pfc" ? this.columns.resumedPs[i]! : this.columns.unblockedPs[i]!;
  }

  /** OFF periods of `vl` so far: pauses that took effect (PFC), credit starvations (credits). */
  offCount(vl: number): number {
    const i = this.base + vl;
    return this.discipline === "pfc" ? this.columns.pauses[i]! : this.columns.offTransitions[i]!;
  }

  /** A pause (`paused` true) or resume frame takes effect now (PFC; standalone states, tests). */
  setPaused(vl: number, paused: boolean, nowPs: TimePs): void {
    setPausedAt(this.columns, this.base + vl, paused ? 1 : 0, nowPs);
  }

  /** Time `vl` has spent blocked up to `nowPs`, the blocked period open now included, ps. */
  blockedPsUntil(vl: number, nowPs: TimePs): number {
    const i = this.base + vl;
    const since = this.columns.blockedSincePs[i]!;
    return this.columns.blockedPs[i]! + (since >= 0 ? nowPs - since : 0);
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
 * Bytes an ingress queue must still accept after it crosses XOFF. The textbook figure is
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
