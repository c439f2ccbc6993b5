import { type GrowableArray, resized, type TimePs } from "@cclab/core-des";

/**
 * What a packet is. The named kinds cover every scheme in the seeds; a scheme that needs a
 * control packet of its own uses an `x-` kind (e.g. `"x-ccfit-stop"`), so the union stays
 * exhaustive for the devices while plugins can extend it.
 */
export type PacketKind =
  | "data"
  | "ack"
  | "nack"
  | "cnp"
  | "reservation"
  | "grant"
  | "probe"
  | "bcn"
  | "pause"
  | "credit-update"
  | `x-${string}`;

/** The named kinds, in the order of their codes in {@link Packets.kindCode}. */
export const NAMED_PACKET_KINDS = [
  "data",
  "ack",
  "nack",
  "cnp",
  "reservation",
  "grant",
  "probe",
  "bcn",
  "pause",
  "credit-update",
] as const;

/** Code of the `data` kind in {@link Packets.kindCode}: the one the devices test for. */
export const DATA_KIND = 0;

/** Highest number of distinct kinds (named and `x-`) one packet store holds. */
const MAX_KINDS = 256;

/**
 * ECN code points of the IP header's two ECN bits. TCD (seed 004) reads `10` as UE,
 * "undetermined encountered", instead of ECT(0).
 */
export const Ecn = {
  notCapable: 0b00,
  capable: 0b01,
  undetermined: 0b10,
  congestion: 0b11,
} as const;
export type EcnCodePoint = (typeof Ecn)[keyof typeof Ecn];

/**
 * A packet: an index into its network's {@link Packets}, which holds its fields. Devices hand
 * the number from hop to hop; the fields a hop changes (`vl`, `outPort`, `hops`, the arrival
 * times) describe the current hop.
 */
export type PacketId = number;

/** "No packet", where a packet id is expected (an empty queue's head, the end of a chain). */
export const NO_PACKET = -1;

/** The typed arrays a scheme column may be (see {@link Packets.column}): the growable ones. */
export type PacketColumnArray = GrowableArray;

/**
 * A column of per-packet state a scheme owns (SRP's accumulated queueing time, a BCN frame's
 * congestion point), by packet id. Every new packet starts at 0. `values` is replaced when the
 * store grows: read `column.values` after any call that may create a packet, as with the
 * store's own fields.
 */
export interface PacketColumn<A extends PacketColumnArray> {
  readonly name: string;
  readonly values: A;
}

class SchemeColumn<A extends PacketColumnArray> implements PacketColumn<A> {
  constructor(
    readonly name: string,
    public values: A,
  ) {}
}

/** The fields of a new packet, by name; those left out take their defaults. */
export interface PacketInit {
  readonly kind?: PacketKind;
  readonly sizeBytes?: number;
  readonly payloadBytes?: number;
  readonly vl?: number;
  readonly sl?: number;
  readonly srcHost?: number;
  readonly dstHost?: number;
  readonly flowId?: number;
  readonly messageId?: number;
  readonly seqInMessage?: number;
  readonly lastOfMessage?: boolean;
  readonly messageBytes?: number;
  readonly fecn?: boolean;
  readonly becn?: boolean;
  readonly ecn?: EcnCodePoint;
  readonly createdPs?: TimePs;
  readonly injectedPs?: TimePs;
  readonly control?: unknown;
}

/** A packet's fields as a plain object: for tests, errors and debugging, not the hot path. */
export interface PacketSnapshot {
  readonly id: PacketId;
  readonly kind: PacketKind;
  readonly sizeBytes: number;
  readonly payloadBytes: number;
  readonly vl: number;
  readonly sl: number;
  readonly srcHost: number;
  readonly dstHost: number;
  readonly flowId: number;
  readonly messageId: number;
  readonly seqInMessage: number;
  readonly lastOfMessage: boolean;
  readonly messageBytes: number;
  readonly outPort: number;
  readonly hops: number;
  readonly fecn: boolean;
  readonly becn: boolean;
  readonly ecn: EcnCodePoint;
  readonly createdPs: TimePs;
  readonly injectedPs: TimePs;
  readonly control: unknown;
}

