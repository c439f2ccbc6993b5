import { Scheduler, serializationPs } from "@cclab/core-des";
import { LINK_LOCAL, LinkSet, type PacketSnapshot, Packets, type SenderPart } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { Hca } from "./hca.js";
import { type HcaConfig, resolveHcaConfig } from "./hca-config.js";
import { registerHcaEvents } from "./hca-setup.js";

const RATE_GBPS = 10;
const LATENCY_PS = 100_000;

// Two hosts cabled back to back, credit flow control (or PFC): the smallest fabric a host runs
// in. They are hosts 0 and 1 of 2 unless `indices` and `hostCount` place them in a larger fabric.
function pair(
  config: Partial<HcaConfig> = {},
  vlCount = 1,
  latencyStats = true,
  {
    indices = [0, 1],
    hostCount = 2,
    pfc,
  }: {
    indices?: [number, number];
    hostCount?: number;
    /** PFC thresholds of the receive buffers: PFC instead of credits. */
    pfc?: { xoffBytes: number; xonBytes: number };
  } = {},
) {
  const scheduler = new Scheduler();
  const packets = new Packets();
  const discipline = pfc === undefined ? "credit" : "pfc";
  const links = new LinkSet(scheduler, packets, vlCount, discipline);
  const hosts: Hca[] = [];
  const kinds = registerHcaEvents(scheduler, hosts);
  let nextId = 0;
  // The event handlers find a host by its index.
  for (const index of indices) {
    hosts[index] = new Hca({
      index,
      name: `H${index}`,
      hostCount,
      vlCount,
      config: resolveHcaConfig(config),
      discipline,
      ...(pfc === undefined ? {} : { pfc }),
      scheduler,
      packets,
      links,
      kinds,
      nextMessageId: () => nextId++,
      latencyStats,
    });
  }
  const [a, b] = [hosts[indices[0]]!, hosts[indices[1]]!];
  const ab = links.add(RATE_GBPS, LATENCY_PS);
  const ba = links.add(RATE_GBPS, LATENCY_PS);
  a.attach(ab, ba);
  b.attach(ba, ab);
  a.uplinkFlow.credits.fill(b.inputCreditBlocks());
  b.uplinkFlow.credits.fill(a.inputCreditBlocks());
  ab.connect(a, 0, b, 0, b.receiveTiming());
  ba.connect(b, 0, a, 0, a.receiveTiming());
  // A delivered packet is freed after the listener: keep a copy of its fields.
  const received: { packet: PacketSnapshot; atPs: number }[] = [];
  b.onDelivery((packet, atPs) => received.push({ packet: packets.snapshot(packet), atPs }));
  return { scheduler, packets, ab, ba, a, b, received };
}

// A sender part whose gates hold the flows of service level `sl` until `untilPs`.
function holdingSl(sl: number, untilPs: number): SenderPart {
  return {
    openFlow: (flow) => ({
      nextSendPs: (nowPs) => (flow.sl === sl ? Math.max(nowPs, untilPs) : nowPs),
    }),
    counters: () => ({}),
    sampleFlows: () => {},
  };
}

