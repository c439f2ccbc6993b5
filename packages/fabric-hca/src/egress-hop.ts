import type { TimePs } from "@cclab/core-des";
import { PortFlowState } from "@cclab/fabric";
import type { EgressBuffer } from "./egress-buffer.js";
import type { SendTarget } from "./send-scheduler.js";

/**
 * The hop from a host's queue pairs into its egress FIFOs, as its {@link SendScheduler} sees
 * it (docs/model.md, "Hosts"): in place of the uplink, with the FIFO of each VL as the
 * uplink's VL. Its paused state is the FIFO's XOFF and its credits are the FIFO's room in
 * bytes, so the scheduler's rules (a queue pair sends only if its next packet fits, a decision
 * that found nothing is not repeated until the room grows or a pause ends) apply unchanged,
 * and a host without an egress buffer keeps its scheduler on the uplink, with the same code
 * (docs/model.md, "Performance rules"). The link index the scheduler passes is ignored.
 */
export class EgressHop implements SendTarget {
  /** The FIFOs' room (`credits`, bytes) and XOFF (`paused`) per VL: views of the buffer's. */
  readonly flow: SendTarget["flow"];
  /**
   * The scheduler's ON/OFF marks of the hop: a VL is OFF while a queue pair its gate allows
   * waits for the FIFO (XOFF or no room).
   */
  readonly flowState: PortFlowState;

  constructor(private readonly buffer: EgressBuffer) {
    this.flow = { credits: buffer.roomBytes, paused: buffer.xoff };
    this.flowState = PortFlowState.create("pfc", buffer.vlCount, 0);
  }

  canSend(_link: number, vl: number, sizeBytes: number): boolean {
    return this.buffer.canAccept(vl, sizeBytes);
  }

  markBlocked(_link: number, vl: number, nowPs: TimePs): void {
    this.flowState.markBlocked(vl, nowPs);
  }

  markUnblocked(_link: number, vl: number, nowPs: TimePs): void {
    this.flowState.markUnblocked(vl, nowPs);
  }
}
