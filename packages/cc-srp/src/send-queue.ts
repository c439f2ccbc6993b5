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
}

/**
 * SRP's send queue to one destination (seed 000_23e1115f082a0339.txt, lines 68–84, 102): the
 * flow gate of one queue pair. Each message is cut into chunks of at most n_max packets, each
 * reserved by its own reservation; a message of fewer than n_min packets bypasses SRP and goes
 * on the normal lane at once. A reserved chunk is sent speculatively from its reservation until
 * its grant or a NACK arrives; after a NACK the queue waits for the grant; after the grant it
 * sends the chunk's remaining packets on the normal lane from t_s, and resends NACKed packets
 * (ahead of new data) from t_s. The next chunk's reservation goes out when the last packet of
 * the chunk before it has been sent (line 76).
 */
export class SendQueue implements FlowGate, TimerOwner {
  private readonly pending = new IntFifo(4); // chunk sizes: n > 0 reserved, −n bypass
  private current: Chunk | undefined = undefined;
  private readonly open = new Map<number, Chunk>(); // reserved chunks replies may still name
  private nextSeq = 0;
  private vl: number;
  // NACKed packets waiting for their chunk's start time (+Infinity until the grant).
  private readonly heldPackets: PacketId[] = [];
  private readonly heldSeqs: number[] = [];
  private readonly heldUntilPs: TimePs[] = [];
  private readonly timers: OwnerTimers;
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
    if (packets.vl[packet] === sender.speculativeVl) {
      c.outstanding++;
      sender.speculativeSent++;
      this.speculativeBytes += payload;
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
    for (let i = 0; i < this.heldSeqs.length; i++) {
      if (this.heldSeqs[i] === seq) this.heldUntilPs[i] = at;
    }
    this.releaseDue();
    this.forgetIfDone(c);
  }

  /** A speculative packet of reservation `seq` was delivered. */
  acked(seq: number): void {
    const c = this.open.get(seq);
    if (c === undefined) return;
    c.outstanding--;
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
    this.heldPackets.push(packet);
    this.heldSeqs.push(seq);
    this.heldUntilPs.push(
      c === undefined || c.granted ? Math.max(now, c?.startPs ?? now) : Number.POSITIVE_INFINITY,
    );
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

  // Resends every held packet whose time has come; sets the timer for the next one.
  private releaseDue(): void {
    const now = this.sender.context.scheduler.nowPs;
    let next = Number.POSITIVE_INFINITY;
    let kept = 0;
    for (let i = 0; i < this.heldPackets.length; i++) {
      const until = this.heldUntilPs[i]!;
      const packet = this.heldPackets[i]!;
      if (until <= now) {
        this.resentBytes += this.sender.context.packets.payloadBytes[packet]!;
        this.sender.resend(packet);
        continue;
      }
      if (until < next) next = until;
      this.heldPackets[kept] = packet;
      this.heldSeqs[kept] = this.heldSeqs[i]!;
      this.heldUntilPs[kept] = until;
      kept++;
    }
    this.heldPackets.length = kept;
    this.heldSeqs.length = kept;
    this.heldUntilPs.length = kept;
    if (next === Number.POSITIVE_INFINITY) this.timers.disarm(RELEASE);
    else this.timers.armAt(RELEASE, next);
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