describe("Hca", () => {
  it("keeps no latency histograms when told not to, and still completes messages", () => {
    const { scheduler, a, b } = pair({}, 1, false);
    a.addMessage({ dstHost: 1, bytes: 5000, startPs: 0 });
    scheduler.run();
    expect(b.completions).toHaveLength(1);
    expect(b.totalLatencyPs.count).toBe(0);
    expect(b.networkLatencyPs.count).toBe(0);
  });

  it("cuts a message into MTU packets and reassembles it at the receiver", () => {
    const { scheduler, a, b, received } = pair({ mtuBytes: 2048, headerBytes: 26 });
    a.addMessage({ dstHost: 1, bytes: 5000, startPs: 1000 });
    scheduler.run();
    expect(
      received.map((r) => [r.packet.sizeBytes, r.packet.payloadBytes, r.packet.seqInMessage]),
    ).toEqual([
      [2074, 2048, 0],
      [2074, 2048, 1],
      [930, 904, 2],
    ]);
    // Back to back at line rate: each packet arrives ser + latency after it starts.
    const starts = [
      1000,
      1000 + serializationPs(2074, RATE_GBPS),
      1000 + 2 * serializationPs(2074, RATE_GBPS),
    ];
    expect(received.map((r) => r.packet.injectedPs)).toEqual(starts);
    expect(b.completions).toEqual([
      {
        messageId: 0,
        flowId: 1,
        srcHost: 0,
        dstHost: 1,
        bytes: 5000,
        createdPs: 1000,
        completedPs: starts[2]! + serializationPs(930, RATE_GBPS) + LATENCY_PS,
      },
    ]);
    expect(b.deliveredBytesByFlow.get(1)).toBe(5000);
    expect(a.injectedBytesByFlow().get(1)).toBe(5000);
    expect(b.totalLatencyPs.summary().count).toBe(3);
    expect(b.networkLatencyPs.summary().min).toBe(serializationPs(930, RATE_GBPS) + LATENCY_PS);
  });

  it("keeps each source's delivered bytes apart in a large fabric (records made page by page)", () => {
    // Hosts 513 and 2 of 600, two SLs: the sources 513·2 + sl sit in the fifth page of 256
    // queue pairs at host 2, and 2·2 + sl in the first at host 513.
    const { scheduler, a, b } = pair({ mtuBytes: 1024 }, 2, false, {
      indices: [513, 2],
      hostCount: 600,
    });
    a.addMessage({ dstHost: 2, bytes: 3000, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 2, bytes: 5000, startPs: 0, sl: 1 });
    a.addMessage({ dstHost: 2, bytes: 700, startPs: 0, sl: 1 });
    b.addMessage({ dstHost: 513, bytes: 4100, startPs: 0, sl: 1 });
    scheduler.run();
    const flow = (src: number, dst: number, sl: number) => (src * 600 + dst) * 2 + sl;
    expect([...b.deliveredBytesByFlow]).toEqual([
      [flow(513, 2, 0), 3000],
      [flow(513, 2, 1), 5700],
    ]);
    expect([...a.deliveredBytesByFlow]).toEqual([[flow(2, 513, 1), 4100]]);
    expect(b.completions.map((c) => [c.flowId, c.bytes])).toEqual([
      [flow(513, 2, 0), 3000],
      [flow(513, 2, 1), 5000],
      [flow(513, 2, 1), 700],
    ]);
    expect(a.completions.map((c) => [c.flowId, c.bytes])).toEqual([[flow(2, 513, 1), 4100]]);
  });

  it("spaces packet starts by size × 8 / injectionCapGbps", () => {
    const { scheduler, a, received } = pair({ injectionCapGbps: 4, headerBytes: 0 });
    a.addMessage({ dstHost: 1, bytes: 3 * 2048, startPs: 0 });
    scheduler.run();
    const gap = serializationPs(2048, 4);
    expect(received.map((r) => r.packet.injectedPs)).toEqual([0, gap, 2 * gap]);
  });

  it("serves queue pairs round-robin, packet by packet", () => {
    const { scheduler, a, received } = pair({}, 2);
    a.addMessage({ dstHost: 1, bytes: 3 * 2048, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 3 * 2048, startPs: 0, sl: 1 });
    scheduler.run();
    expect(received.map((r) => r.packet.sl)).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it("oldest-first sends messages in arrival order across queue pairs", () => {
    const { scheduler, a, received } = pair({ injectionOrder: "oldest-first" }, 2);
    a.addMessage({ dstHost: 1, bytes: 3 * 2048, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 3 * 2048, startPs: 0, sl: 1 });
    a.addMessage({ dstHost: 1, bytes: 2 * 2048, startPs: 0, sl: 0 });
    scheduler.run();
    expect(received.map((r) => r.packet.sl)).toEqual([0, 0, 0, 1, 1, 1, 0, 0]);
  });

  it("oldest-first lets a queue pair overtake an older one that its CC gate holds back", () => {
    const { scheduler, a, received } = pair({ injectionOrder: "oldest-first" }, 2);
    const holdUntilPs = 5_000_000;
    a.setParts(holdingSl(0, holdUntilPs), undefined);
    a.addMessage({ dstHost: 1, bytes: 2 * 2048, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 2 * 2048, startPs: 0, sl: 1 });
    scheduler.run();
    expect(received.map((r) => r.packet.sl)).toEqual([1, 1, 0, 0]);
    expect(received[2]!.packet.injectedPs).toBe(holdUntilPs);
  });

  it("oldest-first counts a VL as blocked only while a packet its gate allows waits for room", () => {
    const { scheduler, a } = pair({ injectionOrder: "oldest-first" }, 2);
    const holdUntilPs = 5_000_000;
    a.setParts(holdingSl(1, holdUntilPs), undefined);
    // VL 1 never gets credits: its packet waits for room once its gate allows it.
    a.uplinkFlow.credits[1] = 0;
    a.addMessage({ dstHost: 1, bytes: 2048, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 2048, startPs: 0, sl: 1 });
    // The older sl-0 message goes first, decided without asking the sl-1 gate; after it the
    // uplink has no room on VL 1, but what waits there is held back by its gate: not blocked.
    scheduler.run({ untilPs: holdUntilPs - 1 });
    expect(a.uplinkFlow.isBlocked(1)).toBe(false);
    expect(a.uplinkFlow.blockedPsUntil(1, scheduler.nowPs)).toBe(0);
    scheduler.run({ untilPs: holdUntilPs + 1_000_000 });
    expect(a.uplinkFlow.isBlocked(1)).toBe(true);
    expect(a.uplinkFlow.blockedPsUntil(1, scheduler.nowPs)).toBe(1_000_000);
  });

  it("rejects an unknown injection order, naming the field", () => {
    expect(() =>
      resolveHcaConfig({ injectionOrder: "fifo" as unknown as HcaConfig["injectionOrder"] }),
    ).toThrow(/host.injectionOrder must be one of round-robin, oldest-first/);
  });

  it("a slow receiver holds its credits, so the sender waits for them", () => {
    const bufferBytes = 4 * 2112; // 4 packets of 2048 + 26 B rounded to 64-byte blocks
    const { scheduler, a, b, received } = pair({
      receiveRateGbps: 2,
      receiveBufferBytes: bufferBytes,
    });
    a.addMessage({ dstHost: 1, bytes: 40 * 2048, startPs: 0 });
    let maxHeld = 0;
    scheduler.run({
      stopWhen: () => {
        maxHeld = Math.max(maxHeld, b.receiveBytesOf(0));
        return false;
      },
    });
    expect(received).toHaveLength(40);
    expect(maxHeld).toBeLessThanOrEqual(bufferBytes);
    // Consumption at 2 Gb/s sets the pace: 40 packets take at least 40 service times.
    expect(scheduler.nowPs).toBeGreaterThanOrEqual(40 * serializationPs(2074, 2));
    const gaps = received.slice(10).map((r, i) => r.atPs - received[9 + i]!.atPs);
    expect(new Set(gaps)).toEqual(new Set([serializationPs(2074, 2)]));
  });

  it("drops a packet its receiver part discards as a second copy: credits back, nothing delivered", () => {
    const bufferBytes = 4 * 2112;
    const { scheduler, a, b, received } = pair({ receiveBufferBytes: bufferBytes });
    let asked = 0;
    b.setParts(undefined, { discard: () => asked++ % 2 === 1 }); // every second packet
    const credits = a.uplinkFlow.credits[0];
    a.addMessage({ dstHost: 1, bytes: 20 * 2048, startPs: 0 });
    scheduler.run();
    expect(asked).toBe(20);
    expect(b.duplicatesDiscarded).toBe(10);
    expect(received.map((r) => r.packet.seqInMessage)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(b.completions).toEqual([]); // half the bytes: the message is not whole
    expect(b.deliveredBytesByFlow.get(1)).toBe(10 * 2048);
    expect(b.totalLatencyPs.summary().count).toBe(10);
    // 20 packets through a 4-packet buffer: the discarded ones returned their credits too.
    expect(b.receiveBytesOf(0)).toBe(0);
    expect(a.uplinkFlow.credits[0]).toBe(credits);
  });

  it("rejects messages it cannot send, naming the field", () => {
    const { a } = pair();
    expect(() => a.addMessage({ dstHost: 2, bytes: 1, startPs: 0 })).toThrow(
      /dstHost must be a host index in 0..1/,
    );
    expect(() => a.addMessage({ dstHost: 1, bytes: 1.5, startPs: 0 })).toThrow(
      /bytes must be a whole number/,
    );
    expect(() => a.addMessage({ dstHost: 1, bytes: 1, startPs: 0, sl: 1 })).toThrow(
      /sl must be in 0..0/,
    );
    expect(() => a.addMessage({ dstHost: 1, bytes: 1, startPs: -5 })).toThrow(
      /startPs must be a whole number of ps ≥ now/,
    );
  });

  it("takes messages added out of time order in time order", () => {
    const { scheduler, a, b } = pair();
    a.addMessage({ dstHost: 1, bytes: 100, startPs: 5_000_000 });
    a.addMessage({ dstHost: 1, bytes: 100, startPs: 0 });
    scheduler.run();
    expect(b.completions.map((c) => c.createdPs)).toEqual([0, 5_000_000]);
  });
});

describe("Hca's receive buffer", () => {
  it("returns every credit it takes: held + on the wire + buffered + returning stays constant", () => {
    const { scheduler, ab, a, b } = pair({ receiveRateGbps: 3, receiveBufferBytes: 4 * 2112 }, 2);
    a.addMessage({ dstHost: 1, bytes: 30 * 2048, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 7000, startPs: 5_000_000, sl: 1 });
    const capacity = b.inputCreditBlocks();
    let steps = 0;
    const conserved = () => {
      for (let vl = 0; vl < 2; vl++) {
        const total =
          a.uplinkFlow.credits[vl]! +
          ab.blocksInFlight[vl]! +
          b.receiveBlocksOf(vl) +
          ab.creditsReturning[vl]!;
        if (total !== capacity) return false;
      }
      return true;
    };
    scheduler.run({
      stopWhen: () => {
        steps++;
        expect(conserved()).toBe(true);
        return false;
      },
    });
    expect(steps).toBeGreaterThan(100);
    expect(b.completions).toHaveLength(2);
    expect([b.receiveBlocksOf(0), b.receiveBlocksOf(1), b.receiveBytesOf(0)]).toEqual([0, 0, 0]);
    expect([...a.uplinkFlow.credits]).toEqual([capacity, capacity]);
    expect(b.maxReceiveBytes[0]).toBeLessThanOrEqual(4 * 2112);
  });

  it("under PFC pauses its upstream above XOFF and resumes it at XON", () => {
    const pfc = { xoffBytes: 3 * 2074, xonBytes: 2074 };
    const { scheduler, ab, a, b } = pair({ receiveRateGbps: 2 }, 1, true, { pfc });
    a.addMessage({ dstHost: 1, bytes: 20 * 2048, startPs: 0 });
    scheduler.run();
    expect(b.completions).toHaveLength(1);
    expect(ab.pauseFramesSent).toBeGreaterThan(0);
    expect(ab.resumeFramesSent).toBe(ab.pauseFramesSent);
    expect(a.uplinkFlow.isPaused(0)).toBe(false);
    expect(b.maxReceiveBytes[0]).toBeGreaterThan(pfc.xoffBytes);
  });
});

describe("Hca's egress buffer", () => {
  const PACKET = 2074; // 2048 B of payload + 26 B of header
  const SER_PS = serializationPs(PACKET, RATE_GBPS);
  // A pause frame acts at the sender its own 64 B and one latency after it is sent.
  const PAUSE_DELAY_PS = serializationPs(64, RATE_GBPS) + LATENCY_PS;
  const egressBuffer = { bytes: 5 * PACKET, xoffBytes: 3 * PACKET, xonBytes: PACKET };

  // Host 0 of 3 sends to hosts 1 and 2 over its one link to host 1 (which takes every packet),
  // PFC, with an egress buffer; `pauseAt` pauses its uplink from the far end at [from, to).
  function pausedPair(pauseAt?: { fromPs: number; toPs: number }) {
    const pfc = { xoffBytes: 16 * PACKET, xonBytes: 8 * PACKET };
    const net = pair({ egressBuffer }, 1, true, { indices: [0, 1], hostCount: 3, pfc });
    if (pauseAt !== undefined) {
      const pause = net.scheduler.defineKind("test: pause", (on) => net.ab.sendPause(0, on === 1));
      net.scheduler.schedule(pauseAt.fromPs, pause, 1);
      net.scheduler.schedule(pauseAt.toPs, pause, 0);
    }
    net.a.addMessage({ dstHost: 1, bytes: 10 * 2048, startPs: 0 });
    net.a.addMessage({ dstHost: 2, bytes: 10 * 2048, startPs: 0 });
    return net;
  }

  it("sends at the same times as a host without one while its uplink is never held", () => {
    const run = (config: Partial<HcaConfig>) => {
      const { scheduler, a, received } = pair(config, 2, true, { indices: [0, 1], hostCount: 3 });
      a.addMessage({ dstHost: 1, bytes: 9000, startPs: 0, sl: 0 });
      a.addMessage({ dstHost: 2, bytes: 7000, startPs: 500, sl: 1 });
      a.addMessage({ dstHost: 1, bytes: 3000, startPs: 40_000_000, sl: 1 });
      scheduler.run();
      return received.map((r) => [r.atPs, r.packet.injectedPs, r.packet.messageId]);
    };
    const without = run({ injectionCapGbps: 7 });
    expect(run({ injectionCapGbps: 7, egressBuffer })).toEqual(without);
    expect(run({ egressBuffer })).toEqual(run({}));
  });

  it("fills while the switch pauses the uplink, stops just above XOFF, resumes at XON", () => {
    const resumePs = 20 * SER_PS;
    const { scheduler, a } = pausedPair({ fromPs: 0, toPs: resumePs });
    const egress = a.egressBuffer!;
    // The first packet starts at 0, before the pause acts; the hop then moves one packet per
    // packet time into the FIFO: 4 of them hold 8296 B > XOFF (6222 B), and the fourth, at
    // 4 packet times, sets XOFF: nothing more moves.
    scheduler.run({ untilPs: resumePs });
    expect(a.packetsSent).toBe(1);
    expect(egress.bytesOn(0)).toBe(4 * PACKET);
    expect(egress.xoff[0]).toBe(1);
    expect(egress.xoffEvents[0]).toBe(1);
    const injected = [...a.injectedBytesByFlow().values()].reduce((x, y) => x + y, 0);
    expect(injected).toBe(5 * 2048);
    // The resume acts at `on`; the FIFO drains a packet per packet time and is XON once it
    // holds one packet (the third start), when the hop moves again.
    const on = resumePs + PAUSE_DELAY_PS;
    scheduler.run({ untilPs: on + 2 * SER_PS });
    expect(egress.xoff[0]).toBe(0);
    expect(egress.xoffPsUntil(0, scheduler.nowPs)).toBe(on + 2 * SER_PS - 4 * SER_PS);
    expect(egress.bytesOn(0)).toBe(2 * PACKET); // one left, and the one that just moved in
    scheduler.run();
    expect(egress.peakBytes[0]).toBe(4 * PACKET);
    expect(egress.peakTotalBytes).toBeLessThanOrEqual(egressBuffer.bytes);
    expect(egress.xoffEvents[0]).toBe(1);
    expect([egress.packetCount, egress.bytesOn(0)]).toEqual([0, 0]);
    expect(a.egressStats(scheduler.nowPs)).toEqual([
      {
        vl: 0,
        bytes: 0,
        peakBytes: 4 * PACKET,
        xoffPs: on - 2 * SER_PS,
        xoffEvents: 1,
      },
    ]);
  });

  it("drains in FIFO order: the queue pairs' round robin as they moved in, every packet once", () => {
    const { scheduler, a, b, received } = pausedPair({ fromPs: 0, toPs: 20 * SER_PS });
    scheduler.run();
    expect(received.map((r) => r.packet.dstHost)).toEqual(
      Array.from({ length: 20 }, (_, k) => 1 + (k % 2)),
    );
    const injected = received.map((r) => r.packet.injectedPs);
    expect(injected).toEqual([...injected].sort((x, y) => x - y));
    expect(new Set(injected).size).toBe(20);
    expect(b.completions.map((c) => c.bytes)).toEqual([20_480, 20_480]);
    // The uplink's VL was OFF while the FIFO's head waited for the resume.
    expect(a.uplinkFlow.offTransitions[0]).toBe(1);
    expect(a.portStats(scheduler.nowPs)[0]!.blockedPs).toBeGreaterThan(15 * SER_PS);
  });

  it("sends control packets ahead of the FIFO", () => {
    const { scheduler, packets, a, received } = pausedPair({ fromPs: 0, toPs: 10 * SER_PS });
    scheduler.run({ untilPs: 5 * SER_PS });
    const control = packets.create({ kind: "cnp", dstHost: 1, sizeBytes: 64, vl: 0 });
    a.sendControl(control);
    scheduler.run();
    const kinds = received.map((r) => r.packet.kind);
    expect(kinds.indexOf("cnp")).toBe(1); // behind the packet that left before the pause
  });

  it("has none by default: the host runs the uplink transmitter and reports no FIFO", () => {
    const { a } = pair();
    expect(a.egressBuffer).toBeUndefined();
    expect(a.egressStats(0)).toEqual([]);
  });

  it("rejects a buffer smaller than a packet, or watermarks out of order, naming the field", () => {
    expect(() =>
      resolveHcaConfig({ egressBuffer: { bytes: 2000, xoffBytes: 1000, xonBytes: 0 } }),
    ).toThrow("host.egressBuffer.bytes (2000) must hold one full packet");
    expect(() =>
      resolveHcaConfig({ egressBuffer: { bytes: 9000, xoffBytes: 4000, xonBytes: 5000 } }),
    ).toThrow("host.egressBuffer.xonBytes (5000) must be < xoffBytes (4000)");
  });
});

// A sender part that records the hooks the host calls, in order.
function recordingPart(log: string[], extra: Partial<SenderPart> = {}): SenderPart {
  return {
    openFlow: (flow) => ({
      nextSendPs: (nowPs) => nowPs,
      onMessage: (bytes, messageId) =>
        log.push(`message ${messageId} of ${bytes} on ${flow.flowId}`),
      onSent: () => log.push("sent"),
    }),
    onControl: () => log.push("control"),
    onLinkControl: () => log.push("link control"),
    ...extra,
  };
}

describe("Hca, contract 3.0", () => {
  it("tells a flow's gate of each message once, with its bytes, before its first packet", () => {
    const { scheduler, a } = pair({}, 2);
    const log: string[] = [];
    a.setParts(recordingPart(log), undefined);
    a.addMessage({ dstHost: 1, bytes: 3000, startPs: 0, sl: 0 });
    a.addMessage({ dstHost: 1, bytes: 100, startPs: 0, sl: 1 });
    a.addMessage({ dstHost: 1, bytes: 2048, startPs: 50_000_000, sl: 0 });
    scheduler.run();
    expect(log).toEqual([
      "message 0 of 3000 on 2",
      "message 1 of 100 on 3",
      "sent",
      "sent",
      "sent",
      "message 2 of 2048 on 2",
      "sent",
    ]);
  });

  it("setFlowVl puts the flow's next packets on the new VL; packets made keep theirs", () => {
    const { scheduler, a, received } = pair({}, 2);
    let sent = 0;
    a.setParts(
      {
        openFlow: (flow) => ({
          nextSendPs: (nowPs) => nowPs,
          onSent: () => {
            if (++sent === 2) a.setFlowVl(flow.flowId, 1);
          },
        }),
      },
      undefined,
    );
    a.addMessage({ dstHost: 1, bytes: 4 * 2048, startPs: 0, sl: 0 });
    scheduler.run();
    expect(received.map((r) => [r.packet.sl, r.packet.vl])).toEqual([
      [0, 0],
      [0, 0],
      [0, 1],
      [0, 1],
    ]);
  });

  it("setFlowVl works before a flow's first message, and from its gate's onMessage", () => {
    const { scheduler, a, received } = pair({}, 3);
    const opened: number[] = [];
    a.setParts(
      {
        openFlow: (flow) => {
          opened.push(flow.flowId);
          return {
            nextSendPs: (nowPs) => nowPs,
            onMessage: () => {
              if (flow.sl === 1) a.setFlowVl(flow.flowId, 0);
            },
          };
        },
      },
      undefined,
    );
    a.setFlowVl(5, 1); // host 0 → host 1, SL 2: flow id (0·2 + 1)·3 + 2
    expect(opened).toEqual([5]);
    a.addMessage({ dstHost: 1, bytes: 2048, startPs: 0, sl: 2 });
    a.addMessage({ dstHost: 1, bytes: 2048, startPs: 0, sl: 1 });
    scheduler.run();
    expect(opened).toEqual([5, 4]);
    expect(received.map((r) => [r.packet.sl, r.packet.vl])).toEqual([
      [2, 1],
      [1, 0],
    ]);
  });

  it("setFlowVl refuses a VL out of range and a flow that is not the host's", () => {
    const { a } = pair({}, 2);
    expect(() => a.setFlowVl(2, 2)).toThrow(/host H0: vl must be in 0..1, got 2/);
    expect(() => a.setFlowVl(2, -1)).toThrow(RangeError);
    // Flow ids of 2 hosts × 2 VLs: (src·2 + dst)·2 + sl.
    expect(() => a.setFlowVl(4, 0)).toThrow(/flow 4 is not one of this host's/); // 1 → 0
    expect(() => a.setFlowVl(0, 0)).toThrow(/flow 0 is not one of this host's/); // 0 → 0
    expect(() => a.setFlowVl(2.5, 0)).toThrow(RangeError);
  });

  it("hands link-local control packets to onLinkControl, others to onControl", () => {
    const { scheduler, packets, a, b, received } = pair();
    const log: string[] = [];
    b.setParts(recordingPart(log), undefined);
    a.sendLinkControl(packets.create({ kind: "cnp", sizeBytes: 64, dstHost: 1 }));
    a.sendControl(packets.create({ kind: "cnp", sizeBytes: 64, dstHost: 1 }));
    scheduler.run();
    expect(log).toEqual(["link control", "control"]);
    expect(received.map((r) => [r.packet.kind, r.packet.srcHost, r.packet.dstHost])).toEqual([
      ["cnp", 0, LINK_LOCAL],
      ["cnp", 0, 1],
    ]);
  });
});
