/**
 * Contract 3.0, scheme-owned packet columns: a sender writes per-packet state of its scheme into
 * a named column (SRP's accumulated queueing time, an E2CM probe's timestamp), and a switch part
 * of the same scheme reads it, without boxed numbers in `control[]`.
 */
import { type CcScheme, DATA_KIND } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { Network } from "../../src/index.js";

it("carries a column written at the sender to the switch", () => {
  const atSwitch: { flow: number; seq: number; stamp: number }[] = [];
  const scheme: CcScheme = {
    specVersion: "^3.0.0",
    name: "toy-stamp",
    switchPart: {
      specVersion: "^3.0.0",
      name: "read-stamp",
      reads: ["toy.stamp"],
      create: (sw) => {
        const stamp = sw.packets.column("toy.stamp", Float64Array);
        return {
          onEnqueue: (p) => {
            const { packets } = sw;
            atSwitch.push({
              flow: packets.flowId[p]!,
              seq: packets.seqInMessage[p]!,
              stamp: stamp.values[p]!,
            });
          },
        };
      },
    },
    senderPart: {
      specVersion: "^3.0.0",
      name: "write-stamp",
      writes: ["toy.stamp"],
      create: (host) => {
        const stamp = host.packets.column("toy.stamp", Float64Array);
        return {
          openFlow: (flow) => ({
            nextSendPs: () => 0,
            onSent: (p) => {
              stamp.values[p] = flow.flowId * 1000 + host.packets.seqInMessage[p]! + 0.5;
            },
          }),
        };
      },
    },
  };
  const net = new Network(singleSwitch({ hosts: 4, rateGbps: 10, latencyNs: 10 }), { cc: scheme });
  // More packets in flight than the store's first capacity (1024): the column grows with it.
  for (const src of [0, 1, 2]) net.addMessage(src, { dstHost: 3, bytes: 2048 * 600, startPs: 0 });
  let data = 0;
  net.onDelivery((p) => {
    if (net.packets.kindCode[p] === DATA_KIND) data++;
  });
  net.run();
  expect(data).toBe(1800);
  expect(atSwitch).toHaveLength(1800);
  for (const s of atSwitch) expect(s.stamp).toBe(s.flow * 1000 + s.seq + 0.5);
});
