import type { TimePs } from "@cclab/core-des";
import { NO_PACKET } from "@cclab/fabric";
import type { EgressBuffer } from "./egress-buffer.js";
import { UplinkTransmitter, type UplinkTransmitterSetup } from "./uplink-transmitter.js";

/**
 * The uplink transmitter of a host with an egress buffer (docs/model.md, "Hosts"; the adapter
 * of IBM's E2CM slides, seed 003_b214e58ba856b6a6.txt, L309–314): per-destination queue pairs
 * → CC gates (rate limiters) → an egress FIFO per VL with PAUSE at its watermarks → the link.
 *
 * Two things happen independently:
 * - the hop into the FIFOs: a data packet of the queue pair the {@link SendScheduler} picks
 *   (which asks the FIFOs, through `EgressHop`, instead of the uplink) is cut and joins the FIFO
 *   of its VL, one packet per serialization time at the uplink's rate, starts spaced by
 *   `injectionCapGbps` too; its gate hears of it then, and its `injectedPs` is then;
 * - the link: control packets first, then resent data packets (they bypass the FIFOs, as they
 *   bypass the queue pairs; spaced by the cap), then the FIFOs' heads, the VLs taking turns
 *   (round robin from the VL after the one that sent last), each when flow control lets it.
 *
 * A packet may start on the link at the instant it joins its FIFO, so a host whose uplink is
 * never held sends at the same times as without the buffer; the FIFOs fill only while the
 * uplink is paused, short of credits or busy with control packets.
 *
 * A subclass chosen when the host is built: a host without an egress buffer runs
 * {@link UplinkTransmitter}'s code only (docs/model.md, "Performance rules").
 */
export class BufferedUplinkTransmitter extends UplinkTransmitter {
  private readonly buffer: EgressBuffer;
  /** The hop into the FIFOs is free again from this time (it moved a packet before). */
  private hopFreePs: TimePs = 0;
  /** The VL whose FIFO the link looks at first next time. */
  private nextVl = 0;

  constructor(setup: UplinkTransmitterSetup, buffer: EgressBuffer) {
    super(setup);
    this.buffer = buffer;
  }

  /** Starts the next packet on the link if one may go now, and moves one into the FIFOs. */
  override trySend(): void {
    const now = this.scheduler.nowPs;
    if (!this.transmitting) this.startOnLink(now);
    this.moveIn(now);
  }

  // The link: control packets, resends, then the FIFOs' heads.
  private startOnLink(now: TimePs): void {
    const links = this.links;
    const packets = this.packets;
    const up = this.up;
    const control = this.control.peek();
    if (
      control !== NO_PACKET &&
      links.canSend(up, packets.vl[control]!, packets.sizeBytes[control]!)
    ) {
      this.control.shift();
      this.transmit(control);
      return;
    }
    const resend = this.resends.peek();
    if (resend !== NO_PACKET) {
      if (this.nextStartPs > now) this.wakeAt(this.nextStartPs);
      else if (links.canSend(up, packets.vl[resend]!, packets.sizeBytes[resend]!)) {
        this.resends.shift();
        packets.injectedPs[resend] = now;
        this.packetsResent++;
        this.transmit(resend);
        this.spaceNextStart(now, packets.sizeBytes[resend]!);
        return;
      }
    }
    if (this.buffer.packetCount !== 0) this.startFromFifos(now);
  }

  // The head of the first FIFO, from `nextVl` on, that flow control lets start. A head it holds
  // marks its VL blocked (as a queue pair does on a host without the buffer, docs/model.md,
  // "Flow control": ON and OFF); the one that starts unblocks its VL.
  private startFromFifos(now: TimePs): void {
    const buffer = this.buffer;
    const links = this.links;
    const up = this.up;
    const vlCount = buffer.vlCount;
    let busy = buffer.busyVls;
    let vl = this.nextVl;
    for (let k = 0; k < vlCount && busy !== 0; k++, vl = vl + 1 === vlCount ? 0 : vl + 1) {
      const head = buffer.head(vl);
      if (head === NO_PACKET) continue;
      busy--;
      if (!links.canSend(up, vl, this.packets.sizeBytes[head]!)) {
        links.markBlocked(up, vl, now);
        continue;
      }
      links.markUnblocked(up, vl, now);
      buffer.shift(vl, now);
      this.nextVl = vl + 1 === vlCount ? 0 : vl + 1;
      this.transmit(head);
      return;
    }
  }

  // The hop into the FIFOs: the next packet of the queue pair the scheduler picks joins the FIFO
  // of its VL, and starts on the link at once if the link is idle and lets it.
  private moveIn(now: TimePs): void {
    const sending = this.sending;
    const freePs = Math.max(this.hopFreePs, this.nextStartPs);
    if (freePs > now) {
      if (sending.hasWaiting()) this.wakeAt(freePs);
      return;
    }
    const qp = sending.pick(now);
    if (qp === undefined) {
      this.wakeAt(sending.parkedFirstPs); // no-op while none is parked (+Infinity)
      return;
    }
    const payload = qp.nextPayloadBytes(this.config.mtuBytes);
    const size = payload + this.config.headerBytes;
    const packet = this.dataPacket(qp, payload, size);
    sending.sent(qp);
    this.buffer.push(packet, now);
    this.spaceNextStart(now, size);
    this.hopFreePs = now + this.links.serPs(this.up, size);
    if (sending.hasWaiting()) this.wakeAt(Math.max(this.hopFreePs, this.nextStartPs));
    if (!this.transmitting) this.startOnLink(now);
    // The gate hears of the packet once it is in the FIFO: a gate that asks the host to send
    // again here finds the hop busy.
    qp.gate?.onSent?.(packet);
  }
}
