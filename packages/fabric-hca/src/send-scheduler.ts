import type { TimePs } from "@cclab/core-des";
import type { FlowStateColumns, PortFlowState } from "@cclab/fabric";
import { ParkedHeap } from "./parked-heap.js";
import type { QueuePair } from "./queue-pair.js";
import { Rotation } from "./rotation.js";

// What a send decision makes of one queue pair (`SendScheduler.consider`). An enum, which
// bundling writes as literals, where module `const`s become `var`s that V8 loads at every use
// (see core-des scheduler.ts).
enum Verdict {
  Send = 0,
  Skip = 1,
  Park = 2,
}

// The fields of a VL's record in `SendScheduler.perVl`.
enum PerVl {
  /** The smallest packet size the uplink refused in the current send decision. */
  RefusedBytes = 0,
  /** The uplink's credits and pause state at the last send decision that found nothing. */
  RefusedCredits = 1,
  RefusedPaused = 2,
  /** Queue pairs in the rotation, and those of them whose next packet is short. */
  RotationCount = 3,
  RotationShort = 4,
  Stride = 8,
}

/**
 * Where the send scheduler sends: the uplink (the network's `LinkSet`, asked by link index), or,
 * for a host with an egress buffer, the hop into its egress FIFOs (`EgressHop`, which ignores
 * the index). What it reads of it: room per VL, credits and pause state, and the ON/OFF marks.
 */
export interface SendTarget {
  readonly flow: Pick<FlowStateColumns, "credits" | "paused">;
  canSend(link: number, vl: number, sizeBytes: number): boolean;
  markBlocked(link: number, vl: number, nowPs: TimePs): void;
  markUnblocked(link: number, vl: number, nowPs: TimePs): void;
}

/** What a host's send scheduler is built for. */
export interface SendSchedulerSetup {
  readonly vlCount: number;
  /** Largest payload per packet, and the header added to it, bytes. */
  readonly mtuBytes: number;
  readonly headerBytes: number;
  /** `oldest-first` injection (else round-robin, see `HcaConfig.injectionOrder`). */
  readonly oldestFirst: boolean;
  /**
   * The network's links, whose uplink's room is asked here (see {@link SendScheduler.attach}),
   * or a host's hop into its egress FIFOs.
   */
  readonly links: SendTarget;
  /**
   * Low-priority lanes: a queue pair on one of them sends only when none on another lane may
   * (round-robin order only; SRP's speculative lane, seed 000_23e1115f082a0339.txt, line 195).
   */
  readonly lowPriorityVls?: readonly number[];
}

/**
 * Which queue pair of a host sends its next data packet (docs/model.md, "Hosts"): one that has
 * data, that its CC gate allows now and that has room on the uplink (credits, or not paused),
 * round-robin or oldest head first. It asks the gates and the uplink; the host builds and
 * transmits the packet, then tells it ({@link sent}).
 *
 * A host of a 648-node fabric has hundreds of queue pairs, most of them throttled or blocked
 * at a time: the scheduler parks those a gate holds back until their time, and does not
 * repeat a decision that found nothing while nothing it depended on has changed.
 */
