import type { RngStream, Scheduler, TimePs } from "@cclab/core-des";
import type { PartDeclarations } from "./declarations.js";
import type { PacketId, Packets } from "./packet.js";
import type { InputQueueSet, QueueingPart, QueueSetContext } from "./queueing.js";
import type { QueueValueLabels } from "./value-labels.js";
import type { SpecVersionRange } from "./version.js";

/**
 * Every part states the contract versions it supports (`specVersion`, see version.ts); the
 * network rejects a part whose range holds no version it implements, instead of running it
 * wrongly.
 */
export {
  assertSpecVersion,
  SPEC_VERSION,
  type SpecVersion,
  type SpecVersionRange,
} from "./version.js";

/** Read-only view of one switch or host port, for schemes that detect congestion. */
export interface PortView {
  readonly vlCount: number;
  /** Bytes buffered at this port's input for `vl`. */
  inputBytes(vl: number): number;
  /** Credits (64-byte blocks) this port's transmitter holds for `vl` (credit discipline). */
  credits(vl: number): number;
  /** True while the downstream port has paused `vl` (PFC). */
  isPaused(vl: number): boolean;
  /** True while the transmitter is sending a packet. */
  isTransmitting(): boolean;
  /** True while a packet for `vl` is ready here but flow control holds it (the OFF state). */
  isBlocked(vl: number): boolean;
  /**
   * When `vl` last went from OFF to ON, ps (−Infinity: never). Under PFC, when a resume took
   * effect at this port's transmitter; under credits, when the transmitter started a packet on
   * `vl` again after a time without credits for its head packet (docs/model.md, "Flow
   * control"). Since contract 3.0.
   */
  lastOnPs(vl: number): TimePs;
  /**
   * OFF periods of `vl` so far: under PFC the pauses that took effect (a pause while paused
   * does not count), under credits the times a head packet found too few credits. Since 3.0.
   */
  offCount(vl: number): number;
}

/**
 * What a part reports for the results (all optional): counters summed over every device into
 * the run summary, and per-flow variables (e.g. a sender's rate) sampled at each bin of the
 * `cc` series. Reading them must not change the part's state.
 */
export interface CcObservable {
  /** Event counts so far, by name (e.g. `fecnMarked`). */
  counters?(): Readonly<Record<string, number>>;
  /** Calls `visit` once per flow and variable with its current value. */
  sampleFlows?(visit: (flowId: number, variable: string, value: number) => void): void;
}

/** Services every part receives. */
export interface PartServices {
  readonly scheduler: Scheduler;
  /**
   * The network's packets: hooks receive packet ids and read or mark fields here
   * (`packets.fecn[p] = 1`); control packets are made with `packets.create({...})`. A packet
   * may be read during the call that hands it over only (ids are reused once delivered).
   */
  readonly packets: Packets;
  /**
   * The VLs switches serve ahead of data with strict priority (the lanes a switch part asked
   * for with `extraVls` among them, in order), or none: where a scheme's control packets
   * (CNPs, ACKs) can travel without waiting behind data.
   */
  readonly controlVls: readonly number[];
  /** A random stream of the part's own, named after the device it runs on. */
  readonly rng: RngStream;
  /**
   * The VL of each lane the part declared (`lanes` of its factory), by lane name. Lanes of the
   * same name are one lane, shared by every part that declares it. Since 3.0.
   */
  readonly lanes: Readonly<Record<string, number>>;
  /** VLs served only when no normal data VL has a packet that may go (low-priority lanes). */
  readonly lowPriorityVls: readonly number[];
}

// --- switch part (congestion point) ---------------------------------------------------------

export interface SwitchPartContext extends PartServices {
  readonly switchIndex: number;
  readonly portCount: number;
  port(index: number): PortView;
  /** Input buffer per VL at `port`, bytes (the shared memory's size in the shared model). */
  inputBufferBytes(port: number): number;
  /** True when `port` is cabled to a host (e.g. for InfiniBand's Victim_Mask). */
  facesHost(port: number): boolean;
  /**
   * Sends a control packet (e.g. a BCN frame or a NACK back toward a source), routed by
   * its `dstHost` like any packet and queued ahead of data on its output port.
   */
  sendControl(packet: PacketId): void;
  /**
   * Sends a link-local control packet out of `port`, ahead of data: it goes to the device at
   * the other end of that one link (a switch's parts' or a host's sender part's
   * `onLinkControl`), never routed by destination (its `dstHost` becomes {@link LINK_LOCAL}).
   * CCFIT's and EcoCC's allocate/stop/go/deallocate messages. Since 3.0.
   */
  sendOnPort(port: number, packet: PacketId): void;
  /**
   * Makes the switch arbitrate for `outPort` again now: after a queue the part holds back
   * (a Stop) may send again (a Go). Since 3.0.
   */
  wake(outPort: number): void;
}