/**
 * Every packet of one network, as columns of typed arrays indexed by packet id (struct of
 * arrays). A packet's hop touches a few numbers in a few dense arrays that stay in cache,
 * where one object per packet (about 200 bytes, scattered over the heap) missed the cache at
 * every hop of a large fabric (uniform256 bench, docs/model.md, "Performance rules").
 *
 * Fields are read and written in place: `packets.sizeBytes[p]`, `packets.fecn[p] = 1`. The
 * arrays are replaced when the store grows, which only {@link alloc} and {@link create} do:
 * re-read `packets.field` after any call that may create a packet instead of keeping the
 * array in a variable across it.
 *
 * Ids are recycled: a packet is freed when its destination host has consumed it, after the
 * delivery listeners and CC parts have seen it. A part or listener may read a packet during
 * its call only, and must copy what it wants to keep.
 */
export class Packets {
  /** Bytes on the wire, header included. */
  sizeBytes: Int32Array<ArrayBuffer>;
  /** Virtual lane / priority used on the current link (16 bits: up to `MAX_VLS` lanes). */
  vl: Uint16Array<ArrayBuffer>;
  /** Output port chosen at the current switch, or −1 before routing. */
  outPort: Int16Array<ArrayBuffer>;
  dstHost: Int32Array<ArrayBuffer>;
  /** The source–destination–SL queue pair the packet belongs to. */
  flowId: Float64Array<ArrayBuffer>;
  /** Switch hops traversed so far. */
  hops: Uint16Array<ArrayBuffer>;
  /**
   * The packet behind this one in the device queue that holds it, for those that chain their
   * packets (the built-in VOQs, {@link PacketChains}); {@link NO_PACKET} when it is last. A
   * packet waits in one such queue at a time. Links keep their own chain.
   */
  next: Int32Array<ArrayBuffer>;
  /** Application bytes carried (0 for control packets). */
  payloadBytes: Int32Array<ArrayBuffer>;
  /** The kind, as a code: {@link DATA_KIND}, or see {@link kind} and {@link kindCodeOf}. */
  kindCode: Uint8Array<ArrayBuffer>;
  messageId: Float64Array<ArrayBuffer>;
  /** Index of the packet within its message, from 0. */
  seqInMessage: Int32Array<ArrayBuffer>;
  /** 1 on the last packet of a message. */
  lastOfMessage: Uint8Array<ArrayBuffer>;
  /** Payload bytes of the whole message (lets a receiver see completion under reordering). */
  messageBytes: Float64Array<ArrayBuffer>;
  srcHost: Int32Array<ArrayBuffer>;
  /** Service level (InfiniBand) or priority (Ethernet PFC), end to end (16 bits, as `vl`). */
  sl: Uint16Array<ArrayBuffer>;
  /** InfiniBand forward and backward explicit congestion notification bits (0 or 1). */
  fecn: Uint8Array<ArrayBuffer>;
  becn: Uint8Array<ArrayBuffer>;
  /** The ECN code point ({@link Ecn}). */
  ecn: Uint8Array<ArrayBuffer>;
  /** The message's arrival at the send queue (docs/model.md, "What is measured": total latency starts here). */
  createdPs: Float64Array<ArrayBuffer>;
  /** Start of the packet's injection by the source host (in-network latency starts here). */
  injectedPs: Float64Array<ArrayBuffer>;
  /** Scheme-specific contents of a control packet (e.g. a grant's start time). */
  readonly control: unknown[] = [];

  private capacity: number;
  private count = 0;
  private readonly free_: number[] = [];
  private readonly kindNames: PacketKind[] = [...NAMED_PACKET_KINDS];
  private readonly kindCodes = new Map<string, number>(NAMED_PACKET_KINDS.map((k, i) => [k, i]));
  private readonly schemeColumns: SchemeColumn<PacketColumnArray>[] = [];

