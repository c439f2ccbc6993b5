import {
  DATA_KIND,
  type PacketId,
  type QueueSetContext,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "@cclab/fabric";
import { type InputLine, OutputCams, type OutputLine } from "./cam.js";
import { NfqQueues } from "./ccfit-queues.js";
import {
  HotFlowQueues,
  type HotQueuesHost,
  type IsolatingQueues,
  type QueueEvent,
} from "./hot-queues.js";
import { memoryOf } from "./memory.js";
import { CONTROL_LANE, ECOCC_LANES, type MessageType, makeMessage, messageOf } from "./messages.js";
import { dListCapFor, type EcoccParams } from "./params.js";

type Counter =
  | QueueEvent
  | "allocateSent"
  | "stopSent"
  | "goSent"
  | "deallocateSent"
  | "outputLinesRefused"
  | "fecnMarked";

/**
 * EcoCC (or HFDI) at one switch (Paper VI, seed 001 L2245–2307): it builds the hot-flow queues
 * of every data VL's inputs ({@link HotFlowQueues}), keeps the output CAMs that the downstream
 * neighbours' messages fill, counts per output the CPQs above HTh (the congestion state,
 * L2269), and, with throttling, FECN-marks the data packets a congested output sends as
 * InfiniBand CC does (Marking_Rate, Packet_Size; L2305).
 */
export function createSwitchPart(p: EcoccParams, context: SwitchPartContext): SwitchPart {
  const ports = context.portCount;
  const packets = context.packets;
  const controlVl = context.lanes[CONTROL_LANE]!;
  const cams = new OutputCams(ports, p.outputCamLines);
  /** Per output: CPQs above HTh at any input (the port is congested while > 0). */
  const rootCpqs = new Int32Array(ports);
  /** Queue sets by input port (data VLs of that port). */
  const inputs: IsolatingQueues[][] = Array.from({ length: ports }, () => []);
  const counts: Record<Counter, number> = {
    hotQueueAllocated: 0,
    hotQueueReleased: 0,
    hotQueueMisses: 0,
    rootsDetected: 0,
    allocateSent: 0,
    stopSent: 0,
    goSent: 0,
    deallocateSent: 0,
    outputLinesRefused: 0,
    fecnMarked: 0,
  };
  const minMarkBytes = (p.throttle?.packetSize64B ?? 0) * 64;
  const markProbability = p.markProbability;
  let hostCount = 0;

  const sentKey = {
    allocate: "allocateSent",
    stop: "stopSent",
    go: "goSent",
    deallocate: "deallocateSent",
  } as const satisfies Record<MessageType, Counter>;

  const host = (dListCap: number): HotQueuesHost => ({
    dListCap,
    outputLineFor: (port, dst) => cams.matching(port, dst),
    rootCount: (out, delta) => {
      rootCpqs[out]! += delta;
    },
    send: (inPort: number, type: MessageType, line: InputLine) => {
      const now = context.scheduler.nowPs;
      const message = { type, line: line.id, hops: line.hops, dList: [...line.dList] };
      context.sendOnPort(inPort, makeMessage(packets, message, p.messageBytes, controlVl, now));
      counts[sentKey[type]]++;
    },
    count: (event) => {
      counts[event]++;
    },
  });

  const lineAdded = (port: number, line: OutputLine): void => {
    for (const sets of inputs) for (const set of sets) set.outputLineAdded(port, line);
  };

  return {
    createQueueSet(queues: QueueSetContext) {
      if (queues.vl === controlVl) return undefined;
      hostCount = queues.hostCount;
      const cap = dListCapFor(p, queues.hostCount);
      const sets = inputs[queues.inPort]!;
      const set =
        p.ccfit === null
          ? new HotFlowQueues(queues, p.hotQueues, host(cap), p, sets.length)
          : new NfqQueues(queues, p.hotQueues, host(cap), p.ccfit, sets.length);
      sets.push(set);
      return set;
    },

    // A message from the device downstream of output `port` (Events #2, #4, #8 seen upstream).
    onLinkControl(packet: PacketId, port: number): void {
      const m = messageOf(packets, packet);
      if (m === undefined) return;
      if (m.type === "allocate") {
        const line = cams.allocate(port, m.line, m.hops, new Set(m.dList));
        if (line === undefined) counts.outputLinesRefused++;
        else lineAdded(port, line);
        return;
      }
      const line = m.type === "deallocate" ? cams.free(port, m.line) : cams.find(port, m.line);
      if (line === undefined) return; // refused when it was allocated
      if (m.type === "stop") {
        line.stop = true;
        return;
      }
      line.stop = false;
      if (m.type === "deallocate") for (const own of [...line.linked]) own.unlink();
      context.wake(port);
    },

    onTransmit(packet: PacketId, _inPort: number, outPort: number): void {
      if (
        markProbability > 0 &&
        rootCpqs[outPort]! > 0 &&
        packets.kindCode[packet] === DATA_KIND &&
        packets.sizeBytes[packet]! >= minMarkBytes &&
        (markProbability === 1 || context.rng.bernoulli(markProbability))
      ) {
        if (packets.fecn[packet] === 0) counts.fecnMarked++;
        packets.fecn[packet] = 1;
      }
    },

    counters: () => ({ ...counts, ...memoryOf(p, ports, hostCount, inputs.flat().length) }),

    sampleQueues(visit): void {
      for (let port = 0; port < ports; port++) {
        const sets = inputs[port]!;
        for (let k = 0; k < sets.length; k++) {
          const set = sets[k]!;
          visit(port, set.vl, "freeHotQueues", set.freeHotQueues);
          visit(port, set.vl, "inputLines", set.linesInUse);
        }
        visit(port, 0, "outputLines", cams.inUse(port));
        visit(port, 0, "congestedCpqs", rootCpqs[port]!);
      }
    },
  };
}

/** The switch part's factory, for a scheme. */
export function switchPartFactory(p: EcoccParams): SwitchPartFactory {
  return {
    specVersion: "^3.3.0",
    name: `${p.variant} switch (isolation${p.throttle === null ? "" : ", FECN marking"})`,
    lanes: ECOCC_LANES,
    ...(p.throttle === null ? {} : { writes: ["fecn"] as const }),
    create: (context) => createSwitchPart(p, context),
  };
}
