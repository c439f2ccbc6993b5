import { type Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import {
  DATA_KIND,
  IntFifo,
  type LinkSet,
  NO_PACKET,
  type PacketId,
  type Packets,
} from "@cclab/fabric";
import type { HcaConfig } from "./hca-config.js";
import type { HcaKinds } from "./hca-setup.js";
import type { QueuePair } from "./queue-pair.js";
import type { SendScheduler } from "./send-scheduler.js";

/** What a host's uplink transmitter is built for. */
export interface UplinkTransmitterSetup {
  /** The host: its index is the packets' source and the target of its events. */
  readonly index: number;
  readonly name: string;
  readonly config: HcaConfig;
  readonly scheduler: Scheduler;
  readonly kinds: HcaKinds;
  readonly packets: Packets;
  readonly links: LinkSet;
  /** Picks the queue pair that sends the next data packet. */
  readonly sending: SendScheduler;
}

/**
 * A host's transmitter on its uplink (docs/model.md, "Hosts"): one packet at a time, control
 * packets first, then data packets of this host sent again, then the next packet of the queue
 * pair the {@link SendScheduler} picks, cut from its head message here. `injectionCapGbps`
 * spaces packet starts; when nothing may go now it wakes the host when something may.
 */
export class UplinkTransmitter {
  packetsSent = 0;
  /** Data packets sent again after a drop a CC scheme reported. */
  packetsResent = 0;
  /** Called with a message's id when its last packet starts. */
  injectedListener: ((messageId: number) => void) | undefined = undefined;

  private readonly index: number;
  private readonly name: string;
  protected readonly config: HcaConfig;
  protected readonly scheduler: Scheduler;
  private readonly kinds: HcaKinds;
  protected readonly packets: Packets;
  protected readonly links: LinkSet;
  protected readonly sending: SendScheduler;
  /** Index of the uplink in `links` (−1 before {@link attach}). */
  protected up = -1;
  protected readonly control = new IntFifo(4);
  protected readonly resends = new IntFifo(4);
  protected transmitting = false;
  /** The injection cap: the next data packet or resend starts no earlier (see spaceNextStart). */
  protected nextStartPs: TimePs = 0;
  private wakeAtPs = Number.POSITIVE_INFINITY;

  constructor(setup: UplinkTransmitterSetup) {
    this.index = setup.index;
    this.name = setup.name;
    this.config = setup.config;
    this.scheduler = setup.scheduler;
    this.kinds = setup.kinds;
    this.packets = setup.packets;
    this.links = setup.links;
    this.sending = setup.sending;
  }

  /** Sends on link `upIndex`. */
  attach(upIndex: number): void {
    this.up = upIndex;
  }

  /** True while a packet is leaving. */
  isTransmitting(): boolean {
    return this.transmitting;
  }

  /**
   * Calls `listener` with every packet the uplink starts from now on (packet traces), once the
   * send decision that started it is over: after the gate's `onSent`, which may still write the
   * packet's header fields. It wraps this transmitter's own methods instead of testing for a
   * listener per packet: a transmitter nobody observes runs the class's code unchanged
   * (docs/model.md, "Performance rules").
   */
  observeStarts(listener: (packet: PacketId) => void): void {
    const { transmit, trySend } = this;
    let started = NO_PACKET;
    let depth = 0; // a gate's onSent may ask to send again, inside the decision
    this.transmit = (packet) => {
      transmit.call(this, packet);
      started = packet;
    };
    this.trySend = () => {
      depth++;
      trySend.call(this);
      depth--;
      if (depth === 0 && started !== NO_PACKET) {
        const packet = started;
        started = NO_PACKET;
        listener(packet);
      }
    };
  }

  /** Queues a control packet (from a CC part) ahead of data. */
  sendControl(packet: PacketId): void {
    this.packets.srcHost[packet] = this.index;
    this.packets.injectedPs[packet] = this.scheduler.nowPs;
    this.control.push(packet);
    this.trySend();
  }

  /** Queues a dropped data packet of this host for sending again, ahead of new data. */
  resend(packet: PacketId): void {
    const packets = this.packets;
    if (packets.srcHost[packet] !== this.index || packets.kindCode[packet] !== DATA_KIND) {
      throw new RangeError(
        `host ${this.name} can only resend its own data packets (got a ${packets.kind(packet)} packet from host ${packets.srcHost[packet]})`,
      );
    }
    packets.hops[packet] = 0;
    packets.outPort[packet] = -1;
    this.resends.push(packet);
    this.trySend();
  }

  /** Event handler: the packet has left. */
  ended(): void {
    this.transmitting = false;
    this.trySend();
  }

  /** Event handler: a CC gate or the injection cap allows sending now. */
  wake(): void {
    if (this.wakeAtPs <= this.scheduler.nowPs) this.wakeAtPs = Number.POSITIVE_INFINITY;
    this.trySend();
  }

  /** Starts the next packet if one may go now; else wakes when one may. */
  trySend(): void {
    if (this.transmitting) return;
    const now = this.scheduler.nowPs;
    const links = this.links;
    const up = this.up;
    const packets = this.packets;
    const control = this.control.peek();
    if (
      control !== NO_PACKET &&
      links.canSend(up, packets.vl[control]!, packets.sizeBytes[control]!)
    ) {
      this.control.shift();
      this.transmit(control);
      return;
    }
    if (this.nextStartPs > now) {
      if (this.sending.hasWaiting() || this.resends.length !== 0) this.wakeAt(this.nextStartPs);
      return;
    }
    const resend = this.resends.peek();
    if (
      resend !== NO_PACKET &&
      links.canSend(up, packets.vl[resend]!, packets.sizeBytes[resend]!)
    ) {
      this.resends.shift();
      packets.injectedPs[resend] = now;
      this.packetsResent++;
      this.transmit(resend);
      this.spaceNextStart(now, packets.sizeBytes[resend]!);
      return;
    }
    const qp = this.sending.pick(now);
    if (qp !== undefined) {
      this.sendFrom(qp, now);
      return;
    }
    this.wakeAt(this.sending.parkedFirstPs); // no-op while none is parked (+Infinity)
  }

  // Sends the next packet of `qp`, which the send scheduler picked now.
  private sendFrom(qp: QueuePair, now: TimePs): void {
    const payload = qp.nextPayloadBytes(this.config.mtuBytes);
    const size = payload + this.config.headerBytes;
    const packet = this.dataPacket(qp, payload, size);
    this.sending.sent(qp);
    this.transmit(packet);
    this.spaceNextStart(now, size);
    // The gate hears of the packet once it is on the uplink: a gate that raises its rate here
    // (DCQCN's byte counter) asks the host to send again, which must find the uplink busy.
    qp.gate?.onSent?.(packet);
  }

  // The next packet of `qp`'s head message.
  protected dataPacket(qp: QueuePair, payload: number, size: number): PacketId {
    const packets = this.packets;
    // A fresh data packet (every field at its default), then this one's fields.
    const packet = packets.alloc();
    packets.sizeBytes[packet] = size;
    packets.payloadBytes[packet] = payload;
    packets.flowId[packet] = qp.flowId;
    const messageId = qp.headId;
    packets.messageId[packet] = messageId;
    packets.messageBytes[packet] = qp.headBytes;
    packets.seqInMessage[packet] = Math.floor(qp.sentOfHead / this.config.mtuBytes);
    packets.srcHost[packet] = this.index;
    packets.dstHost[packet] = qp.dstHost;
    packets.sl[packet] = qp.sl;
    packets.vl[packet] = qp.vl;
    packets.createdPs[packet] = qp.headCreatedPs;
    packets.injectedPs[packet] = this.scheduler.nowPs;
    if (qp.advance(payload)) {
      packets.lastOfMessage[packet] = 1;
      this.injectedListener?.(messageId);
    }
    return packet;
  }

  protected transmit(packet: PacketId): void {
    if (this.transmitting) {
      throw new Error(`host ${this.name} started a packet while its uplink was busy (a bug)`);
    }
    const links = this.links;
    const size = this.packets.sizeBytes[packet]!;
    links.consume(this.up, this.packets.vl[packet]!, size);
    this.transmitting = true;
    this.packetsSent++;
    const endPs = this.scheduler.nowPs + links.serPs(this.up, size);
    links.transmit(this.up, packet, endPs);
    this.scheduler.schedule(endPs, this.kinds.txEnds, this.index);
  }

  // The host cap (docs/model.md, "Hosts"): packet starts at least size × 8 / cap apart.
  protected spaceNextStart(now: TimePs, sizeBytes: number): void {
    if (this.config.injectionCapGbps !== null) {
      this.nextStartPs = now + serializationPs(sizeBytes, this.config.injectionCapGbps);
    }
  }

  protected wakeAt(timePs: TimePs): void {
    if (timePs >= this.wakeAtPs) return;
    this.wakeAtPs = timePs;
    this.scheduler.schedule(timePs, this.kinds.wake, this.index);
  }
}