  constructor(initialCapacity = 1024) {
    const capacity = Math.max(1, Math.ceil(initialCapacity));
    this.capacity = capacity;
    this.sizeBytes = new Int32Array(capacity);
    this.vl = new Uint16Array(capacity);
    this.outPort = new Int16Array(capacity);
    this.dstHost = new Int32Array(capacity);
    this.flowId = new Float64Array(capacity);
    this.hops = new Uint16Array(capacity);
    this.next = new Int32Array(capacity);
    this.payloadBytes = new Int32Array(capacity);
    this.kindCode = new Uint8Array(capacity);
    this.messageId = new Float64Array(capacity);
    this.seqInMessage = new Int32Array(capacity);
    this.lastOfMessage = new Uint8Array(capacity);
    this.messageBytes = new Float64Array(capacity);
    this.srcHost = new Int32Array(capacity);
    this.sl = new Uint16Array(capacity);
    this.fecn = new Uint8Array(capacity);
    this.becn = new Uint8Array(capacity);
    this.ecn = new Uint8Array(capacity);
    this.createdPs = new Float64Array(capacity);
    this.injectedPs = new Float64Array(capacity);
  }

  /** Packets allocated and not yet freed. */
  get live(): number {
    return this.count - this.free_.length;
  }

  /** A new packet, every field at its default: a data packet of 0 bytes, unrouted. */
  alloc(): PacketId {
    let p: number;
    if (this.free_.length !== 0) p = this.free_.pop()!;
    else {
      if (this.count === this.capacity) this.grow();
      p = this.count++;
    }
    this.sizeBytes[p] = 0;
    this.vl[p] = 0;
    this.outPort[p] = -1;
    this.dstHost[p] = 0;
    this.flowId[p] = 0;
    this.hops[p] = 0;
    this.next[p] = NO_PACKET;
    this.payloadBytes[p] = 0;
    this.kindCode[p] = DATA_KIND;
    this.messageId[p] = 0;
    this.seqInMessage[p] = 0;
    this.lastOfMessage[p] = 0;
    this.messageBytes[p] = 0;
    this.srcHost[p] = 0;
    this.sl[p] = 0;
    this.fecn[p] = 0;
    this.becn[p] = 0;
    this.ecn[p] = Ecn.notCapable;
    this.createdPs[p] = 0;
    this.injectedPs[p] = 0;
    // `control[p]` is already clear: `free` clears it.
    if (this.schemeColumns.length !== 0) this.clearSchemeColumns(p);
    return p;
  }

  // Out of line: `alloc` stays small enough for V8 to inline where packets are made.
  private clearSchemeColumns(p: PacketId): void {
    const columns = this.schemeColumns;
    for (let c = 0; c < columns.length; c++) columns[c]!.values[p] = 0;
  }

  /** A new packet with the given fields (control packets of CC parts, tests). */
  create(init: PacketInit): PacketId {
    const p = this.alloc();
    if (init.kind !== undefined) this.kindCode[p] = this.kindCodeOf(init.kind);
    if (init.sizeBytes !== undefined) this.sizeBytes[p] = init.sizeBytes;
    if (init.payloadBytes !== undefined) this.payloadBytes[p] = init.payloadBytes;
    if (init.vl !== undefined) this.vl[p] = init.vl;
    if (init.sl !== undefined) this.sl[p] = init.sl;
    if (init.srcHost !== undefined) this.srcHost[p] = init.srcHost;
    if (init.dstHost !== undefined) this.dstHost[p] = init.dstHost;
    if (init.flowId !== undefined) this.flowId[p] = init.flowId;
    if (init.messageId !== undefined) this.messageId[p] = init.messageId;
    if (init.seqInMessage !== undefined) this.seqInMessage[p] = init.seqInMessage;
    if (init.lastOfMessage !== undefined) this.lastOfMessage[p] = init.lastOfMessage ? 1 : 0;
    if (init.messageBytes !== undefined) this.messageBytes[p] = init.messageBytes;
    if (init.fecn !== undefined) this.fecn[p] = init.fecn ? 1 : 0;
    if (init.becn !== undefined) this.becn[p] = init.becn ? 1 : 0;
    if (init.ecn !== undefined) this.ecn[p] = init.ecn;
    if (init.createdPs !== undefined) this.createdPs[p] = init.createdPs;
    if (init.injectedPs !== undefined) this.injectedPs[p] = init.injectedPs;
    if (init.control !== undefined) this.setControl(p, init.control);
    return p;
  }

