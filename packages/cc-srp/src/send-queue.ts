import { OwnerTimers, type TimePs, type TimerOwner } from "@cclab/core-des";
import { type FlowGate, type FlowInfo, IntFifo, type PacketId } from "@cclab/fabric";
import type { SrpSender } from "./sender-part.js";

/** The event kind of every SRP resend timer (one kind for all send queues: `OwnerTimers`). */
export const SRP_TIMER_KIND = "srp: resend at grant";
const RELEASE = 0;

/**
 * One chunk of a message: a reservation of `n` packets (`seq` ≥ 0, the send queue's count of
 * reservations), or `n` packets of a message shorter than n_min that bypass SRP (`seq` −1).
 */
interface Chunk {
  readonly seq: number;
  readonly n: number;
  /** Packets of the chunk started so far (resends not counted). */
  sent: number;
  /** True from the reservation until its grant or a NACK: packets go on the speculative lane. */
  speculating: boolean;
  granted: boolean;
  /** The granted start time t_s, ps. */
  startPs: TimePs;
  /** Speculative packets neither ACKed nor NACKed yet. */
  outstanding: number;
  /**
   * In-order variant: a copy of each outstanding speculative packet, by its number in the
   * flow, kept to be sent at t_s; moved to the held packets at the grant.
   */
  readonly copies: Map<number, PacketId> | undefined;
}

/** A packet waiting for its chunk's start time: NACKed, or (in-order variant) a copy. */
interface Held {
  readonly packet: PacketId;
  readonly seq: number;
  /** Its number in the flow (in-order variant), else 0. */
  readonly psn: number;
  /** When it may go, ps; +Infinity until the chunk's grant. */
  untilPs: TimePs;
  readonly copy: boolean;
}

/**
 * SRP's send queue to one destination (seed 000_23e1115f082a0339.txt, lines 68–84, 102): the
 * flow gate of one queue pair. Each message is cut into chunks of at most n_max packets, each
 * reserved by its own reservation; a message of fewer than n_min packets bypasses SRP and goes
 * on the normal lane at once. A reserved chunk is sent speculatively from its reservation until
 * its grant or a NACK arrives; after a NACK the queue waits for the grant; after the grant it
 * sends the chunk's remaining packets on the normal lane from t_s, and resends NACKed packets
 * (ahead of new data) from t_s. The next chunk's reservation goes out when the last packet of
 * the chunk before it has been sent (line 76). In the in-order variant (line 82) it also
 * resends from t_s every speculative packet then neither ACKed nor NACKed (a copy kept when it
 * was sent), in the flow's order, and the destination discards whichever copy arrives second.
 */
export class SendQueue implements FlowGate, TimerOwner {
  private readonly pending = new IntFifo(4); // chunk sizes: n > 0 reserved, −n bypass
  private current: Chunk | undefined = undefined;
  private readonly open = new Map<number, Chunk>(); // reserved chunks replies may still name
  private nextSeq = 0;
  private vl: number;
  private held: Held[] = [];
  private readonly timers: OwnerTimers;
  /** Data packets sent so far (resends not counted): the next one's number in the flow. */
  private sentPackets = 0;
  speculativeBytes = 0;
  reservedBytes = 0;
  bypassBytes = 0;
  resentBytes = 0;

  constructor(
    private readonly sender: SrpSender,
    readonly flow: FlowInfo,
  ) {
    this.vl = sender.normalVl(flow);
    this.timers = new OwnerTimers(sender.context.scheduler, SRP_TIMER_KIND, this);
  }

  nextSendPs(nowPs: TimePs): TimePs {
    const c = this.current;
    if (c === undefined || !c.granted || c.startPs <= nowPs) return nowPs;
    return c.startPs;
  }

  windowOpen(): boolean {
    const c = this.current;
    return c === undefined || c.speculating || c.granted;
  }

  onMessage(bytes: number): void {
    const { mtuBytes } = this.sender.context;
    const { nMinPackets, nMaxPackets } = this.sender.p;
    const packets = Math.max(1, Math.ceil(bytes / mtuBytes));
    if (packets < nMinPackets) this.pending.push(-packets);
    else
      for (let left = packets; left > 0; left -= nMaxPackets)
        this.pending.push(Math.min(left, nMaxPackets));
    if (this.current === undefined) this.startNext();
  }

  onSent(packet: PacketId): void {
    const c = this.current!;
    const sender = this.sender;
    const packets = sender.context.packets;
    const payload = packets.payloadBytes[packet]!;
    sender.chunk.values[packet] = c.seq;
    const psn = this.sentPackets++;
    if (sender.psn !== undefined) sender.psn.values[packet] = psn + 1;
    if (packets.vl[packet] === sender.speculativeVl) {
      c.outstanding++;
      sender.speculativeSent++;
      this.speculativeBytes += payload;
      c.copies?.set(psn, packets.copy(packet));
    } else if (c.seq >= 0) {
      sender.reservedSent++;
      this.reservedBytes += payload;
    } else {
      sender.bypassSent++;
      this.bypassBytes += payload;
    }
    if (++c.sent < c.n) return;
    this.current = undefined;
    this.forgetIfDone(c);
    this.startNext();
  }

