import { OwnerTimers, type TimerOwner, usToPs } from "@cclab/core-des";
import {
  DATA_KIND,
  Ecn,
  type HostPartContext,
  NAMED_PACKET_KINDS,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import { createNpEcnReceiverPart } from "./np-ecn-receiver-part.js";
import type { DcqcnParams } from "./params.js";
import { TCD_CODE_COLUMN } from "./tcd-code.js";
import { createTcdReceiverPart } from "./tcd-receiver-part.js";
import { DCQCN_TIMER_KIND } from "./timers.js";

// The ACK's kind code (codes of the named kinds are fixed: NAMED_PACKET_KINDS).
const ACK_KIND = NAMED_PACKET_KINDS.indexOf("ack");

// The timer of a flow's CNP window.
const WINDOW = 0;

/**
 * What the notification point keeps per incoming flow (`paper` variant, spec section 3): when
 * it last sent a CNP, and whether a CE mark arrived since that it has not answered yet.
 */
class NpFlow implements TimerOwner {
  lastCnpPs = Number.NEGATIVE_INFINITY;
  pending = false;
  readonly timers: OwnerTimers;
  /** The CNP to send is built from these (the flow's last marked packet). */
  srcHost = 0;
  sl = 0;
  vl = 0;

  constructor(
    readonly flowId: number,
    private readonly np: Np,
  ) {
    this.timers = new OwnerTimers(np.context.scheduler, DCQCN_TIMER_KIND, this);
  }

  // The window that started at the last CNP has closed: answer the marks it held.
  expire(): void {
    if (this.pending) this.np.sendCnp(this);
  }
}

class Np {
  readonly flows = new Map<number, NpFlow>();
  ceReceived = 0;
  cnpSent = 0;
  acksSent = 0;
  private readonly intervalPs: number;
  /** Per flow (`nic`): data packets since its last ACK. */
  private readonly unacked = new Map<number, number>();

  constructor(
    readonly context: HostPartContext,
    private readonly p: DcqcnParams,
  ) {
    this.intervalPs = usToPs(p.cnpIntervalUs);
  }

  // CNPs and ACKs travel on the first control VL (ahead of data at every switch) when the
  // fabric has one, else on the data packet's VL.
  private controlVl(dataVl: number): number {
    return this.context.controlVls[0] ?? dataVl;
  }

  arrive(packet: PacketId): void {
    const packets = this.context.packets;
    if (packets.kindCode[packet] !== DATA_KIND) return;
    const marked = packets.ecn[packet] === Ecn.congestion;
    if (marked) this.ceReceived++;
    if (this.p.variant === "nic") {
      this.ack(packet, marked);
      return;
    }
    if (!marked) return;
    // Paper (spec section 3): a CNP at once unless one went out within the last interval;
    // then at most one more, when the interval ends, if a mark arrived during it.
    const flowId = packets.flowId[packet]!;
    let f = this.flows.get(flowId);
    if (f === undefined) {
      f = new NpFlow(flowId, this);
      this.flows.set(flowId, f);
    }
    f.srcHost = packets.srcHost[packet]!;
    f.sl = packets.sl[packet]!;
    f.vl = this.controlVl(packets.vl[packet]!);
    const now = this.context.scheduler.nowPs;
    if (now - f.lastCnpPs >= this.intervalPs) this.sendCnp(f);
    else if (!f.pending) {
      f.pending = true;
      f.timers.armAt(WINDOW, f.lastCnpPs + this.intervalPs);
    }
  }

  sendCnp(f: NpFlow): void {
    const context = this.context;
    const now = context.scheduler.nowPs;
    f.lastCnpPs = now;
    f.pending = false;
    const cnp = context.packets.create({
      kind: "cnp",
      sizeBytes: context.controlPacketBytes,
      flowId: f.flowId,
      dstHost: f.srcHost,
      sl: f.sl,
      vl: f.vl,
      createdPs: now,
    });
    context.sendControl(cnp);
    this.cnpSent++;
  }

  // `nic` (spec section 6): an ACK for every `ackEveryPackets`-th data packet of a flow, with the
  // CNP flag (its BECN bit) when that packet carries CE; a mark on a packet that is not ACKed
  // is not reported (the HPCC simulator's ReceiveUdp).
  private ack(packet: PacketId, marked: boolean): void {
    const context = this.context;
    const packets = context.packets;
    const flowId = packets.flowId[packet]!;
    if (this.p.ackEveryPackets > 1) {
      const count = (this.unacked.get(flowId) ?? 0) + 1;
      if (count < this.p.ackEveryPackets) {
        this.unacked.set(flowId, count);
        return;
      }
      this.unacked.set(flowId, 0);
    }
    const ack = packets.replyTo(
      packet,
      ACK_KIND,
      context.controlPacketBytes,
      this.controlVl(packets.vl[packet]!),
      context.scheduler.nowPs,
    );
    if (marked) packets.becn[ack] = 1;
    context.sendControl(ack);
    this.acksSent++;
    if (marked) this.cnpSent++;
  }
}

/**
 * The notification point (spec section 3), on a packet's arrival in the host's receive buffer:
 * `paper` turns CE marks into CNPs, at most one per flow per `cnpIntervalUs`; `nic` ACKs data
 * packets and flags the ACKs of marked ones. CNPs and ACKs go ahead of the host's data. With
 * `tcdReaction`, TCD's notification point instead (tcd-receiver-part.ts); with `npEcnReceiver`,
 * PCN's NP-ECN one (np-ecn-receiver-part.ts).
 */
export function createReceiverPart(p: DcqcnParams, context: HostPartContext): ReceiverPart {
  if (p.tcdReaction) return createTcdReceiverPart(p, context);
  if (p.npEcnReceiver) return createNpEcnReceiverPart(p, context);
  const np = new Np(context, p);
  return {
    onArrive: (packet) => np.arrive(packet),
    counters: () => ({ ceReceived: np.ceReceived, cnpSent: np.cnpSent, acksSent: np.acksSent }),
  };
}

/**
 * The receiver part: with `tcdReaction`, TCD's notification point (tcd-receiver-part.ts), which
 * reads the switch's `tcd.code` column (contract 3.0), so a fabric whose switches do not write
 * it is refused when the network is built. It also looks at the ECN field, but does not need
 * a writer of it (a TCD switch need not declare one). It writes `tcd.code` on its CNPs without
 * declaring it: the composition check counts a host part's writes as the fabric's, so the
 * declaration would satisfy its own read and let a fabric without a TCD switch pass.
 */
export function receiverPartFactory(p: DcqcnParams): ReceiverPartFactory {
  if (p.tcdReaction) {
    return {
      specVersion: "^3.0.0",
      name: "dcqcn receiver (TCD codes → CE/UE CNP)",
      reads: [TCD_CODE_COLUMN],
      create: (context) => createReceiverPart(p, context),
    };
  }
  // NP-ECN's notification point reads the ECN field like the plain one: a fabric whose switches
  // write only FECN (a tcd switch with ceRule infiniband) is refused. It is meant for a tcd
  // switch with ceRule np-ecn; over DCQCN's own RED switch it is PCN's receiver rule alone.
  if (p.npEcnReceiver) {
    return {
      specVersion: 2,
      name: "dcqcn receiver (NP-ECN: CNP when ≥ npEcnMarkedFraction of the interval is CE)",
      reads: ["ecn"],
      create: (context) => createReceiverPart(p, context),
    };
  }
  return {
    specVersion: 2,
    name: "dcqcn receiver (CE → CNP)",
    reads: ["ecn"],
    create: (context) => createReceiverPart(p, context),
  };
}