export class SendScheduler {
  /**
   * When the first parked queue pair may go (+Infinity when none is parked), kept by `park` and
   * `unparkFirst`, the only ways in and out of `parked`. Every send decision compares it with
   * the clock: reading it from the heap's first queue pair took 1.6 % of the 648-node silent
   * forest's first 60 ms (CPU profile; two dependent cache misses), from the heap's arrays about
   * half that.
   */
  parkedFirstPs: TimePs = Number.POSITIVE_INFINITY;
  /**
   * Queue pairs with data whose gate allowed them when last asked (or that an oldest-first
   * decision did not ask, see `gatesUnasked`), in round-robin order.
   */
  private readonly active = new Rotation<QueuePair>(8);
  /**
   * Queue pairs with data held by their gate, until the time it gave. They rejoin the back of
   * the rotation when their time comes, so a send decision looks at the queue pairs that may
   * send, not at every throttled one.
   */
  private readonly parked = new ParkedHeap<QueuePair>(8);
  /**
   * Per VL, one record at `vl * PerVl.Stride` (see PerVl): the send decision's state. One
   * array, not one per field: a host is visited rarely (uniform256: 256 hosts), so each small
   * array cost its own cache misses per packet.
   */
  private readonly perVl: Float64Array;
  /**
   * A send decision that found nothing to send is not repeated while nothing it depended on
   * has changed: the queue pairs in the rotation and their heads (`rotationVersion`) and the
   * uplink's room, which may only have shrunk (credits no more, pauses no fewer). Without this
   * every credit return to a blocked host scanned all its queue pairs.
   */
  private rotationVersion = 0;
  private refusedVersion = -1;
  /**
   * True when an oldest-first decision sent without asking the other queue pairs' gates: some
   * in the rotation may be held by their gate, which a full scan would have parked. The rotation
   * counts per VL then overstate what waits for room on the uplink (see `noRoomForAny`).
   */
  private gatesUnasked = false;
  /** Where in the rotation the queue pair {@link pick} chose is. */
  private pickedAt = -1;
  private readonly vlCount: number;
  private readonly mtuBytes: number;
  private readonly headerBytes: number;
  private readonly oldestFirst: boolean;
  private readonly links: SendTarget;
  /** Per VL, 1 for a low-priority lane; undefined when the host has none. */
  private readonly lowPriority: Uint8Array | undefined;
  /** The uplink's index in `links` and its transmitter's flow state (after {@link attach}). */
  private up = -1;
  private uplinkFlow!: PortFlowState;

  constructor(setup: SendSchedulerSetup) {
    this.vlCount = setup.vlCount;
    this.mtuBytes = setup.mtuBytes;
    this.headerBytes = setup.headerBytes;
    this.oldestFirst = setup.oldestFirst;
    this.links = setup.links;
    this.perVl = new Float64Array(setup.vlCount * PerVl.Stride);
    const low = setup.lowPriorityVls ?? [];
    this.lowPriority = low.length === 0 ? undefined : new Uint8Array(setup.vlCount);
    for (const vl of low) this.lowPriority![vl] = 1;
  }

  /** Sends on link `upIndex` of `links`, whose transmitter's flow state is `uplinkFlow`. */
  attach(upIndex: number, uplinkFlow: PortFlowState): void {
    this.up = upIndex;
    this.uplinkFlow = uplinkFlow;
  }

  /** True while some queue pair has data (in the rotation or parked). */
  hasWaiting(): boolean {
    return this.active.length !== 0 || this.parked.length !== 0;
  }

  /** `qp` has data again (it was not active): it joins the back of the rotation. */
  activate(qp: QueuePair): void {
    qp.active = true;
    qp.shortHead = qp.nextPayloadBytes(this.mtuBytes) < this.mtuBytes;
    this.join(qp);
  }

  /** Every parked queue pair rejoins the rotation, in time order, to be asked again. */
  unparkAll(): void {
    while (this.parked.length !== 0) this.join(this.unparkFirst());
  }

  /**
   * Some gate may answer differently now (a control packet opened a window or moved a rate):
   * the next decision is made afresh.
   */
  gatesMoved(): void {
    this.rotationVersion++;
  }

