/**
 * The contract's version ranges end to end: contract 3.0 only added optional members to 2.0,
 * so a scheme written against version 2 (`specVersion: 2` everywhere, only version-2 hooks)
 * runs unchanged beside one that states `"^3.0.0"`; a range holding no version this fabric
 * implements, or one that is not a range, is refused when the network is built.
 */
import { usToPs } from "@cclab/core-des";
import {
  type CcScheme,
  DATA_KIND,
  IntFifo,
  NO_PACKET,
  type PacketId,
  type QueueingPart,
  type SpecVersionRange,
} from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Network } from "../src/index.js";

const topology = () => singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 });
const gapPs = usToPs(3); // longer than one packet time (2074 B at 10 Gb/s = 1.66 µs)

/** One FIFO per input port and VL, as a version-2 queueing part wrote it. */
const fifo = (specVersion: SpecVersionRange): QueueingPart => ({
  specVersion,
  name: "toy fifo",
  create: ({ packets }) => {
    const queue = new IntFifo(16);
    return {
      get packetCount() {
        return queue.length;
      },
      enqueue: (packet: PacketId) => queue.push(packet),
      headFor: (outPort: number) => {
        const head = queue.peek();
        return head !== NO_PACKET && packets.outPort[head] === outPort ? head : NO_PACKET;
      },
      dequeueFor: () => queue.shift(),
    };
  },
});

/**
 * A scheme with every part and only version-2 hooks: the switch marks FECN on data, the
 * receiver answers each data packet with an ACK carrying it as BECN, the sender spaces a
 * flow's packets by `gapPs` and counts the BECNs.
 */
function toyScheme(specVersion: SpecVersionRange, log: { sentAt: number[]; becns: number }) {
  const scheme: CcScheme = {
    specVersion,
    name: `toy ${String(specVersion)}`,
    queueingPart: fifo(specVersion),
    switchPart: {
      specVersion,
      name: "mark data",
      create: ({ packets }) => ({
        onTransmit: (packet) => {
          if (packets.kindCode[packet] === DATA_KIND) packets.fecn[packet] = 1;
        },
      }),
    },
    receiverPart: {
      specVersion,
      name: "ack",
      create: (context) => ({
        onData: (packet) => {
          const { packets } = context;
          context.sendControl(
            packets.create({
              kind: "ack",
              sizeBytes: context.controlPacketBytes,
              dstHost: packets.srcHost[packet]!,
              flowId: packets.flowId[packet]!,
              becn: packets.fecn[packet] === 1,
            }),
          );
        },
      }),
    },
    senderPart: {
      specVersion,
      name: "fixed gap",
      create: (context) => {
        let next = 0;
        return {
          openFlow: () => ({
            nextSendPs: () => next,
            onSent: () => {
              log.sentAt.push(context.scheduler.nowPs);
              next = context.scheduler.nowPs + gapPs;
            },
          }),
          onControl: (packet) => {
            if (context.packets.becn[packet] === 1) log.becns++;
          },
        };
      },
    },
  };
  return scheme;
}

function run(scheme: CcScheme) {
  const net = new Network(topology(), { cc: scheme });
  net.addMessage(0, { dstHost: 2, bytes: 5 * 2048, startPs: 0 });
  net.run();
  return net.hosts[2]!.completions.map((c) => c.bytes);
}

describe("contract versions", () => {
  it.each<SpecVersionRange>([2, "^2.0.0", "^3.0.0", "^3", "~3.0", ">=2 <4", "3.x", "2 || 3"])(
    "runs a scheme whose every part states %o, and delivers",
    (specVersion) => {
      const log = { sentAt: [] as number[], becns: 0 };
      expect(run(toyScheme(specVersion, log))).toEqual([5 * 2048]);
      expect(log.sentAt).toEqual([0, 1, 2, 3, 4].map((i) => i * gapPs));
      expect(log.becns).toBe(5);
    },
  );

  it("runs a version-2 scheme on some hosts beside a version-3 one on others", () => {
    const v2 = { sentAt: [] as number[], becns: 0 };
    const v3 = { sentAt: [] as number[], becns: 0 };
    const net = new Network(topology(), {
      cc: toyScheme(2, v2),
      hostCc: [undefined, toyScheme("^3.0.0", v3)],
    });
    net.addMessage(0, { dstHost: 2, bytes: 3 * 2048, startPs: 0 });
    net.addMessage(1, { dstHost: 2, bytes: 3 * 2048, startPs: 0 });
    net.run();
    expect(net.hosts[2]!.completions.map((c) => c.bytes)).toEqual([3 * 2048, 3 * 2048]);
    expect([v2.sentAt.length, v3.sentAt.length]).toEqual([3, 3]);
  });

  const log = () => ({ sentAt: [] as number[], becns: 0 });
  const refusals: [string, () => CcScheme, RegExp][] = [
    [
      "a scheme for contract 4",
      () => toyScheme("^4.0.0", log()),
      /^cc scheme "toy \^4\.0\.0" supports @cclab\/fabric contract "\^4\.0\.0"; this fabric implements 3\.5\.0 \(and 3\.4\.0, 3\.3\.0, 3\.2\.0, 3\.1\.0, 3\.0\.0, 2\.0\.0\)$/,
    ],
    [
      "a version-3 scheme with a switch part for contract 4",
      () => ({
        ...toyScheme("^3.0.0", log()),
        switchPart: { specVersion: "^4.0.0", name: "next", create: () => ({}) },
      }),
      /^switch part "next" supports @cclab\/fabric contract "\^4\.0\.0"; this fabric implements 3\.5\.0 \(and 3\.4\.0, 3\.3\.0, 3\.2\.0, 3\.1\.0, 3\.0\.0, 2\.0\.0\)$/,
    ],
    [
      "a queueing part of major 4",
      () => ({ ...toyScheme(2, log()), queueingPart: fifo(4) }),
      /^queueing part "toy fifo" supports @cclab\/fabric contract specVersion 4 \(\^4\.0\.0\); this fabric implements 3\.5\.0 \(and 3\.4\.0, 3\.3\.0, 3\.2\.0, 3\.1\.0, 3\.0\.0, 2\.0\.0\)$/,
    ],
    [
      "a range that is not one",
      () => toyScheme("banana", log()),
      /^cc scheme "toy banana" has specVersion "banana", which is not a version range: cannot read "banana" \(.+\); state a semver range such as "\^3\.5\.0" or a major version number such as 3$/,
    ],
    [
      "a sender part whose range is malformed",
      () => ({
        ...toyScheme("^3.0.0", log()),
        senderPart: {
          specVersion: ">=3 <",
          name: "odd",
          create: () => ({ openFlow: () => ({ nextSendPs: () => 0 }) }),
        },
      }),
      /^sender part "odd" has specVersion ">=3 <", which is not a version range: cannot read "<"/,
    ],
  ];
  it.each(refusals)("refuses %s with a clear message", (_, scheme, message) => {
    expect(() => run(scheme())).toThrow(message);
    expect(() => run(scheme())).toThrow(TypeError);
  });
});
