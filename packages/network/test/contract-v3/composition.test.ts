/**
 * Contract 3.0, composition by declaration and several schemes in one fabric: parts state the
 * lanes and header fields they need and provide; the network refuses combinations that cannot
 * work, naming both parts, before anything runs; and two host groups may run two schemes whose
 * switch parts share the switches, each seeing its own group's lanes.
 */
import { type CcScheme, DATA_KIND, Ecn, MAX_VLS, type SenderPartFactory } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Network } from "../../src/index.js";

const topology = () => singleSwitch({ hosts: 6, rateGbps: 10, latencyNs: 10 });
const noGate: SenderPartFactory = {
  specVersion: "^3.0.0",
  name: "open",
  create: () => ({ openFlow: () => ({ nextSendPs: () => 0 }) }),
};

describe("composition by declaration", () => {
  it("rejects two parts that declare one lane with different roles, naming both", () => {
    const a: CcScheme = {
      specVersion: "^3.0.0",
      name: "A",
      switchPart: {
        specVersion: "^3.0.0",
        name: "a-switch",
        lanes: [{ name: "shared", role: "control" }],
        create: () => ({}),
      },
    };
    const b: CcScheme = {
      specVersion: "^3.0.0",
      name: "B",
      senderPart: {
        ...noGate,
        name: "b-sender",
        lanes: [{ name: "shared", role: "low-priority" }],
      },
    };
    expect(() => new Network(topology(), { cc: a, hostCc: [b] })).toThrow(
      'cc: lane "shared" is a control lane for switch part "a-switch" of scheme "A" but a low-priority lane for sender part "b-sender" of scheme "B"',
    );
  });

  it("rejects lanes beyond the 1024 VLs a port may have, listing what each part adds", () => {
    const many = (name: string, count: number): CcScheme => ({
      specVersion: "^3.0.0",
      name,
      switchPart: {
        specVersion: "^3.0.0",
        name,
        lanes: Array.from({ length: count }, (_, i) => ({
          name: `${name}.l${i}`,
          role: "control" as const,
        })),
        create: () => ({}),
      },
    });
    const options = { cc: many("x", 8), switchCc: [{ scheme: many("y", 8) }] };
    expect(
      () => new Network(topology(), { ...options, switch: { vlCount: MAX_VLS - 16 } }).switchConfig,
    ).not.toThrow();
    expect(() => new Network(topology(), { ...options, switch: { vlCount: 1009 } })).toThrow(
      /the lanes make 1025 VLs, more than the 1024 a port may have: 1009 data VLs; switch part "x" of scheme "x" adds 8; switch part "y" of scheme "y" adds 8/,
    );
  });

  it("rejects two switch parts that write one field on the same switches, and a reaction without its detector", () => {
    const marker = (name: string, field: "ecn" | "fecn"): CcScheme => ({
      specVersion: "^3.0.0",
      name,
      switchPart: { specVersion: "^3.0.0", name, writes: [field], create: () => ({}) },
    });
    expect(
      () =>
        new Network(topology(), {
          cc: marker("red", "ecn"),
          switchCc: [{ scheme: marker("tcd", "ecn") }],
        }),
    ).toThrow(
      /switch part "red" of scheme "red" and switch part "tcd" of scheme "tcd" both write ecn/,
    );
    const fecnReaction: CcScheme = {
      specVersion: "^3.0.0",
      name: "ib-like",
      receiverPart: {
        specVersion: "^3.0.0",
        name: "fecn-to-becn",
        reads: ["fecn"],
        create: () => ({}),
      },
    };
    expect(
      () => new Network(topology(), { cc: marker("red", "ecn"), hostCc: [fecnReaction] }),
    ).toThrow(
      'cc: receiver part "fecn-to-becn" of scheme "ib-like" reads fecn, which no part of the fabric writes (switch part "red" of scheme "red" writes ecn)',
    );
  });
});

describe("two schemes on two host groups of one fabric", () => {
  // Scheme A marks FECN and its receivers answer with x-a notifications; scheme B marks ECN CE
  // and answers with x-b ones. Group A (hosts 0, 1 → 2) sends on SL 0, group B (3, 4 → 5) on
  // SL 1; A's switch part sees VL 0, B's VL 1.
  const notified = { a: [] as number[], b: [] as number[] };
  const scheme = (name: "a" | "b", field: "fecn" | "ecn"): CcScheme => ({
    specVersion: "^3.0.0",
    name,
    switchPart: {
      specVersion: "^3.0.0",
      name: `${name}-mark`,
      writes: [field],
      create: ({ packets }) => ({
        onTransmit: (p) => {
          if (packets.kindCode[p] !== DATA_KIND) return;
          if (field === "fecn") packets.fecn[p] = 1;
          else packets.ecn[p] = Ecn.congestion;
        },
      }),
    },
    receiverPart: {
      specVersion: "^3.0.0",
      name: `${name}-notify`,
      reads: [field],
      create: (host) => ({
        onData: (p) => {
          const { packets } = host;
          const marked =
            field === "fecn" ? packets.fecn[p] === 1 : packets.ecn[p] === Ecn.congestion;
          if (!marked) return;
          host.sendControl(
            packets.replyTo(
              p,
              packets.kindCodeOf(`x-${name}`),
              64,
              packets.sl[p]!,
              host.scheduler.nowPs,
            ),
          );
        },
      }),
    },
    senderPart: {
      ...noGate,
      name: `${name}-react`,
      create: (host) => ({
        openFlow: () => ({ nextSendPs: () => 0 }),
        onControl: (p) => {
          if (host.packets.kind(p) === `x-${name}`) notified[name].push(host.packets.flowId[p]!);
        },
      }),
    },
  });

  it("marks each group's packets with its own scheme only, and each group reacts to its own signals", () => {
    const a = scheme("a", "fecn");
    const b = scheme("b", "ecn");
    const net = new Network(topology(), {
      switch: { vlCount: 2 },
      hostCc: [a, a, a, b, b, b],
      switchCc: [
        { scheme: a, vls: [0] },
        { scheme: b, vls: [1] },
      ],
    });
    const marks: { sl: number; fecn: number; ecn: number }[] = [];
    net.onDelivery((p) => {
      const { packets } = net;
      if (packets.kindCode[p] === DATA_KIND)
        marks.push({ sl: packets.sl[p]!, fecn: packets.fecn[p]!, ecn: packets.ecn[p]! });
    });
    for (const src of [0, 1])
      net.addMessage(src, { dstHost: 2, bytes: 10 * 2048, startPs: 0, sl: 0 });
    for (const src of [3, 4])
      net.addMessage(src, { dstHost: 5, bytes: 10 * 2048, startPs: 0, sl: 1 });
    net.run();
    expect(marks).toHaveLength(40);
    expect(marks.filter((m) => m.sl === 0).every((m) => m.fecn === 1 && m.ecn === 0)).toBe(true);
    expect(
      marks.filter((m) => m.sl === 1).every((m) => m.fecn === 0 && m.ecn === Ecn.congestion),
    ).toBe(true);
    const groupOf = (flowId: number) => Math.floor(flowId / (6 * 2)); // the flow's source host
    expect(notified.a).toHaveLength(20);
    expect(notified.b).toHaveLength(20);
    expect(notified.a.every((f) => [0, 1].includes(groupOf(f)))).toBe(true);
    expect(notified.b.every((f) => [3, 4].includes(groupOf(f)))).toBe(true);
  });
});