  /**
   * The queue pair that sends the next data packet now, or undefined when none may (then the
   * caller wakes at {@link parkedFirstPs}). The caller makes the packet from it at once and
   * calls {@link sent}.
   */
  pick(now: TimePs): QueuePair | undefined {
    // Parked queue pairs whose time has come rejoin the rotation, in time order.
    while (this.parkedFirstPs <= now) {
      this.join(this.unparkFirst());
    }
    if (
      (this.refusedVersion === this.rotationVersion && this.roomNotGrown()) ||
      this.noRoomForAny(now)
    ) {
      return undefined;
    }
    const perVl = this.perVl;
    const v = this.vlCount;
    for (let vl = 0; vl < v; vl++) {
      perVl[vl * PerVl.Stride + PerVl.RefusedBytes] = Number.POSITIVE_INFINITY;
    }
    const qp = this.oldestFirst
      ? this.pickOldest(now)
      : this.lowPriority === undefined
        ? this.pickRoundRobin(now)
        : this.pickByPriority(now, this.lowPriority);
    if (qp !== undefined) return qp;
    this.refusedVersion = this.rotationVersion;
    const { credits, paused } = this.links.flow;
    const up = this.up;
    for (let vl = 0; vl < v; vl++) {
      perVl[vl * PerVl.Stride + PerVl.RefusedCredits] = credits[up * v + vl]!;
      perVl[vl * PerVl.Stride + PerVl.RefusedPaused] = paused[up * v + vl]!;
    }
    return undefined;
  }

  /**
   * The caller has made the next packet of `qp`, the queue pair {@link pick} just returned
   * (`qp.advance` done): `qp` moves on in the rotation, or leaves it if it has no more data.
   */
  sent(qp: QueuePair): void {
    const index = this.pickedAt;
    this.leave(qp);
    if (qp.queuedBytes === 0) {
      this.active.removeAt(index);
      qp.active = false;
    } else {
      const vl = qp.vl;
      this.active.headChangedAt(index);
      qp.shortHead = qp.nextPayloadBytes(this.mtuBytes) < this.mtuBytes;
      this.perVl[vl * PerVl.Stride + PerVl.RotationCount]!++;
      if (qp.shortHead) this.perVl[vl * PerVl.Stride + PerVl.RotationShort]!++;
    }
    this.rotationVersion++; // a queue pair's head moved on
  }

  /**
   * Puts `qp`'s next packets on `vl`, moving it between the VLs' rotation counts if it is in
   * the rotation (a parked queue pair is counted when it rejoins). Not during a decision.
   */
  setVl(qp: QueuePair, vl: number): void {
    if (qp.vl === vl) return;
    if (qp.active && this.active.indexOf(qp) >= 0) {
      this.leave(qp);
      qp.vl = vl;
      this.perVl[vl * PerVl.Stride + PerVl.RotationCount]!++;
      if (qp.shortHead) this.perVl[vl * PerVl.Stride + PerVl.RotationShort]!++;
    } else {
      qp.vl = vl;
    }
    this.rotationVersion++;
  }

  /** Queue pairs in the rotation on `vl`, and those of them whose next packet is short. */
  rotationCountOn(vl: number): number {
    return this.perVl[vl * PerVl.Stride + PerVl.RotationCount]!;
  }

  shortCountOn(vl: number): number {
    return this.perVl[vl * PerVl.Stride + PerVl.RotationShort]!;
  }

  /** The queue pairs in the rotation, front first (for tests and checks). */
  rotationMembers(): QueuePair[] {
    const members: QueuePair[] = [];
    for (let k = 0; k < this.active.length; k++) members.push(this.active.at(k)!);
    return members;
  }

  /** Queue pairs parked until their gate allows them. */
  get parkedCount(): number {
    return this.parked.length;
  }

  // Round robin: the first queue pair in the rotation that may send does, and goes to the back.
  private pickRoundRobin(now: TimePs): QueuePair | undefined {
    const active = this.active;
    const count = active.length;
    for (let k = 0; k < count; k++) {
      const qp = active.shift()!;
      active.push(qp);
      const verdict = this.consider(qp, now);
      if (verdict === Verdict.Park) active.removeAt(active.length - 1);
      else if (verdict === Verdict.Send) {
        this.pickedAt = active.length - 1;
        return qp;
      }
    }
    return undefined;
  }