  /** The grant of reservation `seq` arrived with start time `startPs`. */
  granted(seq: number, startPs: TimePs): void {
    const c = this.open.get(seq);
    if (c === undefined || c.granted) return;
    c.granted = true;
    c.speculating = false;
    c.startPs = startPs;
    if (c === this.current) this.moveTo(this.sender.normalVl(this.flow));
    const at = Math.max(this.sender.context.scheduler.nowPs, startPs);
    for (const h of this.held) if (h.seq === seq) h.untilPs = at;
    if (c.copies !== undefined) {
      for (const [psn, packet] of c.copies) {
        this.held.push({ packet, seq, psn, untilPs: at, copy: true });
      }
      c.copies.clear();
    }
    this.releaseDue();
    this.forgetIfDone(c);
  }

  /**
   * A speculative packet of reservation `seq` was delivered (`psn`: its number in the flow, in
   * the in-order variant). Its copy, if still here, is not needed.
   */
  acked(seq: number, psn: number): void {
    const c = this.open.get(seq);
    if (c === undefined) return;
    c.outstanding--;
    if (c.copies !== undefined) this.dropCopy(c, psn);
    this.forgetIfDone(c);
  }

  /**
   * Speculative packet `packet` was dropped: it is resent on the normal lane at its chunk's
   * start time (at once if that has passed), and the queue stops speculating (line 78).
   */
  nacked(packet: PacketId): void {
    const sender = this.sender;
    const packets = sender.context.packets;
    const seq = sender.chunk.values[packet]!;
    packets.vl[packet] = sender.normalVl(this.flow);
    const c = this.open.get(seq);
    const now = sender.context.scheduler.nowPs;
    const psn = sender.psn === undefined ? 0 : sender.psn.values[packet]! - 1;
    if (c?.copies !== undefined && !c.copies.has(psn)) {
      // In-order variant after the grant: its copy is waiting for t_s or has gone; the
      // dropped packet is not needed.
      packets.free(packet);
      sender.copiesCovered++;
    } else {
      if (c?.copies !== undefined) this.dropCopy(c, psn);
      this.held.push({
        packet,
        seq,
        psn,
        untilPs:
          c === undefined || c.granted
            ? Math.max(now, c?.startPs ?? now)
            : Number.POSITIVE_INFINITY,
        copy: false,
      });
    }
    const current = this.current;
    if (current !== undefined && current.seq >= 0 && !current.granted) current.speculating = false;
    if (c !== undefined) {
      c.speculating = false;
      c.outstanding--;
      this.forgetIfDone(c);
    }
    this.releaseDue();
  }

  expire(): void {
    this.releaseDue();
  }

  // Resends every held packet whose time has come, in the flow's order; sets the timer for the
  // next one.
  private releaseDue(): void {
    const now = this.sender.context.scheduler.nowPs;
    let next = Number.POSITIVE_INFINITY;
    let anyDue = false;
    for (const h of this.held) {
      if (h.untilPs <= now) anyDue = true;
      else if (h.untilPs < next) next = h.untilPs;
    }
    // Lists are made only when something goes (grants and timers mostly find nothing due).
    if (anyDue) {
      const due = this.held.filter((h) => h.untilPs <= now);
      this.held = this.held.filter((h) => h.untilPs > now);
      if (due.length > 1) due.sort((a, b) => a.psn - b.psn);
      const packets = this.sender.context.packets;
      for (const h of due) {
        this.resentBytes += packets.payloadBytes[h.packet]!;
        if (h.copy) {
          packets.vl[h.packet] = this.sender.normalVl(this.flow);
          this.sender.sendCopy(h.packet);
        } else this.sender.resend(h.packet);
      }
    }
    if (next === Number.POSITIVE_INFINITY) this.timers.disarm(RELEASE);
    else this.timers.armAt(RELEASE, next);
  }

  // In-order variant: the copy of packet `psn` of chunk `c` is not needed (it was ACKed, or it
  // was dropped and goes again itself); forgets it whether it is kept or already held.
  private dropCopy(c: Chunk, psn: number): void {
    const packets = this.sender.context.packets;
    const copy = c.copies!.get(psn);
    if (copy !== undefined) {
      c.copies!.delete(psn);
      packets.free(copy);
      return;
    }
    const i = this.held.findIndex((h) => h.copy && h.seq === c.seq && h.psn === psn);
    if (i < 0) return;
    packets.free(this.held[i]!.packet);
    this.held.splice(i, 1);
  }

  private startNext(): void {
    if (this.pending.length === 0) return;
    const size = this.pending.shift();
    if (size < 0) {
      this.current = {
        seq: -1,
        n: -size,
        sent: 0,
        speculating: false,
        granted: true,
        startPs: 0,
        outstanding: 0,
        copies: undefined,
      };
      this.moveTo(this.sender.normalVl(this.flow));
      return;
    }
    const c: Chunk = {
      seq: this.nextSeq++,
      n: size,
      sent: 0,
      speculating: true,
      granted: false,
      startPs: 0,
      outstanding: 0,
      copies: this.sender.p.inOrder ? new Map() : undefined,
    };
    this.open.set(c.seq, c);
    this.current = c;
    this.sender.reserve(this.flow, c.seq, size);
    this.moveTo(this.sender.speculativeVl);
  }

  // A reserved chunk is forgotten once nothing can refer to it any more.
  private forgetIfDone(c: Chunk): void {
    if (c.seq >= 0 && c !== this.current && c.granted && c.outstanding === 0)
      this.open.delete(c.seq);
  }

  private moveTo(vl: number): void {
    if (vl === this.vl) return;
    this.vl = vl;
    this.sender.context.setFlowVl(this.flow.flowId, vl);
  }
}