  /**
   * A control packet of kind code `kindCode` from the receiver of data packet `data` back to its
   * sender: on `data`'s flow and SL, on `vl`, `sizeBytes` long, created at `createdPs`; every
   * other field at its default. Written field by field, without an init object: receivers send
   * one per data packet (ACKs) or per marked one (CNPs).
   */
  replyTo(
    data: PacketId,
    kindCode: number,
    sizeBytes: number,
    vl: number,
    createdPs: TimePs,
  ): PacketId {
    const p = this.alloc();
    this.kindCode[p] = kindCode;
    this.sizeBytes[p] = sizeBytes;
    this.flowId[p] = this.flowId[data]!;
    this.dstHost[p] = this.srcHost[data]!;
    this.sl[p] = this.sl[data]!;
    this.vl[p] = vl;
    this.createdPs[p] = createdPs;
    return p;
  }

  /**
   * A new packet with every field of `p` (its scheme columns too) except where it is: unrouted,
   * no hops, in no queue. For a scheme that sends a data packet again while the first copy may
   * still arrive (SRP's in-order variant, seed 000 line 82); its receiver part then discards
   * the copy that arrives second ({@link ReceiverPart.discard}). Since contract 3.2.
   */
  copy(p: PacketId): PacketId {
    const c = this.alloc();
    this.kindCode[c] = this.kindCode[p]!;
    this.sizeBytes[c] = this.sizeBytes[p]!;
    this.vl[c] = this.vl[p]!;
    this.dstHost[c] = this.dstHost[p]!;
    this.flowId[c] = this.flowId[p]!;
    this.payloadBytes[c] = this.payloadBytes[p]!;
    this.messageId[c] = this.messageId[p]!;
    this.seqInMessage[c] = this.seqInMessage[p]!;
    this.lastOfMessage[c] = this.lastOfMessage[p]!;
    this.messageBytes[c] = this.messageBytes[p]!;
    this.srcHost[c] = this.srcHost[p]!;
    this.sl[c] = this.sl[p]!;
    this.fecn[c] = this.fecn[p]!;
    this.becn[c] = this.becn[p]!;
    this.ecn[c] = this.ecn[p]!;
    this.createdPs[c] = this.createdPs[p]!;
    this.injectedPs[c] = this.injectedPs[p]!;
    const control = this.control[p];
    if (control !== undefined) this.setControl(c, control);
    for (const column of this.schemeColumns) column.values[c] = column.values[p]!;
    return c;
  }

  /** Returns a packet nothing refers to any more; its id will be reused. */
  free(p: PacketId): void {
    if (p < this.control.length) this.control[p] = undefined;
    this.free_.push(p);
  }

  /** The packet's kind by name. */
  kind(p: PacketId): PacketKind {
    return this.kindNames[this.kindCode[p]!]!;
  }

  setKind(p: PacketId, kind: PacketKind): void {
    this.kindCode[p] = this.kindCodeOf(kind);
  }

  /** The code of `kind` in {@link kindCode}; `x-` kinds get theirs on first use. */
  kindCodeOf(kind: PacketKind): number {
    let code = this.kindCodes.get(kind);
    if (code === undefined) {
      if (!kind.startsWith("x-")) throw new RangeError(`unknown packet kind "${kind}"`);
      if (this.kindNames.length === MAX_KINDS) {
        throw new RangeError(`more than ${MAX_KINDS} packet kinds in one network`);
      }
      code = this.kindNames.length;
      this.kindNames.push(kind);
      this.kindCodes.set(kind, code);
    }
    return code;
  }

