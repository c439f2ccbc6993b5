import { type TimePs, usToPs } from "@cclab/core-des";
import {
  DATA_KIND,
  Ecn,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
} from "@cclab/fabric";
import { IntervalFlow, TICK } from "./interval-flow.js";
import type { DcqcnParams } from "./params.js";

/** What the notification point keeps per incoming flow: its check grid and this interval's counts. */
class NpEcnFlow extends IntervalFlow {
  /** Data packets of the flow in the current interval, and those of them with CE. */
  total = 0;
  marked = 0;
  /** The interval the counts are of: k for the one that ends at the tick `firstPs + (k+1)·I`. */
  interval = 0;

  constructor(
    flowId: number,
    firstPs: TimePs,
    private readonly np: NpEcnNp,
  ) {
    super(flowId, firstPs, np.context.scheduler);
  }

  expire(): void {
    this.np.tick(this);
  }
}

/**
 * PCN's NP-ECN notification point (Cheng et al., NSDI 2020) as the TCD authors' ns-3 code runs
 * it for their NP-ECN baseline (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`: `Receive` counts per flow
 * the data packets (`total`) and the marked ones (`qfb`); `CheckandSendQCN` with `EnableNPECN`).
 * A flow's first packet runs the first check within its own arrival, and a check then runs every
 * CNP interval for good. A check sends one CNP when the interval had packets and
 * `qfb ≥ total × fraction` (the reference: `qfb < total * 0.95 ? 0 : 0x03`), and clears both
 * counts whether or not it sends. So a flow with CE on only some of its packets is not slowed
 * down: PCN's reading that a flow is congested only when (almost) all its packets are marked.
 *
 * "Marked" is CE in the ECN field: the reference counts any non-zero ECN bits, but its hosts send
 * 00 and its NP-ECN switches write only 11, where DCQCN's data here leave as 01 (ECT).
 *
 * Checks with no CE in the interval can send nothing, so the timer runs only while a CE waits: the
 * first CE of an interval arms it for the interval's end; an interval without one is cleared
 * lazily by the flow's next packet. A check at the same time as an arrival counts as before it
 * (in the reference it was scheduled an interval earlier, and events at one time run in the
 * order they were scheduled), as the TCD notification point does (tcd-receiver-part.ts).
 */
class NpEcnNp {
  readonly flows = new Map<number, NpEcnFlow>();
  ceReceived = 0;
  cnpSent = 0;
  /** Checks that found CE in the interval but below the fraction: no CNP. */
  cnpWithheld = 0;
  private readonly intervalPs: number;
  private readonly fraction: number;

  constructor(
    readonly context: HostPartContext,
    p: DcqcnParams,
  ) {
    this.intervalPs = usToPs(p.cnpIntervalUs);
    this.fraction = p.npEcnMarkedFraction;
  }

  arrive(packet: PacketId): void {
    const context = this.context;
    const packets = context.packets;
    if (packets.kindCode[packet] !== DATA_KIND) return;
    const marked = packets.ecn[packet] === Ecn.congestion;
    if (marked) this.ceReceived++;
    const flowId = packets.flowId[packet]!;
    const now = context.scheduler.nowPs;
    let f = this.flows.get(flowId);
    const first = f === undefined;
    if (f === undefined) {
      f = new NpEcnFlow(flowId, now, this);
      this.flows.set(flowId, f);
    } else {
      const k = Math.floor((now - f.firstPs) / this.intervalPs);
      if (k !== f.interval) {
        // The check that ended f's interval is due now and not yet run (a CE armed it), or it
        // had no CE to answer and only cleared the counts.
        if (f.marked > 0) {
          f.timers.disarm(TICK);
          this.tick(f);
        }
        f.total = 0;
        f.marked = 0;
        f.interval = k;
      }
    }
    f.total++;
    if (marked) {
      f.marked++;
      f.replyTo(packet, context);
    }
    // The reference's first check runs within the first packet's own arrival.
    if (first) {
      this.tick(f);
      f.interval = 0;
    } else if (marked && f.marked === 1) {
      f.timers.armAt(TICK, f.firstPs + (f.interval + 1) * this.intervalPs);
    }
  }

  // The check at the end of f's interval: a CNP if enough of its packets carried CE.
  tick(f: NpEcnFlow): void {
    if (f.total > 0 && !(f.marked < f.total * this.fraction)) this.sendCnp(f);
    else if (f.marked > 0) this.cnpWithheld++;
    f.total = 0;
    f.marked = 0;
    f.interval++;
  }

  // A plain CNP (no TCD code): the sender cuts as DCQCN does. On the control VL, ahead of data.
  private sendCnp(f: NpEcnFlow): void {
    this.cnpSent++;
    this.context.sendControl(f.makeCnp(this.context));
  }
}

/**
 * The notification point with `npEcnReceiver`: per flow, one CNP per `cnpIntervalUs` on the grid
 * from the flow's first packet, only when at least `npEcnMarkedFraction` of the interval's data
 * packets carried CE.
 */
export function createNpEcnReceiverPart(p: DcqcnParams, context: HostPartContext): ReceiverPart {
  const np = new NpEcnNp(context, p);
  return {
    onArrive: (packet) => np.arrive(packet),
    counters: () => ({
      ceReceived: np.ceReceived,
      cnpSent: np.cnpSent,
      cnpWithheld: np.cnpWithheld,
    }),
  };
}
