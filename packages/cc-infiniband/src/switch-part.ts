import {
  DATA_KIND,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { type IbCcParams, thresholdsBytes } from "./params.js";

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
  const thresholds = Array.from({ length: ports }, (_, i) =>
    thresholdsBytes(p, context.inputBufferBytes(i)),
  );
  const masked = Uint8Array.from({ length: ports }, (_, i) =>
    p.victimMask === "all" || (p.victimMask === "host-ports" && context.facesHost(i)) ? 1 : 0,
  );
  // Per VoQ, at [(out * vls + vl) * ports + in].
  const voqBytes = new Float64Array(ports * vls * ports);
  // Per Port VL, at [out * vls + vl].
  const sumBytes = new Float64Array(ports * vls);
  const inputsWithData = new Int32Array(ports * vls);
  const voqsAboveHigh = new Int32Array(ports * vls);
  const voqsAboveLow = new Int32Array(ports * vls);
  const congested = new Uint8Array(ports * vls);
  const sinceMark = new Int32Array(ports * vls);
  const minMarkBytes = p.packetSize64B * 64;
  const rng = context.rng;
  const packets = context.packets;
  let fecnMarked = 0;
  let congestionEntries = 0;

  // The mapping's measure against the thresholds, chosen once: `change` runs at every
  // enqueue and dequeue.
  type Test = (ov: number, bytes: number) => boolean;
  const [enters, leaves]: [Test, Test] =
    p.thresholdMapping === "voq"
      ? [(ov) => voqsAboveHigh[ov]! > 0, (ov) => voqsAboveLow[ov] === 0]
      : p.thresholdMapping === "sum"
        ? [(ov, high) => sumBytes[ov]! > high, (ov, low) => sumBytes[ov]! <= low]
        : [
            (ov, high) => inputsWithData[ov]! > 0 && sumBytes[ov]! > high / inputsWithData[ov]!,
            (ov, low) => inputsWithData[ov] === 0 || sumBytes[ov]! <= low / inputsWithData[ov]!,
          ];

  const change = (input: number, out: number, vl: number, delta: number): void => {
    const t = thresholds[out];
    const ov = out * vls + vl;
    const q = ov * ports + input;
    const before = voqBytes[q]!;
    const after = before + delta;
    voqBytes[q] = after;
    sumBytes[ov]! += delta;
    if (before === 0 && after > 0) inputsWithData[ov]!++;
    else if (before > 0 && after === 0) inputsWithData[ov]!--;
    if (t === null) return;
    voqsAboveHigh[ov]! += +(after > t.high) - +(before > t.high);
    voqsAboveLow[ov]! += +(after > t.low) - +(before > t.low);
    if (congested[ov] === 0) {
      if (enters(ov, t.high) && (masked[out] === 1 || !views[out]!.isBlocked(vl))) {
        congested[ov] = 1;
        congestionEntries++;
      }
    } else if (leaves(ov, t.low)) {
      congested[ov] = 0;
    }
  };

  const byProbability = p.marking === "probability";
  const shouldMark = (ov: number): boolean => {
    if (p.markingRate === 0) return true;
    if (byProbability) return rng.bernoulli(1 / (p.markingRate + 1));
    // The spec's reading: Marking_Rate eligible packets pass between two marked ones.
    if (sinceMark[ov]! >= p.markingRate) {
      sinceMark[ov] = 0;
      return true;
    }
    sinceMark[ov]!++;
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
        congested[ov] === 1 &&
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
    create: (context) => createSwitchPart(p, context),
  };
}