  // Round robin in two passes: the first queue pair on a normal lane that may send does; only
  // if none may, the first on a low-priority lane. The one that sends goes to the back; those
  // passed over keep their places.
  private pickByPriority(now: TimePs, low: Uint8Array): QueuePair | undefined {
    const active = this.active;
    for (let pass = 0; pass < 2; pass++) {
      for (let k = 0; k < active.length; ) {
        const qp = active.at(k)!;
        if (low[qp.vl] !== pass) {
          k++;
          continue;
        }
        const verdict = this.consider(qp, now);
        if (verdict === Verdict.Park) {
          active.removeAt(k);
          continue;
        }
        if (verdict === Verdict.Send) {
          active.removeAt(k);
          active.push(qp);
          this.pickedAt = active.length - 1;
          return qp;
        }
        k++;
      }
    }
    return undefined;
  }

  // Oldest first: of the queue pairs that may send, the one whose head message arrived first.
  // The oldest head is asked alone first: it usually may send, and then the decision is made
  // without reading any other queue pair's gate, which lives in the CC part's memory (648-node
  // silent forest: 390 ns per gate asked, 6.4 queue pairs per decision, 10 % of the run). If
  // it may not, the full scan below asks every queue pair in rotation order; it picks the same
  // one, since a gate's answer does not depend on when it is asked within the decision. Queue
  // pairs not asked stay in the rotation instead of being parked until the next full scan, or
  // until `noRoomForAny` needs to know: the same packets leave at the same times, with a few
  // more wake-up events (0.07 % more events in the silent forest).
  private pickOldest(now: TimePs): QueuePair | undefined {
    const active = this.active;
    const count = active.length;
    if (count === 0) return undefined;
    const oldest = active.oldest();
    const oldestQp = active.at(oldest)!;
    const verdict = this.consider(oldestQp, now);
    if (verdict === Verdict.Send) {
      if (count > 1) this.gatesUnasked = true;
      this.pickedAt = oldest;
      return oldestQp;
    }
    if (verdict === Verdict.Park) active.removeAt(oldest);
    let best: QueuePair | undefined;
    let bestIndex = -1;
    for (let k = 0; k < active.length; ) {
      const qp = active.at(k)!;
      const verdict = this.consider(qp, now);
      if (verdict === Verdict.Park) {
        active.removeAt(k);
        continue;
      }
      if (verdict === Verdict.Send && (best === undefined || active.before(k, bestIndex))) {
        best = qp;
        bestIndex = k;
      }
      k++;
    }
    this.gatesUnasked = false;
    this.pickedAt = bestIndex;
    return best;
  }

  // Parks the queue pairs of the rotation on `vl` that their gate holds back now, as a full
  // scan would have, until one that it does not (usually the first: one gate asked); returns
  // whether there is one. Parking schedules the wake-up at the time their gate allows them.
  private parkHeldBackOn(vl: number, now: TimePs): boolean {
    const active = this.active;
    for (let k = 0; k < active.length; ) {
      const qp = active.at(k)!;
      if (qp.vl === vl) {
        if (this.askGate(qp, now) !== Verdict.Park) return true;
        active.removeAt(k);
        continue;
      }
      k++;
    }
    return false;
  }

  // What the send decision makes of `qp` now: SEND (its gate and the uplink allow its next
  // packet), SKIP (its window is closed, or the uplink has no room for the packet), or PARK (its
  // gate allows it later: it leaves the rotation until then; the caller takes it out of
  // `active`).
  private consider(qp: QueuePair, now: TimePs): Verdict {
    const gated = this.askGate(qp, now);
    if (gated !== Verdict.Send) return gated;
    const size = qp.nextPayloadBytes(this.mtuBytes) + this.headerBytes;
    const vl = qp.vl;
    const refused = vl * PerVl.Stride + PerVl.RefusedBytes;
    // Room on the uplink only grows with less to send: a size refused once this decision is
    // refused again without asking.
    if (size >= this.perVl[refused]!) return Verdict.Skip;
    const links = this.links;
    if (!links.canSend(this.up, vl, size)) {
      links.markBlocked(this.up, vl, now);
      this.perVl[refused] = size;
      return Verdict.Skip;
    }
    links.markUnblocked(this.up, vl, now);
    return Verdict.Send;
  }

