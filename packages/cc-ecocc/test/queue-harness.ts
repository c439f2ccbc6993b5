/**
 * What the unit tests of one input's queues stand on: a switch of `portCount` ports seen from
 * input 0, with output CAMs of 2 lines, and a host that records the messages sent, the roots
 * counted and the events.
 */
import { Scheduler } from "@cclab/core-des";
import { Packets, type QueueSetContext } from "@cclab/fabric";
import { idlePort } from "@cclab/fabric/testing";
import { type InputLine, OutputCams } from "../src/cam.js";
import type { HotQueuesHost } from "../src/hot-queues.js";
import type { MessageType } from "../src/messages.js";

export function queueHarness(portCount: number) {
  const packets = new Packets();
  const cams = new OutputCams(portCount, 2);
  const sent: { type: MessageType; id: number; hops: number; dList: number[] }[] = [];
  const roots = new Int32Array(portCount);
  const counts: Record<string, number> = {};
  const host: HotQueuesHost = {
    dListCap: 4,
    outputLineFor: (port, dst) => cams.matching(port, dst),
    rootCount: (out, delta) => {
      roots[out]! += delta;
    },
    send: (_inPort, type, line: InputLine) => {
      sent.push({ type, id: line.id, hops: line.hops, dList: [...line.dList] });
    },
    count: (event) => {
      counts[event] = (counts[event] ?? 0) + 1;
    },
  };
  const context: QueueSetContext = {
    switchIndex: 0,
    inPort: 0,
    vl: 0,
    portCount,
    hostCount: 16,
    packets,
    scheduler: new Scheduler(),
    port: () => idlePort(),
    sendOnPort: () => {},
    wake: () => {},
  };
  /** A data packet to `dst` routed to output `out`. */
  const packet = (out: number, dst: number) => {
    const p = packets.create({ kind: "data", sizeBytes: 2048, dstHost: dst });
    packets.outPort[p] = out;
    return p;
  };
  const types = () => sent.map((m) => m.type);
  return { packets, cams, sent, types, roots, counts, host, context, packet };
}
