import { Scheduler, serializationPs } from "@cclab/core-des";
import { Ecn, LinkSet, Packets } from "@cclab/fabric";
import { expect, it } from "vitest";
import { Hca } from "./hca.js";
import { resolveHcaConfig } from "./hca-config.js";
import { registerHcaEvents } from "./hca-setup.js";

// Two hosts back to back at 10 Gb/s, 100 ns, credits; host 1 consumes at 5 Gb/s.
function pair() {
  const scheduler = new Scheduler();
  const packets = new Packets();
  const links = new LinkSet(scheduler, packets, 1, "credit");
  const hosts: Hca[] = [];
  const kinds = registerHcaEvents(scheduler, hosts);
  let nextId = 0;
  for (const index of [0, 1]) {
    hosts.push(
      new Hca({
        index,
        name: `H${index}`,
        hostCount: 2,
        vlCount: 1,
        config: resolveHcaConfig(index === 1 ? { receiveRateGbps: 5 } : {}),
        discipline: "credit",
        scheduler,
        packets,
        links,
        kinds,
        nextMessageId: () => nextId++,
      }),
    );
  }
  const [a, b] = hosts as [Hca, Hca];
  const ab = links.add(10, 100_000);
  const ba = links.add(10, 100_000);
  a.attach(ab, ba);
  b.attach(ba, ab);
  a.uplinkFlow.credits.fill(b.inputCreditBlocks());
  b.uplinkFlow.credits.fill(a.inputCreditBlocks());
  ab.connect(a, 0, b, 0, b.receiveTiming());
  ba.connect(b, 0, a, 0, a.receiveTiming());
  return { scheduler, packets, a, b };
}

it("observes each packet a host starts and consumes, at the times of docs/model.md", () => {
  const { scheduler, packets, a, b } = pair();
  const seen: string[] = [];
  const note = (what: string) => (p: number) =>
    seen.push(`${what} ${scheduler.nowPs} seq ${packets.seqInMessage[p]} ${packets.sizeBytes[p]}`);
  a.observePackets(note("start"), note("consume"));
  b.observePackets(note("start"), note("consume"));
  // A gate that writes a header field once the packet has started, and asks to send again:
  // the observer sees the packet after both, once.
  a.setParts(
    {
      openFlow: () => ({
        nextSendPs: (nowPs) => nowPs,
        onSent: (p) => {
          packets.ecn[p] = Ecn.capable;
          a.gatesChanged();
        },
      }),
    },
    undefined,
  );
  const ecn: number[] = [];
  a.observePackets(
    (p) => ecn.push(packets.ecn[p]!),
    () => {},
  );
  let delivered = 0;
  b.onDelivery(() => delivered++);
  a.addMessage({ dstHost: 1, bytes: 3000, startPs: 0 });
  scheduler.run();
  const [first, second] = [2048 + 26, 952 + 26];
  const ser = (bytes: number, gbps: number) => serializationPs(bytes, gbps);
  // The second starts when the first has left; B consumes at 5 Gb/s, one packet at a time.
  const tail1 = ser(first, 10) + 100_000;
  const tail2 = ser(first, 10) + ser(second, 10) + 100_000;
  const done1 = tail1 + ser(first, 5);
  expect(seen).toEqual([
    `start 0 seq 0 ${first}`,
    `start ${ser(first, 10)} seq 1 ${second}`,
    `consume ${done1} seq 0 ${first}`,
    `consume ${Math.max(tail2, done1) + ser(second, 5)} seq 1 ${second}`,
  ]);
  // The host still counts, completes and hands on what it consumes.
  expect(delivered).toBe(2);
  expect(ecn).toEqual([Ecn.capable, Ecn.capable]);
  expect(b.messagesCompleted).toBe(1);
});
