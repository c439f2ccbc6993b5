/**
 * The plugin contract end to end with a toy scheme: a sender part that spaces a flow's packets
 * by a fixed gap, a receiver part that answers every data packet with an ACK, and a switch
 * part that marks FECN on packets it forwards. Proves each hook is called with what the
 * contract promises; real schemes arrive in their own packages.
 */
import { usToPs } from "@cclab/core-des";
import { type CcScheme, Packet } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { creditConservationViolation, Network } from "../src/index.js";

it("calls sender, receiver and switch parts, and carries control packets back", () => {
  const gapPs = usToPs(3); // longer than one packet time (2074 B at 10 Gb/s = 1.66 µs)
  const acks: number[] = [];
  const sentAt: number[] = [];
  const scheme: CcScheme = {
    specVersion: 1,
    name: "toy",
    switchPart: {
      specVersion: 1,
      name: "mark-all",
      create: () => ({
        onTransmit: (packet) => {
          if (packet.kind === "data") packet.fecn = true;
        },
      }),
    },
    receiverPart: {
      specVersion: 1,
      name: "ack",
      create: (context) => ({
        onData: (packet) => {
          const ack = new Packet();
          ack.kind = "ack";
          ack.sizeBytes = context.controlPacketBytes;
          ack.dstHost = packet.srcHost;
          ack.flowId = packet.flowId;
          ack.becn = packet.fecn;
          context.sendControl(ack);
        },
      }),
    },
    senderPart: {
      specVersion: 1,
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
            if (packet.kind === "ack" && packet.becn) acks.push(packet.flowId);
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
  const scheme = { specVersion: 2, name: "future" } as unknown as CcScheme;
  expect(
    () => new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), { cc: scheme }),
  ).toThrow(/specVersion 2; this fabric implements 1/);
});

it("adds the VLs a switch part asks for as control lanes", () => {
  const scheme: CcScheme = {
    specVersion: 1,
    name: "needs a lane",
    switchPart: { specVersion: 1, name: "lane", extraVls: 1, create: () => ({}) },
  };
  const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), {
    cc: scheme,
    switch: { vlCount: 2 },
  });
  expect(net.switchConfig.vlCount).toBe(3);
  expect(net.switchConfig.controlVls).toEqual([2]);
});

it("lets a switch part drop heads it may drop; the source resends and every message completes once", () => {
  const retried = new WeakSet<Packet>();
  const scheme: CcScheme = {
    specVersion: 1,
    name: "drop and resend",
    switchPart: {
      specVersion: 1,
      name: "drop every third packet once",
      create: (sw) => ({
        dropAtHead: (packet) => {
          if (packet.kind !== "data" || packet.seqInMessage % 3 !== 1 || retried.has(packet))
            return false;
          const nack = new Packet();
          nack.kind = "nack";
          nack.sizeBytes = 64;
          nack.srcHost = packet.dstHost;
          nack.dstHost = packet.srcHost;
          nack.control = packet;
          sw.sendControl(nack);
          return true;
        },
      }),
    },
    senderPart: {
      specVersion: 1,
      name: "resend on nack",
      create: (host) => ({
        openFlow: () => ({ nextSendPs: () => 0 }),
        onControl: (packet) => {
          if (packet.kind !== "nack") return;
          const dropped = packet.control as Packet;
          retried.add(dropped);
          host.resend(dropped);
        },
      }),
    },
  };
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), { cc: scheme });
  const seen = new Map<string, number>();
  net.onDelivery((p) => {
    if (p.kind === "data")
      seen.set(
        `${p.messageId}/${p.seqInMessage}`,
        (seen.get(`${p.messageId}/${p.seqInMessage}`) ?? 0) + 1,
      );
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