/** `dstHost` of a link-local control packet (see {@link SwitchPartContext.sendOnPort}). */
export const LINK_LOCAL = -1;

/** `inPort` of {@link SwitchPart.onTransmit} for the switch's own control packets. */
export const FROM_SWITCH_CONTROL = -1;
/** `inPort` of {@link SwitchPart.onTransmit} for a packet leaving an output buffer. */
export const FROM_OUTPUT_BUFFER = -2;

/** Hooks a switch calls; a missing hook is never called and costs nothing. */
export interface SwitchPart extends CcObservable {
  /** A packet was buffered at `inPort` (may mark FECN/ECN from queue state). */
  onEnqueue?(packet: PacketId, inPort: number): void;
  /**
   * The arbiter considers a queue head for `outPort` (called each time it does). Return true
   * to drop it: only for packets the scheme allows to be dropped (SRP's speculative packets
   * past their time-to-wait). The switch frees its buffer and returns its credits; the part
   * reports the drop itself (a NACK through `sendControl`, which the switch serves after the
   * call, at the same time) so the source can resend it. The
   * packet id stays allocated: the scheme owns it from then on, and must have it resent (the
   * source's `resend`) or return it (`packets.free`), or the id is never reused.
   * `hasRoom` (contract 3.5) tells whether the head has room past the crossbar now (space in
   * its output buffer, or credits and no pause on the output link): a scheme that drops only
   * packets still waiting for their output (as the SRP authors' routers do) reads it.
   */
  dropAtHead?(packet: PacketId, inPort: number, hasRoom: boolean): boolean;
  /**
   * A packet left its input queue at `inPort`: granted by the crossbar (it then starts on the
   * link, or crosses into the output buffer when the switch has them) or dropped at the head.
   */
  onDequeue?(packet: PacketId, inPort: number): void;
  /**
   * A packet starts leaving through `outPort` (may mark at transmit). `inPort` is the input
   * it came from, {@link FROM_SWITCH_CONTROL} for the switch's own control packets,
   * {@link FROM_OUTPUT_BUFFER} from an output buffer.
   */
  onTransmit?(packet: PacketId, inPort: number, outPort: number): void;
  /**
   * A link-local control packet from the device at the other end of `inPort` arrived (see
   * {@link SwitchPartContext.sendOnPort}). The switch returns its buffer at once and frees it
   * after the call. Since 3.0.
   */
  onLinkControl?(packet: PacketId, inPort: number): void;
  /**
   * Builds the queues of one input port and VL of this switch, instead of the switch's
   * configured queueing (EcoCC, CCFIT: hot-flow queues whose state the part shares); return
   * `undefined` for the configured queueing on that (port, VL). Called after the part is made,
   * once per input port and VL. Since 3.0.
   */
  createQueueSet?(context: QueueSetContext): InputQueueSet | undefined;
  /**
   * Calls `visit` once per egress queue (output port and VL) and variable the part keeps, with
   * its current value (TCD: each queue's state and marks): what `sampleFlows` is per flow, per
   * queue. A runner calls it at each bin edge of its `cc-queues` series, and only when that
   * series is asked for; reading must not change the part's state. A part may report only the
   * queues it has something to say about. Since 3.3. The factory may name the values of an
   * integer variable ({@link SwitchPartFactory.queueValueLabels}, 3.4).
   */
  sampleQueues?(
    visit: (outPort: number, vl: number, variable: string, value: number) => void,
  ): void;
}

export interface SwitchPartFactory extends PartDeclarations {
  readonly specVersion: SpecVersionRange;
  readonly name: string;
  /**
   * Control lanes of the part's own beyond the data lanes (contract 2; a 3.0 part may declare
   * named `lanes` instead).
   */
  readonly extraVls?: number;
  /**
   * Names of the integer values of the variables the part reports through `sampleQueues`, by
   * variable then value (TCD: `{ state: { 0: "NC: non-congestion", …, 3: "C: congestion" } }`),
   * so a runner can write them beside its `cc-queues` series and a figure can name its axis
   * ticks. A declaration, on the factory like `lanes`, `writes` and `reads`: the names are fixed
   * once the part's parameters are, known before any switch makes its part, and read without
   * one. Variables without an entry are plain numbers; a value without a name shows as its
   * number. Since 3.4.
   */
  readonly queueValueLabels?: QueueValueLabels;
  create(context: SwitchPartContext): SwitchPart;
}

// --- receiver part (notification point) -----------------------------------------------------

