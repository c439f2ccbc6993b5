import { genericTopology, singleSwitch } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { IdealFct, type IdealFctParams } from "./ideal-fct.js";
import { Network } from "./network.js";

const params: IdealFctParams = {
  mtuBytes: 1000,
  headerBytes: 26,
  injectionCapGbps: null,
  receiveRateGbps: null,
  switching: "vct",
  cutThroughBytes: 64,
  routingLatencyNs: 100,
};

const link = fc.record({
  rateGbps: fc.constantFrom(10, 25, 40, 100),
  latencyNs: fc.integer({ min: 0, max: 2000 }),
});

// A chain of switches, each host on one of them, every cable with its own rate and latency:
// routes of the same length differ in their cables.
const chains = fc
  .tuple(
    fc.array(link, { minLength: 0, maxLength: 3 }),
    fc.array(fc.tuple(fc.nat(), link), { minLength: 2, maxLength: 8 }),
  )
  .map(([trunks, hosts]) => {
    const switches = trunks.length + 1;
    return genericTopology({
      routing: "shortest-path",
      nodes: [
        ...Array.from({ length: switches }, (_, i) => ({ kind: "switch" as const, name: `s${i}` })),
        ...hosts.map((_, i) => ({ kind: "host" as const, name: `h${i}` })),
      ],
      links: [
        ...trunks.map((l, i) => ({ a: `s${i}`, b: `s${i + 1}`, ...l })),
        ...hosts.map(([at, l], i) => ({ a: `h${i}`, b: `s${at % switches}`, ...l })),
      ],
    });
  });

// The sim test ideal-fct.test.ts checks each route's time against a lone message in the
// simulator; this one checks that routes sharing the signature trie do not mix: every pair,
// asked in any order of one instance, gets what a fresh instance gives it alone.
test.prop([chains, fc.integer({ min: 1, max: 5000 }), fc.nat()], { numRuns: 60 })(
  "gives each host pair the time of its own route, whatever pairs came before",
  (topology, bytes, seed) => {
    const hosts = topology.fabric.hosts.length;
    const pairs: [number, number][] = [];
    for (let src = 0; src < hosts; src++) {
      for (let dst = 0; dst < hosts; dst++) if (src !== dst) pairs.push([src, dst]);
    }
    const order = pairs
      .map((pair, i) => ({ pair, key: (i * 2654435761 + seed) % 4294967296 }))
      .sort((a, b) => a.key - b.key);
    const shared = new IdealFct(topology, params);
    for (const { pair } of order) {
      const alone = new IdealFct(topology, params).messagePs(pair[0], pair[1], bytes);
      expect(shared.messagePs(pair[0], pair[1], bytes)).toBe(alone);
    }
  },
);

// With receive-rate schedules the ideal depends on when a message arrives: it must be what the
// network gives the message alone, whichever steps fall inside it (docs/model.md, "Hosts").
test.prop(
  [
    fc.array(
      fc.record({
        atUs: fc.integer({ min: 0, max: 40 }),
        rateGbps: fc.option(fc.constantFrom(0.5, 1, 3, 7), { nil: null }),
      }),
      { maxLength: 4 },
    ),
    fc.option(fc.constantFrom(2, 20), { nil: null }),
    fc.integer({ min: 0, max: 30_000_000 }),
    fc.integer({ min: 1, max: 20_000 }),
  ],
  { numRuns: 60 },
)(
  "gives a lone message to a host whose rate changes the time the network gives it",
  (steps, baseRateGbps, startPs, bytes) => {
    const schedule = [...new Map(steps.map((s) => [s.atUs * 1_000_000, s.rateGbps]))]
      .sort((a, b) => a[0] - b[0])
      .map(([atPs, rateGbps]) => ({ atPs, rateGbps }));
    const topology = singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 500 });
    const net = new Network(topology, {
      switch: { buffer: { model: "partitioned", bytesPerPortVl: 1 << 20 } },
      host: { receiveRateGbps: baseRateGbps, receiveBufferBytes: 1 << 20 },
      hostReceiveRateSchedules: [undefined, schedule],
    });
    net.addMessage(0, { dstHost: 1, bytes, startPs });
    net.run();
    const [done] = net.hosts[1]!.completions;
    expect(done!.completedPs - startPs).toBe(IdealFct.of(net).messagePs(0, 1, bytes, startPs));
  },
);
