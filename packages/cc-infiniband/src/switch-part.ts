import {
  DATA_KIND,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { type IbCcParams, thresholdsBytes } from "./params.js";

// Constants of `change` are enum members, which bundling writes as literals (module `const`s
// become `var`s that V8 loads at every use; see core-des scheduler.ts).

/**
 * Threshold mappings of Paper I: each VoQ against the threshold, their sum, or the sum against
 * the threshold divided among the inputs with data.
 */
enum Mapping {
  Voq = 0,
  Sum = 1,
  PerInput = 2,
}

/**
 * The fields of a Port VL's record: bytes in the VoQs headed to it, inputs with data there,
 * VoQs above the high and the low threshold, in the congestion state (1) or not, eligible
 * packets since the last mark; and the record's length.
 */
enum PortVl {
  SumBytes = 0,
  InputsWithData = 1,
  VoqsAboveHigh = 2,
  VoqsAboveLow = 3,
  Congested = 4,
  SinceMark = 5,
  Stride = 8,
}

/**
 * The congestion point (spec A10 via Gran thesis Paper I L830 and Paper II L1257–1263): per
 * output port and VL ("Port VL") a congestion state decided from the occupancy of the VoQs
 * headed to that port, and FECN marking of the data packets the port sends while in it.
 *
 * Occupancy is counted per VoQ (input → output, VL) from enqueue until the crossbar grants the
 * packet (it then starts on the link, or crosses into an output buffer); packets are marked
 * as they start on the output link (Paper I: "at the obuf, each time the module wants to send
 * a new packet, the ccmgr is asked to update the FECN bit").
 * The state is re-evaluated at every change:
 * - it is entered when the measure crosses the high threshold and the Port VL is the root
 *   of congestion, i.e. not held by flow control (L1261: "has available credits"), or when
 *   the Victim_Mask covers the port;
 * - it is left when the measure falls to the low threshold or below (a single threshold is
 *   high = low; two thresholds give the hysteresis of Paper II, L1085).
 * The packet being sent is judged by the state once its own bytes have left the VoQ: by what
 * still waits for the port. (Judged before, a lone packet larger than the threshold would
 * mark itself under virtual cut-through: with Threshold 15 on a 32 KiB buffer, one MTU.)
 */
export function createSwitchPart(p: IbCcParams, context: SwitchPartContext): SwitchPart {
  const ports = context.portCount;
  const views = Array.from({ length: ports }, (_, i) => context.port(i));
  const vls = views[0]?.vlCount ?? 1;
  // Per output port: whether it has thresholds (Threshold 0 never marks), and their bytes.
  const hasThreshold = new Uint8Array(ports);
  const highBytes = new Float64Array(ports);
  const lowBytes = new Float64Array(ports);
  for (let i = 0; i < ports; i++) {
    const t = thresholdsBytes(p, context.inputBufferBytes(i));
    if (t === null) continue;
    hasThreshold[i] = 1;
    highBytes[i] = t.high;
    lowBytes[i] = t.low;
  }
  const masked = Uint8Array.from({ length: ports }, (_, i) =>
    p.victimMask === "all" || (p.victimMask === "host-ports" && context.facesHost(i)) ? 1 : 0,
  );
  // Per VoQ, at [(out * vls + vl) * ports + in].
  const voqBytes = new Float64Array(ports * vls * ports);
  // Per Port VL, a record of 8 numbers at [(out * vls + vl) * 8] (see the field offsets
  // above): every enqueue and dequeue reads and writes most of them, and one array per field
  // cost a cache miss each on the 648-node Clos (callgrind cache simulation).
  const portVl = new Float64Array(ports * vls * PortVl.Stride);
  const minMarkBytes = p.packetSize64B * 64;
  const rng = context.rng;
  const packets = context.packets;
  let fecnMarked = 0;
  let congestionEntries = 0;

  // The mapping, as a code read in `change` (which runs at every enqueue and dequeue).
  const mapping =
    p.thresholdMapping === "voq"
      ? Mapping.Voq
      : p.thresholdMapping === "sum"
        ? Mapping.Sum
        : Mapping.PerInput;

  const change = (input: number, out: number, vl: number, delta: number): void => {
    const ov = out * vls + vl;
    const q = ov * ports + input;
    const before = voqBytes[q]!;
    const after = before + delta;
    voqBytes[q] = after;
    const r = ov * PortVl.Stride;
    const sum = portVl[r + PortVl.SumBytes]! + delta;
    portVl[r + PortVl.SumBytes] = sum;
    let inputs = portVl[r + PortVl.InputsWithData]!;
    if (before === 0 && after > 0) portVl[r + PortVl.InputsWithData] = ++inputs;
    else if (before > 0 && after === 0) portVl[r + PortVl.InputsWithData] = --inputs;
    if (hasThreshold[out] === 0) return;
    const high = highBytes[out]!;
    const low = lowBytes[out]!;
    const aboveHigh = portVl[r + PortVl.VoqsAboveHigh]! + (+(after > high) - +(before > high));
    portVl[r + PortVl.VoqsAboveHigh] = aboveHigh;
    const aboveLow = portVl[r + PortVl.VoqsAboveLow]! + (+(after > low) - +(before > low));
    portVl[r + PortVl.VoqsAboveLow] = aboveLow;
    if (portVl[r + PortVl.Congested] === 0) {
      const enters =
        mapping === Mapping.Voq
          ? aboveHigh > 0
          : mapping === Mapping.Sum
            ? sum > high
            : inputs > 0 && sum > high / inputs;
      if (enters && (masked[out] === 1 || !views[out]!.isBlocked(vl))) {
        portVl[r + PortVl.Congested] = 1;
        congestionEntries++;
      }
    } else if (
      mapping === Mapping.Voq
        ? aboveLow === 0
        : mapping === Mapping.Sum
          ? sum <= low
          : inputs === 0 || sum <= low / inputs
    ) {
      portVl[r + PortVl.Congested] = 0;
    }
  };

  const byProbability = p.marking === "probability";
  const shouldMark = (ov: number): boolean => {
    if (p.markingRate === 0) return true;
    if (byProbability) return rng.bernoulli(1 / (p.markingRate + 1));
    // The spec's reading: Marking_Rate eligible packets pass between two marked ones.
    const at = ov * PortVl.Stride + PortVl.SinceMark;
    if (portVl[at]! >= p.markingRate) {
      portVl[at] = 0;
      return true;
    }
    portVl[at]!++;
    return false;
  };

  return {
    onEnqueue(packet: PacketId, inPort: number): void {
      change(inPort, packets.outPort[packet]!, packets.vl[packet]!, packets.sizeBytes[packet]!);
    },
    onDequeue(packet: PacketId, inPort: number): void {
      change(inPort, packets.outPort[packet]!, packets.vl[packet]!, -packets.sizeBytes[packet]!);
    },
    onTransmit(packet: PacketId, inPort: number, outPort: number): void {
      if (inPort === FROM_SWITCH_CONTROL) return; // never sat in a VoQ
      const ov = outPort * vls + packets.vl[packet]!;
      if (
        portVl[ov * PortVl.Stride + PortVl.Congested] === 1 &&
        packets.kindCode[packet] === DATA_KIND &&
        packets.sizeBytes[packet]! >= minMarkBytes &&
        shouldMark(ov)
      ) {
        if (packets.fecn[packet] === 0) fecnMarked++;
        packets.fecn[packet] = 1;
      }
    },
    counters: () => ({ fecnMarked, congestionEntries }),
  };
}

export function switchPartFactory(p: IbCcParams): SwitchPartFactory {
  return {
    specVersion: 2,
    name: "infiniband switch (FECN marking)",
    writes: ["fecn"],
    create: (context) => createSwitchPart(p, context),
  };
}