export interface HostPartContext extends PartServices {
  readonly hostIndex: number;
  readonly hostCount: number;
  /** The host's own uplink port. */
  readonly port: PortView;
  /** Rate of the host's uplink, Gb/s (e.g. to space packets by a delay after each one). */
  readonly uplinkRateGbps: number;
  /** Size to give control packets (ACK, CNP, ...) this host sends, bytes (host configuration). */
  readonly controlPacketBytes: number;
  /**
   * Largest payload of one data packet, bytes (host configuration): a message of `b` bytes is
   * `ceil(b / mtuBytes)` packets (SRP reserves a message's packets before the first one leaves).
   * Since 3.1.
   */
  readonly mtuBytes: number;
  /** Header bytes each data packet adds to its payload on the wire (host configuration). Since 3.1. */
  readonly dataHeaderBytes: number;
  /** Sends a control packet from this host, ahead of its data. */
  sendControl(packet: PacketId): void;
  /**
   * Tells the host that a flow gate may now allow sending earlier than it said when last
   * asked (e.g. a timer raised a rate); the host asks its gates again at once. Without this a
   * gate that said "not before t" is asked again at t.
   */
  gatesChanged(): void;
  /**
   * Sends a data packet of this host again (one a switch part dropped and reported), ahead of
   * new data; the receiver then sees it once.
   */
  resend(packet: PacketId): void;
  /**
   * Puts flow `flowId`'s next packets on `vl` (SRP: a speculative lane, then the normal one).
   * The flow's own VL is its SL's. Since 3.0.
   */
  setFlowVl(flowId: number, vl: number): void;
  /**
   * Sends a link-local control packet to the switch at the other end of the host's link (its
   * parts' `onLinkControl`), ahead of data. Since 3.0.
   */
  sendLinkControl(packet: PacketId): void;
}

export interface ReceiverPart extends CcObservable {
  /**
   * A packet (data or control) has reached this host's receive buffer, before the host's
   * receive service: where a notification meant to be sent "as fast as possible" starts.
   */
  onArrive?(packet: PacketId): void;
  /** A data packet has been delivered to this host (after the receive service). */
  onData?(packet: PacketId): void;
  /**
   * A data packet has been received (after the receive service), before it is counted: return
   * true to discard it as a copy of one already delivered (SRP's in-order variant sends a
   * packet again while the first may still arrive, seed 000 line 82). The host returns its
   * credits and frees it; it is not delivered (no `onData`, no message completion, no
   * throughput or latency). Since 3.2.
   */
  discard?(packet: PacketId): boolean;
}

export interface ReceiverPartFactory extends PartDeclarations {
  readonly specVersion: SpecVersionRange;
  readonly name: string;
  create(context: HostPartContext): ReceiverPart;
}

// --- sender part (reaction point) -----------------------------------------------------------

/** The queue pair a flow gate controls. */
export interface FlowInfo {
  readonly flowId: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly sl: number;
}

/**
 * Per-flow sending permission. The host asks before each data packet of the flow and tells
 * the gate what it sent; a gate that returns a time later than now is asked again then.
 * Asking changes nothing: a host may ask a gate several times in one send decision, or not at
 * all for a flow it does not pick (oldest-first injection asks the oldest flow's gate first),
 * so `nextSendPs` and `windowOpen` must answer from the gate's state without changing it.
 */
export interface FlowGate {
  /** Earliest time the flow may start its next packet (≤ now: it may send now). */
  nextSendPs(nowPs: TimePs): TimePs;
  /** Optional window: false holds the flow until a control packet reopens it. */
  windowOpen?(): boolean;
  /**
   * The flow started sending `packet` now. The gate may still write the packet's header fields
   * and scheme columns here (it is on the link, but nothing downstream has read it yet).
   */
  onSent?(packet: PacketId): void;
  /**
   * A message of `bytes` payload bytes joined the flow's queue (SRP reserves its packets before
   * the first one leaves). Called when it arrives, before any of its packets is asked for.
   * Since 3.0.
   */
  onMessage?(bytes: number, messageId: number): void;
}

export interface SenderPart extends CcObservable {
  openFlow(flow: FlowInfo): FlowGate;
  /** A control packet for this host arrived (CNP, BECN, ACK, grant ...). */
  onControl?(packet: PacketId): void;
  /**
   * A link-local control packet from the switch at the other end of the host's link arrived
   * (EcoCC, CCFIT: stop or restart a hot injection queue). Since 3.0.
   */
  onLinkControl?(packet: PacketId): void;
}

export interface SenderPartFactory extends PartDeclarations {
  readonly specVersion: SpecVersionRange;
  readonly name: string;
  create(context: HostPartContext): SenderPart;
}

/**
 * A congestion-control scheme: any subset of the four parts. Parts of different schemes can
 * be combined (a detector from one, a reaction from another) by building a scheme from them.
 */
export interface CcScheme {
  readonly specVersion: SpecVersionRange;
  readonly name: string;
  readonly switchPart?: SwitchPartFactory;
  readonly queueingPart?: QueueingPart;
  readonly receiverPart?: ReceiverPartFactory;
  readonly senderPart?: SenderPartFactory;
}
