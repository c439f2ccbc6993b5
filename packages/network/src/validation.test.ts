import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Network } from "./network.js";

describe("Network rejects bad input before the run, naming the field", () => {
  it.each([
    [{ flowControl: "xon" as never }, /flowControl must be "credit" or "pfc"/],
    [{ switch: { bufferBytes: 5 } as never }, /switch: unknown key "bufferBytes"/],
    [{ switch: { readPorts: 0 } }, /switch.readPorts must be a whole number ≥ 1/],
    [{ switch: { vlCount: 1025 } }, /switch.vlCount must be in 1\.\.1024 .*got 1025/],
    [
      { switch: { vlCount: 2, vlWeights: [1] } },
      /switch.vlWeights must list one weight per VL \(2\)/,
    ],
    [
      { switch: { vlCount: 2, vlWeights: [1, 0] } },
      /switch.vlWeights\[1\] must be a whole number ≥ 1/,
    ],
    [{ switch: { queueing: "voq" as never } }, /switch.queueing: unknown scheme "voq"/],
    [
      { switch: { buffer: { model: "partitioned" as const, bytesPerPortVl: 1024 } } },
      /bytesPerPortVl \(1024\) must hold one full packet/,
    ],
    [{ host: { injectionCapGbps: -1 } }, /host.injectionCapGbps must be a rate > 0 Gb\/s or null/],
    [{ host: { mtu: 100 } as never }, /host: unknown key "mtu"/],
    [{ flowControl: "pfc" as const }, /switch.pfc \{xoffBytes, xonBytes\} is required/],
    [
      {
        flowControl: "pfc" as const,
        switch: {
          buffer: {
            model: "shared" as const,
            sharedBytes: 1e6,
            alpha: 1,
            headroomBytes: 100,
            xonOffsetBytes: 0,
          },
        },
        hostPfc: { xoffBytes: 4096, xonBytes: 2048 },
      },
      /PFC headroom too small .* switch.buffer.headroomBytes = 100 B, needs ≥ \d+ B/,
    ],
    [
      {
        flowControl: "credit" as const,
        switch: {
          buffer: {
            model: "shared" as const,
            sharedBytes: 1e6,
            alpha: 1,
            headroomBytes: 0,
            xonOffsetBytes: 0,
          },
        },
      },
      /"shared" needs PFC flow control/,
    ],
    [
      { hostReceiveRateSchedules: [undefined, undefined, [{ atPs: 0, rateGbps: 1 }]] },
      /hostReceiveRateSchedules lists 3 hosts; the fabric has 2/,
    ],
    [
      {
        hostReceiveRateSchedules: [
          undefined,
          [
            { atPs: 5, rateGbps: 1 },
            { atPs: 5, rateGbps: null },
          ],
        ],
      },
      /hostReceiveRateSchedules\[1\]\.receiveRateSchedule\[1\]\.atPs must be later than the step before \(5 ps\)/,
    ],
  ])("%j", (options, message) => {
    expect(
      () => new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), options),
    ).toThrow(message);
  });

  it("accepts up to 1024 VLs (beyond InfiniBand's 16: VOQnet's lane per destination)", () => {
    const topology = singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 });
    expect(new Network(topology, { switch: { vlCount: 64 } }).switchConfig.vlCount).toBe(64);
    const net = new Network(topology, { switch: { vlCount: 1024 } });
    expect(net.hosts[0]!.portView().vlCount).toBe(1024);
    net.addMessage(0, { dstHost: 1, bytes: 5000, startPs: 0, sl: 1023 });
    const vls = new Set<number>();
    net.onDelivery((packet) => vls.add(net.packets.vl[packet]!));
    expect(net.run()).toBe("empty");
    expect([...vls]).toEqual([1023]);
  });

  it("rejects a message to an unknown host, to itself, or with no bytes", () => {
    const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }));
    expect(() => net.addMessage(0, { dstHost: 5, bytes: 1, startPs: 0 })).toThrow(
      /dstHost must be a host index in 0..1/,
    );
    expect(() => net.addMessage(0, { dstHost: 0, bytes: 1, startPs: 0 })).toThrow(/to itself/);
    expect(() => net.addMessage(0, { dstHost: 1, bytes: 0, startPs: 0 })).toThrow(
      /bytes must be a whole number ≥ 1/,
    );
    expect(() => net.addMessage(7, { dstHost: 1, bytes: 1, startPs: 0 })).toThrow(
      /srcHost must be a host index/,
    );
  });

  it("rejects a cable on a port used twice and an uncabled host", () => {
    const topology = singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 });
    const cables = [...topology.fabric.cables];
    cables[1] = { ...cables[1]!, b: { kind: "switch", index: 0, port: 0 } };
    expect(() => new Network({ ...topology, fabric: { ...topology.fabric, cables } })).toThrow(
      /port 0 is already cabled|already cabled/,
    );
  });
});
