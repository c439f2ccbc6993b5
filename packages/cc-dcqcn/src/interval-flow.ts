import { OwnerTimers, type Scheduler, type TimePs, type TimerOwner } from "@cclab/core-des";
import type { HostPartContext, PacketId } from "@cclab/fabric";
import { DCQCN_TIMER_KIND } from "./timers.js";

/** The timer of a flow's CNP interval. */
export const TICK = 0;

/**
 * A flow as the interval-based notification points of the TCD reference code see it
 * (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`, `CheckandSendQCN`): checks on a grid of CNP intervals
 * from the flow's first packet, and where its CNPs go (back to the source of its last marked
 * packet, on the first control VL). Used by the TCD and the NP-ECN notification points.
 */
export abstract class IntervalFlow implements TimerOwner {
  readonly timers: OwnerTimers;
  srcHost = 0;
  sl = 0;
  vl = 0;

  constructor(
    readonly flowId: number,
    /** The flow's first packet arrived here: checks fall on `firstPs + k·interval`. */
    readonly firstPs: TimePs,
    scheduler: Scheduler,
  ) {
    this.timers = new OwnerTimers(scheduler, DCQCN_TIMER_KIND, this);
  }

  /** The check at the end of the current interval. */
  abstract expire(): void;

  /** A CNP for this flow goes back to `packet`'s source. */
  replyTo(packet: PacketId, context: HostPartContext): void {
    const packets = context.packets;
    this.srcHost = packets.srcHost[packet]!;
    this.sl = packets.sl[packet]!;
    this.vl = context.controlVls[0] ?? packets.vl[packet]!;
  }

  /** A CNP of this flow, made now (not sent). */
  makeCnp(context: HostPartContext): PacketId {
    return context.packets.create({
      kind: "cnp",
      sizeBytes: context.controlPacketBytes,
      flowId: this.flowId,
      dstHost: this.srcHost,
      sl: this.sl,
      vl: this.vl,
      createdPs: context.scheduler.nowPs,
    });
  }
}