  // What `qp`'s gate makes of it now: SEND (it allows the next packet now), SKIP (its window is
  // closed) or PARK (it allows it later: `qp` leaves the rotation until then; the caller takes
  // it out of `active`).
  private askGate(qp: QueuePair, now: TimePs): Verdict {
    const gate = qp.gate;
    if (gate === undefined) return Verdict.Send;
    if (gate.windowOpen !== undefined && !gate.windowOpen()) return Verdict.Skip;
    const allowedPs = gate.nextSendPs(now);
    if (allowedPs <= now) return Verdict.Send;
    this.leave(qp);
    this.park(qp, allowedPs);
    return Verdict.Park;
  }

  private park(qp: QueuePair, untilPs: TimePs): void {
    this.parked.push(qp, untilPs);
    this.parkedFirstPs = this.parked.topPs();
  }

  private unparkFirst(): QueuePair {
    const qp = this.parked.popTop();
    this.parkedFirstPs = this.parked.topPs();
    return qp;
  }

  private join(qp: QueuePair): void {
    this.active.push(qp);
    this.perVl[qp.vl * PerVl.Stride + PerVl.RotationCount]!++;
    if (qp.shortHead) this.perVl[qp.vl * PerVl.Stride + PerVl.RotationShort]!++;
    this.rotationVersion++;
  }

  // Bookkeeping only: the caller takes it out of `active`.
  private leave(qp: QueuePair): void {
    this.perVl[qp.vl * PerVl.Stride + PerVl.RotationCount]!--;
    if (qp.shortHead) this.perVl[qp.vl * PerVl.Stride + PerVl.RotationShort]!--;
  }

  // True when no queue pair in the rotation could send even the smallest packet its VL may
  // hold next (a full one, unless some head is short): the decision is over without a scan,
  // which matters on a blocked uplink with hundreds of queue pairs.
  private noRoomForAny(now: TimePs): boolean {
    const links = this.links;
    const up = this.up;
    const full = this.mtuBytes + this.headerBytes;
    const smallest = this.headerBytes + 1;
    const perVl = this.perVl;
    for (let vl = 0; vl < this.vlCount; vl++) {
      const r = vl * PerVl.Stride;
      if (perVl[r + PerVl.RotationCount] === 0) continue;
      if (links.canSend(up, vl, perVl[r + PerVl.RotationShort] === 0 ? full : smallest)) {
        return false;
      }
    }
    // A VL with a queue pair in the rotation is now blocked. After a decision that did not ask
    // every gate, some of them are held back by their gate and would have been parked: a VL
    // whose queue pairs are all such is not blocked. They are looked for only where the mark
    // would change (a VL already blocked stays so until it sends).
    for (let vl = 0; vl < this.vlCount; vl++) {
      if (perVl[vl * PerVl.Stride + PerVl.RotationCount] === 0) continue;
      if (this.gatesUnasked && !this.uplinkFlow.isBlocked(vl) && !this.parkHeldBackOn(vl, now)) {
        continue;
      }
      links.markBlocked(up, vl, now);
    }
    return true;
  }

  // True when the uplink can take nothing it refused at the last fruitless send decision.
  private roomNotGrown(): boolean {
    const { credits, paused } = this.links.flow;
    const base = this.up * this.vlCount;
    const perVl = this.perVl;
    for (let vl = 0; vl < this.vlCount; vl++) {
      const r = vl * PerVl.Stride;
      if (credits[base + vl]! > perVl[r + PerVl.RefusedCredits]!) return false;
      if (paused[base + vl]! < perVl[r + PerVl.RefusedPaused]!) return false;
    }
    return true;
  }
}
