import { nsToPs, type TimePs, TimeWeightedAverage } from "@cclab/core-des";
import { IntFifo, NO_PACKET, type PacketId } from "@cclab/fabric";
import type { SwitchConfig } from "./switch-config.js";

/**
 * The output side of a switch with output buffers (docs/model.md, "Through a switch"): per
 * output port the crossbar transfer under way (the packet crossing, and the input it comes
 * from), and per output port and VL the buffer the link drains: its packets in order and the
 * bytes in it or crossing into it.
 */
export class OutputBuffers {
  /** Bytes in (or crossing into) each output buffer, at `[port * vlCount + vl]`. */
  readonly bytes: Float64Array;
  private readonly max: Float64Array;
  private readonly series: TimeWeightedAverage[] | undefined;
  private readonly queues: IntFifo[] = [];
  /** Per output: 1 while a packet crosses the crossbar into it, that packet and its input. */
  private readonly crossing: Uint8Array;
  private readonly crossingPacket: Int32Array;
  private readonly crossingInput: Int32Array;

  constructor(
    portCount: number,
    private readonly vlCount: number,
    /** Bytes each (port, VL) buffer holds. */
    readonly capacityBytes: number,
    occupancyBinNs: number | null,
  ) {
    const queues = portCount * vlCount;
    this.bytes = new Float64Array(queues);
    this.max = new Float64Array(queues);
    this.series =
      occupancyBinNs === null
        ? undefined
        : Array.from(
            { length: queues },
            () => new TimeWeightedAverage({ binWidthPs: nsToPs(occupancyBinNs) }),
          );
    for (let q = 0; q < queues; q++) this.queues.push(new IntFifo(4));
    this.crossing = new Uint8Array(portCount);
    this.crossingPacket = new Int32Array(portCount).fill(NO_PACKET);
    this.crossingInput = new Int32Array(portCount);
  }

  /** The output buffers of a switch with `config`, or undefined if it has none. */
  static of(config: SwitchConfig, portCount: number): OutputBuffers | undefined {
    if (config.outputBufferBytes === 0) return undefined;
    const { vlCount, outputBufferBytes, occupancyBinNs } = config;
    return new OutputBuffers(portCount, vlCount, outputBufferBytes, occupancyBinNs);
  }

  /** True if a packet of `sizeBytes` fits in the buffer of (`out`, `vl`) now. */
  hasRoom(out: number, vl: number, sizeBytes: number): boolean {
    return this.bytes[out * this.vlCount + vl]! + sizeBytes <= this.capacityBytes;
  }

  /** True while a packet crosses the crossbar into `out`. */
  isCrossing(out: number): boolean {
    return this.crossing[out] === 1;
  }

  /** `packet` of `sizeBytes` on `vl` starts crossing from `input` into `out`'s buffer. */
  startCrossing(
    out: number,
    input: number,
    packet: PacketId,
    vl: number,
    sizeBytes: number,
    nowPs: TimePs,
  ): void {
    this.crossing[out] = 1;
    this.crossingInput[out] = input;
    this.crossingPacket[out] = packet;
    this.add(out * this.vlCount + vl, sizeBytes, nowPs);
  }

  /** The input of the packet crossing into `out`. */
  crossingFrom(out: number): number {
    return this.crossingInput[out]!;
  }

  /** The crossing into `out` ends: its packet joins the buffer of its VL; returns the packet. */
  endCrossing(out: number, vl: number): PacketId {
    const packet = this.crossingPacket[out]!;
    this.crossingPacket[out] = NO_PACKET;
    this.crossing[out] = 0;
    this.queues[out * this.vlCount + vl]!.push(packet);
    return packet;
  }

  /** The crossing packet of `out`. */
  crossingPacketOf(out: number): PacketId {
    return this.crossingPacket[out]!;
  }

  /** The first packet of the buffer of (`out`, `vl`), or NO_PACKET. */
  head(out: number, vl: number): PacketId {
    return this.queues[out * this.vlCount + vl]!.peek();
  }

  /** Removes the first packet of the buffer of (`out`, `vl`) (it starts on the link). */
  shift(out: number, vl: number): void {
    this.queues[out * this.vlCount + vl]!.shift();
  }

  /** A packet of `sizeBytes` has left the buffer of (`out`, `vl`) on the link. */
  sent(out: number, vl: number, sizeBytes: number, nowPs: TimePs): void {
    this.add(out * this.vlCount + vl, -sizeBytes, nowPs);
  }

  /** Highest occupancy of (`out`, `vl`), bytes. */
  maxBytes(out: number, vl: number): number {
    return this.max[out * this.vlCount + vl]!;
  }

  /** Mean occupancy of (`out`, `vl`) per bin up to `untilPs` (only with occupancy bins). */
  binnedBytes(out: number, vl: number, untilPs: TimePs): Float64Array | undefined {
    return this.series?.[out * this.vlCount + vl]?.binMeans(untilPs);
  }

  private add(ov: number, delta: number, nowPs: TimePs): void {
    const bytes = this.bytes[ov]! + delta;
    this.bytes[ov] = bytes;
    if (bytes > this.max[ov]!) this.max[ov] = bytes;
    const series = this.series;
    if (series !== undefined) series[ov]!.set(nowPs, bytes);
  }
}
