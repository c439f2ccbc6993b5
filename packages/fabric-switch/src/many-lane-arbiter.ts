import { INFINIBAND_VLS, type PacketColumn, type Packets } from "@cclab/fabric";
import { Arbiter, type ArbiterLanes, type ArbitrationTarget } from "./arbiter.js";
import { clearBit, setBit } from "./bits.js";

/**
 * The arbiter of a switch with many VLs (VOQnet, a lane per destination: docs/model.md, "Input
 * side"). It grants what {@link Arbiter} grants, in the same order, but its crossbar stage
 * visits only the data VLs with packets waiting for the output, from a bit set per output over
 * VLs, where Arbiter tries every data VL in turn (`grant` returns at once on a VL with none).
 * On Paper VI's 64-node tree with 64 VLs, an output's arbitration found packets on 0.6 of the 57
 * data VLs it tried, on average.
 *
 * A subclass, so that switches of up to 16 VLs run Arbiter's code as it was: the set costs an
 * update whenever an (output, VL) gains its first waiting packet or loses its last.
 */
export class ManyLaneArbiter extends Arbiter {
  /** Per output, the VLs with packets waiting for it (`waitingFor` not 0), `vlWords` words. */
  private readonly waitingVls: Int32Array;
  private readonly vlWords: number;
  /** The data VLs as a bit set (`vlWords` words), and each one's index in `dataVls`. */
  private readonly dataVlBits: Int32Array;
  private readonly dataIndex: Int32Array;

  constructor(
    portCount: number,
    lanes: ArbiterLanes,
    readPorts: number,
    packets: Packets,
    target: ArbitrationTarget,
    arrivedPs?: PacketColumn<Float64Array<ArrayBuffer>>,
  ) {
    super(portCount, lanes, readPorts, packets, target, arrivedPs);
    const v = lanes.vlCount;
    const words = (v + 31) >>> 5;
    this.vlWords = words;
    this.waitingVls = new Int32Array(portCount * words);
    this.dataVlBits = new Int32Array(words);
    this.dataIndex = new Int32Array(v).fill(-1);
    this.dataVls.forEach((vl, j) => {
      setBit(this.dataVlBits, 0, vl);
      this.dataIndex[vl] = j;
    });
  }

  override queued(input: number, out: number, vl: number): void {
    super.queued(input, out, vl);
    if (this.waitingFor[out * this.vlCount + vl] === 1) {
      setBit(this.waitingVls, out * this.vlWords, vl);
    }
  }

  override dequeued(input: number, out: number, vl: number): void {
    super.dequeued(input, out, vl);
    if (this.waitingFor[out * this.vlCount + vl] === 0) {
      clearBit(this.waitingVls, out * this.vlWords, vl);
    }
  }

  // The link stage of output buffers walks every lane, as Arbiter does: what waits there is in
  // the output buffers, which the set does not follow.
  override serveLanes(out: number, linkStage: boolean): boolean {
    if (linkStage) return super.serveLanes(out, true);
    const controlVls = this.controlVls;
    for (let k = 0; k < controlVls.length; k++) {
      if (this.grant(out, controlVls[k]!)) return true;
    }
    if (this.grantData(out)) return true;
    const lowVls = this.lowVls;
    for (let k = 0; k < lowVls.length; k++) {
      if (this.grant(out, lowVls[k]!)) return true;
    }
    return false;
  }

  // Weighted round-robin over the data VLs with packets waiting for `out`, from the one under the
  // pointer: data VLs ascend, so the pointer's order is theirs, and a VL the walk skips is one
  // where Arbiter's `grant` would have found nothing.
  private grantData(out: number): boolean {
    const dataVls = this.dataVls;
    const n = dataVls.length;
    if (n === 0) return false;
    const rr = this.xbarVlRr;
    const served = this.xbarVlServed;
    const waiting = this.waitingVls;
    const dataVlBits = this.dataVlBits;
    const first = rr[out]!;
    const start = dataVls[first]!;
    const base = out * this.vlWords;
    let from = start;
    let to = this.vlCount;
    for (let pass = 0; pass < 2; pass++) {
      for (let w = from >>> 5; w << 5 < to; w++) {
        let bits = waiting[base + w]! & dataVlBits[w]!;
        if (w === from >>> 5) bits &= -1 << (from & 31);
        const end = to - (w << 5);
        if (end < 32) bits &= (1 << end) - 1;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const vl = (w << 5) + 31 - Math.clz32(low);
          if (!this.grant(out, vl)) continue;
          const j = this.dataIndex[vl]!;
          const count = j === first ? served[out]! + 1 : 1;
          if (count >= this.dataWeights[j]!) {
            rr[out] = j + 1 < n ? j + 1 : 0;
            served[out] = 0;
          } else {
            rr[out] = j;
            served[out] = count;
          }
          return true;
        }
      }
      from = 0;
      to = start;
    }
    return false;
  }
}

/**
 * The arbiter for a switch's lanes: {@link ManyLaneArbiter} beyond InfiniBand's 16 VLs, else
 * {@link Arbiter}.
 */
export function createArbiter(
  portCount: number,
  lanes: ArbiterLanes,
  readPorts: number,
  packets: Packets,
  target: ArbitrationTarget,
  arrivedPs?: PacketColumn<Float64Array<ArrayBuffer>>,
): Arbiter {
  return lanes.vlCount > INFINIBAND_VLS
    ? new ManyLaneArbiter(portCount, lanes, readPorts, packets, target, arrivedPs)
    : new Arbiter(portCount, lanes, readPorts, packets, target, arrivedPs);
}
