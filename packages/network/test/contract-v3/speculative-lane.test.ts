/**
 * Contract 3.0, sender control of lanes and droppable low-priority lanes, with a toy scheme in
 * the manner of SRP (seed 000_23e1115f082a0339.txt, Section 3): every message goes out on a
 * speculative low-priority lane; a switch drops a speculative packet that waited at a queue head
 * longer than a time and sends a NACK; the source resends it on its normal lane. Every message
 * must still be delivered exactly once.
 */
import { usToPs } from "@cclab/core-des";
import { type CcScheme, DATA_KIND, type LaneDeclaration } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { creditConservationViolation, Network } from "../../src/index.js";

const SPECULATIVE = "toy.speculative";
const LANES: readonly LaneDeclaration[] = [
  { name: SPECULATIVE, role: "low-priority", droppable: true },
  { name: "control", role: "control" },
];
const WAIT_PS = usToPs(1);

it("drops speculative packets past their wait, NACKs them, and every message arrives once", () => {
  const askedOnVl = new Set<number>();
  let nacks = 0;
  const scheme: CcScheme = {
    specVersion: "^3.0.0",
    name: "toy-speculative",
    switchPart: {
      specVersion: "^3.0.0",
      name: "drop-late-speculative",
      lanes: LANES,
      writes: ["toy.droppedId"],
      create: (sw) => {
        const enqueuedPs = sw.packets.column("toy.enqueuedPs", Float64Array);
        const droppedId = sw.packets.column("toy.droppedId", Int32Array);
        return {
          onEnqueue: (p) => {
            enqueuedPs.values[p] = sw.scheduler.nowPs;
          },
          dropAtHead: (p) => {
            const { packets } = sw;
            askedOnVl.add(packets.vl[p]!);
            if (sw.scheduler.nowPs - enqueuedPs.values[p]! < WAIT_PS) return false;
            const nack = packets.create({
              kind: "nack",
              sizeBytes: 64,
              vl: sw.lanes.control!,
              srcHost: packets.dstHost[p]!,
              dstHost: packets.srcHost[p]!,
              flowId: packets.flowId[p]!,
            });
            droppedId.values[nack] = p; // the column is re-read after create: it may have grown
            nacks++;
            sw.sendControl(nack);
            return true;
          },
        };
      },
    },
    senderPart: {
      specVersion: "^3.0.0",
      name: "speculate-then-resend",
      lanes: LANES,
      reads: ["toy.droppedId"],
      create: (host) => {
        const droppedId = host.packets.column("toy.droppedId", Int32Array);
        return {
          openFlow: (flow) => ({
            nextSendPs: () => 0,
            onMessage: () => host.setFlowVl(flow.flowId, host.lanes[SPECULATIVE]!),
          }),
          onControl: (p) => {
            const { packets } = host;
            if (packets.kind(p) !== "nack") return;
            const dropped = droppedId.values[p]!;
            packets.vl[dropped] = packets.sl[dropped]!; // back on its normal lane
            host.resend(dropped);
          },
        };
      },
    },
  };
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), { cc: scheme });
  // One data VL, then the lanes in the order first declared: speculative, control.
  expect(net.switchConfig.vlCount).toBe(3);
  expect(net.switchConfig.lowPriorityVls).toEqual([1]);
  expect(net.switchConfig.controlVls).toEqual([2]);
  const seen = new Map<string, number>();
  const speculative = new Set<string>();
  net.onDelivery((p) => {
    const { packets } = net;
    if (packets.kindCode[p] !== DATA_KIND) return;
    const key = `${packets.messageId[p]}/${packets.seqInMessage[p]}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (packets.vl[p] === 1) speculative.add(key);
  });
  for (const src of [0, 1])
    for (let m = 0; m < 3; m++) net.addMessage(src, { dstHost: 2, bytes: 20_000, startPs: 0 });
  let violation: string | undefined;
  net.run(undefined, () => {
    violation ??= creditConservationViolation(net);
    return false;
  });
  expect(violation).toBeUndefined();
  const dropped = net.switches[0]!.droppedPackets;
  expect(dropped).toBeGreaterThan(0);
  expect(nacks).toBe(dropped);
  expect(net.hosts[0]!.packetsResent + net.hosts[1]!.packetsResent).toBe(dropped);
  expect(speculative.size).toBeGreaterThan(0); // some went through speculatively
  expect(seen.size).toBe(60); // 6 messages of 10 packets
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
  expect(net.hosts[2]!.completions.map((c) => c.bytes)).toEqual(Array(6).fill(20_000));
  // dropAtHead was asked for heads of the declared droppable lane only.
  expect([...askedOnVl]).toEqual([1]);
});
