import { Scheduler, serializationPs } from "@cclab/core-des";
import { LinkSet, type PacketSnapshot, Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { type HcaConfig, resolveHcaConfig } from "./hca-config.js";
import { QueuePair } from "./queue-pair.js";
import { SendScheduler } from "./send-scheduler.js";
import { UplinkTransmitter } from "./uplink-transmitter.js";

const RATE_GBPS = 10;
const HOST = 0;

// Host 0's transmitter on a link to a sink that records what arrives and frees it.
function transmitter(config: Partial<HcaConfig> = {}) {
  const scheduler = new Scheduler();
  const packets = new Packets();
  const links = new LinkSet(scheduler, packets, 1, "credit");
  const link = links.add(RATE_GBPS, 1000);
  link.flow.credits.fill(1000);
  const resolved = resolveHcaConfig({ mtuBytes: 1000, headerBytes: 26, ...config });
  const sending = new SendScheduler({
    vlCount: 1,
    mtuBytes: resolved.mtuBytes,
    headerBytes: resolved.headerBytes,
    oldestFirst: false,
    links,
  });
  sending.attach(link.index, link.flow);
  const kinds = {
    messageArrives: -1,
    txEnds: scheduler.defineKind("test: transmission ends", () => tx.ended()),
    wake: scheduler.defineKind("test: may send", () => tx.wake()),
    rxEnds: -1,
  };
  const tx: UplinkTransmitter = new UplinkTransmitter({
    index: HOST,
    name: "H0",
    config: resolved,
    scheduler,
    kinds,
    packets,
    links,
    sending,
  });
  tx.attach(link.index);
  const received: PacketSnapshot[] = [];
  const sink = {
    receivePacket(packet: number) {
      received.push(packets.snapshot(packet));
      packets.free(packet);
    },
  };
  link.connect({ flowControlChanged: () => tx.trySend() }, 0, sink, 0, {
    cutThroughBytes: Number.POSITIVE_INFINITY,
    processingPs: 0,
  });
  // A queue pair to host 1 with one message of `bytes`, in the rotation.
  const message = (bytes: number, id = 0) => {
    const qp = new QueuePair(1, 1, 0, 0);
    qp.push(id, bytes, scheduler.nowPs);
    sending.activate(qp);
    return qp;
  };
  return { scheduler, packets, tx, received, message };
}

describe("UplinkTransmitter", () => {
  it("sends control packets first, then resent data, then new data", () => {
    const { scheduler, packets, tx, received, message } = transmitter();
    message(2000);
    tx.trySend(); // the first data packet leaves at once
    const resent = packets.create({ kind: "data", sizeBytes: 500, srcHost: HOST, dstHost: 1 });
    tx.resend(resent);
    tx.sendControl(packets.create({ kind: "cnp", sizeBytes: 64, dstHost: 1 }));
    scheduler.run();
    expect(received.map((p) => [p.kind, p.sizeBytes])).toEqual([
      ["data", 1026],
      ["cnp", 64],
      ["data", 500],
      ["data", 1026],
    ]);
    expect([tx.packetsSent, tx.packetsResent]).toEqual([4, 1]);
  });

  it("cuts messages into numbered packets, marks each message's last and reports it", () => {
    const { scheduler, tx, received, message } = transmitter();
    const injected: number[] = [];
    tx.injectedListener = (id) => injected.push(id);
    message(2500, 7);
    tx.trySend();
    scheduler.run();
    expect(
      received.map((p) => [p.messageId, p.seqInMessage, p.payloadBytes, p.lastOfMessage]),
    ).toEqual([
      [7, 0, 1000, false],
      [7, 1, 1000, false],
      [7, 2, 500, true],
    ]);
    expect(injected).toEqual([7]);
  });

  it("spaces packet starts by the injection cap, waking itself for the next", () => {
    const { scheduler, tx, received, message } = transmitter({ injectionCapGbps: 4 });
    message(3000);
    tx.trySend();
    scheduler.run();
    const gap = serializationPs(1026, 4);
    expect(received.map((p) => p.injectedPs)).toEqual([0, gap, 2 * gap]);
  });

  it("resends only its own data packets", () => {
    const { packets, tx } = transmitter();
    const foreign = packets.create({ kind: "data", sizeBytes: 100, srcHost: 3, dstHost: 1 });
    expect(() => tx.resend(foreign)).toThrow(/host H0 can only resend its own data packets/);
    const control = packets.create({ kind: "cnp", sizeBytes: 64, srcHost: HOST, dstHost: 1 });
    expect(() => tx.resend(control)).toThrow(RangeError);
  });
});
