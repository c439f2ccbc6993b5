import {
  DATA_KIND,
  FROM_SWITCH_CONTROL,
  type PacketId,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import {
  BcnType,
  COLUMN,
  CONTROL_LANE,
  cpidOf,
  LANES,
  MAX_CP_PORTS,
  MAX_CP_VLS,
} from "./frames.js";
import { type E2cmParams, feedback } from "./params.js";

/**
 * The BCN congestion point (docs/design/e2cm.md, "Congestion point"): every output queue (port
 * and VL) of the switch. Its length Q is what waits in the switch for that output, from the
 * arrival of a packet at its input until it starts on the output link (the output queue of
 * E2CM's switch, whose memory is partitioned per input and shared by all outputs, seed
 * 003_b214e58ba856b6a6.txt L298–301). Each arriving data frame is sampled with probability
 * size / sampleEveryBytes (one sample per 75 KB on average, L320); on a sample, with Q counting
 * the frame, Qoff = Qeq − Q and Qdelta = Q − Qold (Qold: Q at the queue's previous sample), and
 * a BCN frame goes back to the frame's source:
 * - BCN_MAX when bcnMax is on and Q > Qsc (L323); else BCN(0,0) when bcnZero is on and Q > Qsc;
 * - a negative BCN when Fb = Qoff − W·Qdelta (saturated) is below 0;
 * - a positive BCN when Fb > 0 and the frame's CM tag names this congestion point: only a
 *   flow this point already slowed is told to speed up;
 * - nothing otherwise.
 */
export function createSwitchPart(p: E2cmParams, context: SwitchPartContext): SwitchPart {
  const ports = context.portCount;
  const vls = context.port(0).vlCount;
  if (ports > MAX_CP_PORTS || vls > MAX_CP_VLS) {
    throw new RangeError(
      `e2cm: a congestion point id holds at most ${MAX_CP_PORTS} ports and ${MAX_CP_VLS} VLs per switch; switch ${context.switchIndex} has ${ports} ports and ${vls} VLs`,
    );
  }
  const packets = context.packets;
  const rng = context.rng;
  const controlVl = context.lanes[CONTROL_LANE]!;
  const type = packets.column(COLUMN.type, Uint8Array);
  const cpid = packets.column(COLUMN.cpid, Int32Array);
  const qoffColumn = packets.column(COLUMN.qoffBytes, Float64Array);
  const qdeltaColumn = packets.column(COLUMN.qdeltaBytes, Float64Array);
  // Per output port and VL, at [out * vls + vl].
  const queued = new Float64Array(ports * vls);
  const queuedAtSample = new Float64Array(ports * vls);
  const counts = { samples: 0, bcnNegative: 0, bcnPositive: 0, bcnMax: 0, bcnZero: 0 };

  const send = (data: PacketId, kind: number, id: number, qoff: number, qdelta: number) => {
    const now = context.scheduler.nowPs;
    const frame = packets.create({
      kind: "bcn",
      sizeBytes: p.bcnFrameBytes,
      flowId: packets.flowId[data]!,
      srcHost: packets.dstHost[data]!,
      dstHost: packets.srcHost[data]!,
      sl: packets.sl[data]!,
      vl: controlVl,
      createdPs: now,
      injectedPs: now,
    });
    type.values[frame] = kind;
    cpid.values[frame] = id;
    qoffColumn.values[frame] = qoff;
    qdeltaColumn.values[frame] = qdelta;
    context.sendControl(frame);
  };

  const sample = (packet: PacketId, q: number, queue: number, outPort: number): void => {
    counts.samples++;
    const qoff = p.qeqBytes - q;
    const qdelta = q - queuedAtSample[queue]!;
    queuedAtSample[queue] = q;
    const id = cpidOf(context.switchIndex, outPort, packets.vl[packet]!);
    if (q > p.qscBytes && (p.bcnMax || p.bcnZero)) {
      const kind = p.bcnMax ? BcnType.bcnMax : BcnType.bcnZero;
      if (p.bcnMax) counts.bcnMax++;
      else counts.bcnZero++;
      send(packet, kind, id, qoff, qdelta);
      return;
    }
    const fb = feedback(qoff, qdelta, p.qeqBytes, p.w);
    if (fb < 0) {
      counts.bcnNegative++;
      send(packet, BcnType.bcn, id, qoff, qdelta);
    } else if (fb > 0 && cpid.values[packet] === id) {
      counts.bcnPositive++;
      send(packet, BcnType.bcn, id, qoff, qdelta);
    }
  };

  return {
    onEnqueue(packet: PacketId): void {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const outPort = packets.outPort[packet]!;
      const queue = outPort * vls + packets.vl[packet]!;
      const size = packets.sizeBytes[packet]!;
      const q = queued[queue]! + size;
      queued[queue] = q;
      if (rng.uniform() * p.sampleEveryBytes < size) sample(packet, q, queue, outPort);
    },
    onTransmit(packet: PacketId, inPort: number, outPort: number): void {
      if (inPort === FROM_SWITCH_CONTROL || packets.kindCode[packet] !== DATA_KIND) return;
      queued[outPort * vls + packets.vl[packet]!]! -= packets.sizeBytes[packet]!;
    },
    counters: () => ({ ...counts }),
  };
}

/** The congestion point's factory: it adds the control lane its BCN frames travel on. */
export function switchPartFactory(p: E2cmParams): SwitchPartFactory {
  return {
    specVersion: "^3.0.0",
    name: "bcn congestion point",
    lanes: LANES,
    writes: [COLUMN.type, COLUMN.cpid, COLUMN.qoffBytes, COLUMN.qdeltaBytes],
    create: (context) => createSwitchPart(p, context),
  };
}
