/**
 * The plugin contract end to end with a toy scheme: a sender part that spaces a flow's packets
 * by a fixed gap, a receiver part that answers every data packet with an ACK, and a switch
 * part that marks FECN on packets it forwards. Proves each hook is called with what the
 * contract promises; real schemes arrive in their own packages.
 */
import { usToPs } from "@cclab/core-des";
import { type CcScheme, DATA_KIND, type PacketId } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { creditConservationViolation, Network } from "../src/index.js";

it("calls sender, receiver and switch parts, and carries control packets back", () => {
  const gapPs = usToPs(3); // longer than one packet time (2074 B at 10 Gb/s = 1.66 µs)
  const acks: number[] = [];
  const sentAt: number[] = [];
  const scheme: CcScheme = {
    specVersion: 2,
    name: "toy",
    switchPart: {
      specVersion: 2,
      name: "mark-all",
      create: ({ packets }) => ({
        onTransmit: (packet) => {
          if (packets.kindCode[packet] === DATA_KIND) packets.fecn[packet] = 1;
        },
      }),
    },
    receiverPart: {
      specVersion: 2,
      name: "ack",
      create: (context) => ({
        onData: (packet) => {
          const { packets } = context;
          const ack = packets.create({
            kind: "ack",
            sizeBytes: context.controlPacketBytes,
            dstHost: packets.srcHost[packet]!,
            flowId: packets.flowId[packet]!,
            becn: packets.fecn[packet] === 1,
          });
          context.sendControl(ack);
        },
      }),
    },
    senderPart: {
      specVersion: 2,
      name: "fixed gap",
      create: (context) => {
        let next = 0;
        return {
          openFlow: () => ({
            nextSendPs: () => next,
            onSent: () => {
              sentAt.push(context.scheduler.nowPs);
              next = context.scheduler.nowPs + gapPs;
            },
          }),
          onControl: (packet) => {
            const { packets } = context;
            if (packets.kind(packet) === "ack" && packets.becn[packet] === 1) {
              acks.push(packets.flowId[packet]!);
            }
          },
        };
      },
    },
  };
  const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), { cc: scheme });
  net.addMessage(0, { dstHost: 1, bytes: 5 * 2048, startPs: 0 });
  net.run();
  expect(sentAt).toEqual([0, 1, 2, 3, 4].map((i) => i * gapPs));
  expect(acks).toEqual([1, 1, 1, 1, 1]);
  expect(net.hosts[1]!.completions[0]!.bytes).toBe(5 * 2048);
});

it("rejects a plugin written for another contract version", () => {
  const scheme = { specVersion: 1, name: "past" } as unknown as CcScheme;
  expect(
    () => new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), { cc: scheme }),
  ).toThrow(
    /specVersion 1 \(\^1\.0\.0\); this fabric implements 3\.5\.0 \(and 3\.4\.0, 3\.3\.0, 3\.2\.0, 3\.1\.0, 3\.0\.0, 2\.0\.0\)/,
  );
});

it("adds the VLs a switch part asks for as control lanes", () => {
  const scheme: CcScheme = {
    specVersion: 2,
    name: "needs a lane",
    switchPart: { specVersion: 2, name: "lane", extraVls: 1, create: () => ({}) },
  };
  const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), {
    cc: scheme,
    switch: { vlCount: 2 },
  });
  expect(net.switchConfig.vlCount).toBe(3);
  expect(net.switchConfig.controlVls).toEqual([2]);
});

it("tells dropAtHead whether the head has room past the crossbar (contract 3.5)", () => {
  const seen: boolean[] = [];
  let mismatches = 0;
  const scheme: CcScheme = {
    specVersion: "^3.5.0",
    name: "room probe",
    switchPart: {
      specVersion: "^3.5.0",
      name: "records hasRoom",
      create: (sw) => ({
        dropAtHead: (packet, _inPort, hasRoom) => {
          const { packets } = sw;
          const s = net.switches[0]!;
          const room = s.hasRoom(
            packets.outPort[packet]!,
            packets.vl[packet]!,
            packets.sizeBytes[packet]!,
          );
          if (room !== hasRoom) mismatches++;
          seen.push(hasRoom);
          return false;
        },
      }),
    },
  };
  // An incast into two-packet output buffers: they fill, so heads are asked both with and without room.
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), {
    cc: scheme,
    switch: { outputBufferBytes: 4200, speedup: 2 },
  });
  for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 40_000, startPs: 0 });
  net.run();
  expect(mismatches).toBe(0);
  expect(seen.filter((r) => r).length).toBeGreaterThan(0);
  expect(seen.filter((r) => !r).length).toBeGreaterThan(0);
  expect(net.hosts[2]!.completions).toHaveLength(2);
});

it("lets a switch part drop heads it may drop; the source resends and every message completes once", () => {
  // Packets are told apart by message and sequence number: an id is reused once delivered.
  const retried = new Set<string>();
  const scheme: CcScheme = {
    specVersion: 2,
    name: "drop and resend",
    switchPart: {
      specVersion: 2,
      name: "drop every third packet once",
      create: (sw) => ({
        dropAtHead: (packet) => {
          const { packets } = sw;
          const key = `${packets.messageId[packet]}/${packets.seqInMessage[packet]}`;
          if (
            packets.kindCode[packet] !== DATA_KIND ||
            packets.seqInMessage[packet]! % 3 !== 1 ||
            retried.has(key)
          )
            return false;
          const nack = packets.create({
            kind: "nack",
            sizeBytes: 64,
            srcHost: packets.dstHost[packet]!,
            dstHost: packets.srcHost[packet]!,
            control: { dropped: packet, key },
          });
          sw.sendControl(nack);
          return true;
        },
      }),
    },
    senderPart: {
      specVersion: 2,
      name: "resend on nack",
      create: (host) => ({
        openFlow: () => ({ nextSendPs: () => 0 }),
        onControl: (packet) => {
          if (host.packets.kind(packet) !== "nack") return;
          const { dropped, key } = host.packets.control[packet] as {
            dropped: PacketId;
            key: string;
          };
          retried.add(key);
          host.resend(dropped);
        },
      }),
    },
  };
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), { cc: scheme });
  const seen = new Map<string, number>();
  net.onDelivery((p) => {
    const { packets } = net;
    if (packets.kindCode[p] !== DATA_KIND) return;
    const key = `${packets.messageId[p]}/${packets.seqInMessage[p]}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
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
  // 20 000 B = 10 packets per message (seq 1, 4, 7 dropped once): 3 per message, 6 messages.
  expect(dropped).toBe(18);
  expect(net.hosts[0]!.packetsResent + net.hosts[1]!.packetsResent).toBe(dropped);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
  expect(seen.size).toBe(60);
  expect(net.hosts[2]!.completions.map((c) => c.bytes)).toEqual(Array(6).fill(20_000));
});
