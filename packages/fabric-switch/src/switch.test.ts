import { createRng, Scheduler, serializationPs, type TimePs } from "@cclab/core-des";
import { type FlowControlDiscipline, LinkSet, type PacketId, Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { registerSwitchEvents, Switch } from "./switch.js";
import { resolveSwitchConfig, type SwitchConfig } from "./switch-config.js";

/**
 * One switch with two ports, host A on port 0 and host B on port 1, and nothing else: the hosts
 * are bare link ends that record what reaches them, so every time below follows from the
 * model's rules alone (docs/model.md, "A packet on a link" and "Through a switch").
 */
function twoPorts(options: {
  inRateGbps: number;
  outRateGbps: number;
  discipline?: FlowControlDiscipline;
  config?: Partial<SwitchConfig>;
}) {
  const discipline = options.discipline ?? "credit";
  const scheduler = new Scheduler();
  const packets = new Packets();
  const config = resolveSwitchConfig(options.config ?? {}, discipline);
  const links = new LinkSet(scheduler, packets, config.vlCount, discipline);
  const switches: Switch[] = [];
  const kinds = registerSwitchEvents(scheduler, switches);
  const sw = new Switch({
    index: 0,
    name: "S",
    portCount: 2,
    hostCount: 2,
    config,
    discipline,
    table: { candidates: [[0], [1]], selection: "first" },
    scheduler,
    packets,
    links,
    rng: createRng(1).split("switch/0/route"),
    kinds,
  });
  switches.push(sw);
  const latencyPs = 10_000;
  const aToS = links.add(options.inRateGbps, latencyPs);
  const sToA = links.add(options.inRateGbps, latencyPs);
  const bToS = links.add(options.outRateGbps, latencyPs);
  const sToB = links.add(options.outRateGbps, latencyPs);
  sw.attach(0, sToA, aToS);
  sw.attach(1, sToB, bToS);
  const arrivedAtB: { packet: PacketId; atPs: TimePs }[] = [];
  const creditsAtA: TimePs[] = [];
  const host = (record: (packet: PacketId) => void) => ({
    receivePacket: (packet: PacketId) => record(packet),
  });
  const hostTiming = { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs: 0 };
  aToS.connect(
    { flowControlChanged: () => creditsAtA.push(scheduler.nowPs) },
    0,
    sw,
    0,
    sw.receiveTiming(),
  );
  bToS.connect({ flowControlChanged: () => {} }, 0, sw, 1, sw.receiveTiming());
  sToA.connect(
    sw,
    0,
    host(() => {}),
    0,
    hostTiming,
  );
  sToB.connect(
    sw,
    1,
    host((packet) => arrivedAtB.push({ packet, atPs: scheduler.nowPs })),
    0,
    hostTiming,
  );
  if (discipline === "credit") {
    for (const link of [aToS, bToS]) link.flow.credits.fill(sw.inputCreditBlocks());
    for (const link of [sToA, sToB]) link.flow.credits.fill(1000);
  }
  /** Host A starts a packet of `sizeBytes` for B now. */
  const send = (sizeBytes: number): PacketId => {
    const p = packets.create({ sizeBytes, dstHost: 1, kind: "data" });
    links.consume(aToS.index, 0, sizeBytes);
    links.transmit(aToS.index, p, scheduler.nowPs + links.serPs(aToS.index, sizeBytes));
    return p;
  };
  return { scheduler, sw, links, send, arrivedAtB, creditsAtA, latencyPs, aToS };
}

describe("Switch", () => {
  it("cuts a packet through once its header is in and routed, and returns its credits when its tail leaves", () => {
    const t = twoPorts({ inRateGbps: 100, outRateGbps: 100 });
    const p = t.send(1064);
    t.scheduler.run();
    const ser = serializationPs(1064, 100);
    // Header usable at the switch: latency + ser(64 B header) + 100 ns routing latency.
    const forwardPs = t.latencyPs + serializationPs(64, 100) + 100_000;
    const endPs = forwardPs + ser; // its tail (at ser + latency) is in well before
    expect(t.arrivedAtB).toEqual([{ packet: p, atPs: endPs + t.latencyPs }]);
    // The input buffer frees the packet's 17 blocks when its last byte has left: at A a latency later.
    expect(t.creditsAtA).toEqual([endPs + t.latencyPs]);
    expect(t.aToS.flow.creditsOn(0)).toBe(t.sw.inputCreditBlocks());
    expect(t.sw.inputs.bytes(0, 0)).toBe(0);
    expect(t.sw.inputs.maxBytes(0, 0)).toBe(1064);
  });

  it("cannot finish sending a cut-through packet before its tail has arrived from a slower link", () => {
    const t = twoPorts({ inRateGbps: 10, outRateGbps: 100 });
    t.send(1064);
    t.scheduler.run();
    const tailAtSwitch = serializationPs(1064, 10) + t.latencyPs;
    expect(t.arrivedAtB.map((a) => a.atPs)).toEqual([tailAtSwitch + t.latencyPs]);
  });

  it("under store-and-forward waits for the tail plus the routing latency", () => {
    const t = twoPorts({ inRateGbps: 100, outRateGbps: 100, config: { switching: "saf" } });
    t.send(1064);
    t.scheduler.run();
    const ser = serializationPs(1064, 100);
    const forwardPs = ser + t.latencyPs + 100_000;
    expect(t.arrivedAtB.map((a) => a.atPs)).toEqual([forwardPs + ser + t.latencyPs]);
  });

  it("sends back-to-back packets one after the other at the output's rate", () => {
    const t = twoPorts({ inRateGbps: 100, outRateGbps: 50 });
    t.send(1064);
    t.scheduler.run({ untilPs: serializationPs(1064, 100) });
    t.send(1064);
    t.scheduler.run();
    const [first, second] = t.arrivedAtB.map((a) => a.atPs);
    expect(second! - first!).toBe(serializationPs(1064, 50));
    expect(t.sw.portStats(t.scheduler.nowPs)[1]!.packetsForwarded).toBe(2);
  });

  it("pauses its upstream under PFC when an input passes XOFF", () => {
    const t = twoPorts({
      inRateGbps: 100,
      outRateGbps: 1,
      discipline: "pfc",
      config: { pfc: { xoffBytes: 3000, xonBytes: 1000 } },
    });
    // At 1 Gb/s out, packets pile up at the input; the 4th passes 3000 B.
    for (let k = 0; k < 4; k++) {
      t.send(1000);
      t.scheduler.run({ untilPs: t.scheduler.nowPs + serializationPs(1000, 100) });
    }
    t.scheduler.run({ untilPs: t.scheduler.nowPs + 200_000 });
    expect(t.sw.inputs.pausedUpstream(0, 0)).toBe(true);
    expect(t.aToS.flow.isPaused(0)).toBe(true);
    t.scheduler.run();
    expect(t.aToS.flow.isPaused(0)).toBe(false);
    expect(t.arrivedAtB).toHaveLength(4);
  });
});