  /**
   * The scheme column `name` (a dotted name of the scheme's own, `"srp.ttwPs"`): made on first
   * request as an array of `type`, grown with the store, the same column for every device and
   * part that asks for the name. Costs nothing per packet until some part asks for a column.
   * Since contract 3.0.
   */
  column<A extends PacketColumnArray>(
    name: `${string}.${string}`,
    type: new (length: number) => A,
  ): PacketColumn<A> {
    if (!/^[\w-]+(\.[\w-]+)+$/.test(name)) {
      throw new RangeError(
        `packet column name "${name}" must be dotted, with the scheme's prefix (e.g. "srp.ttwPs")`,
      );
    }
    const existing = this.schemeColumns.find((c) => c.name === name);
    if (existing !== undefined) {
      if (!(existing.values instanceof type)) {
        throw new RangeError(
          `packet column "${name}" is a ${existing.values.constructor.name}; asked for as a ${type.name}`,
        );
      }
      return existing as unknown as PacketColumn<A>;
    }
    const column = new SchemeColumn<PacketColumnArray>(name, new type(this.capacity));
    this.schemeColumns.push(column);
    return column as unknown as PacketColumn<A>;
  }

  /** Sets the scheme-specific contents of a control packet. */
  setControl(p: PacketId, control: unknown): void {
    while (this.control.length <= p) this.control.push(undefined);
    this.control[p] = control;
  }

  /** The packet's fields as a plain object. */
  snapshot(p: PacketId): PacketSnapshot {
    return {
      id: p,
      kind: this.kind(p),
      sizeBytes: this.sizeBytes[p]!,
      payloadBytes: this.payloadBytes[p]!,
      vl: this.vl[p]!,
      sl: this.sl[p]!,
      srcHost: this.srcHost[p]!,
      dstHost: this.dstHost[p]!,
      flowId: this.flowId[p]!,
      messageId: this.messageId[p]!,
      seqInMessage: this.seqInMessage[p]!,
      lastOfMessage: this.lastOfMessage[p] === 1,
      messageBytes: this.messageBytes[p]!,
      outPort: this.outPort[p]!,
      hops: this.hops[p]!,
      fecn: this.fecn[p] === 1,
      becn: this.becn[p] === 1,
      ecn: this.ecn[p] as EcnCodePoint,
      createdPs: this.createdPs[p]!,
      injectedPs: this.injectedPs[p]!,
      control: this.control[p],
    };
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.sizeBytes = resized(this.sizeBytes, capacity);
    this.vl = resized(this.vl, capacity);
    this.outPort = resized(this.outPort, capacity);
    this.dstHost = resized(this.dstHost, capacity);
    this.flowId = resized(this.flowId, capacity);
    this.hops = resized(this.hops, capacity);
    this.next = resized(this.next, capacity);
    this.payloadBytes = resized(this.payloadBytes, capacity);
    this.kindCode = resized(this.kindCode, capacity);
    this.messageId = resized(this.messageId, capacity);
    this.seqInMessage = resized(this.seqInMessage, capacity);
    this.lastOfMessage = resized(this.lastOfMessage, capacity);
    this.messageBytes = resized(this.messageBytes, capacity);
    this.srcHost = resized(this.srcHost, capacity);
    this.sl = resized(this.sl, capacity);
    this.fecn = resized(this.fecn, capacity);
    this.becn = resized(this.becn, capacity);
    this.ecn = resized(this.ecn, capacity);
    this.createdPs = resized(this.createdPs, capacity);
    this.injectedPs = resized(this.injectedPs, capacity);
    for (const column of this.schemeColumns) column.values = resized(column.values, capacity);
    this.capacity = capacity;
  }
}
