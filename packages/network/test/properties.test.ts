/**
 * The invariants and determinism of docs/model.md ("Invariants", "Determinism"), as properties
 * over random small fabrics, random traffic and both flow-control disciplines: lossless and
 * exactly-once delivery, credit conservation at every event, PFC buffers within their size,
 * per-flow order under deterministic routing, determinism per seed, and no link carrying more
 * than its rate; with hosts' egress buffers of random sizes too (docs/model.md, "Hosts"), each
 * FIFO within its size and empty at the end.
 */
import { creditBlocks, DATA_KIND, pfcHeadroomBytes, type Topology } from "@cclab/fabric";
import {
  type GenericLinkSpec,
  type GenericNodeSpec,
  genericTopology,
  karyNTree,
  parkingLot,
  singleSwitch,
  twoLevelFatTree,
} from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import {
  bufferOverflowViolation,
  creditConservationViolation,
  Network,
  type NetworkOptions,
} from "../src/index.js";

const RUNS = 200;

const linkArb = fc.record({
  rateGbps: fc.constantFrom(10, 25, 40, 100),
  latencyNs: fc.integer({ min: 0, max: 500 }),
});

// A random tree of switches from a generic spec (shortest-path routing), some neighbours joined
// by two parallel cables. Trees only: shortest paths on a graph with cycles can form a cyclic
// buffer dependency, and a lossless fabric then deadlocks, as a real one would.
const genericTreeArb: fc.Arbitrary<Topology> = fc
  .record({
    parents: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    doubled: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    hostsAt: fc.array(fc.nat(), { minLength: 2, maxLength: 6 }),
    selection: fc.constantFrom("first" as const, "flow-hash" as const),
    link: linkArb,
  })
  .map(({ parents, doubled, hostsAt, selection, link }) => {
    const switches = parents.length + 1;
    const nodes: GenericNodeSpec[] = [];
    const links: GenericLinkSpec[] = [];
    for (let s = 0; s < switches; s++) nodes.push({ kind: "switch", name: `s${s}` });
    parents.forEach((p, i) => {
      const child = `s${i + 1}`;
      const parent = `s${p % (i + 1)}`;
      links.push({ a: child, b: parent });
      if (doubled[i]) links.push({ a: child, b: parent });
    });
    hostsAt.forEach((at, h) => {
      nodes.push({ kind: "host", name: `h${h}` });
      links.push({ a: `h${h}`, b: `s${at % switches}` });
    });
    return genericTopology({ name: "random tree", ...link, selection, nodes, links });
  });

const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  genericTreeArb,
  fc
    .tuple(fc.integer({ min: 2, max: 6 }), linkArb)
    .map(([hosts, link]) => singleSwitch({ hosts, ...link })),
  fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), linkArb)
    .map(([switches, hostsPerSwitch, link]) =>
      parkingLot({
        switches,
        hostsPerSwitch: Math.max(hostsPerSwitch, switches === 1 ? 2 : 1),
        ...link,
      }),
    ),
  fc
    .tuple(
      fc.integer({ min: 2, max: 3 }),
      fc.integer({ min: 1, max: 2 }),
      linkArb,
      fc.constantFrom("d-mod-k" as const, "nca-random" as const, "ecmp" as const),
    )
    .map(([k, n, link, routing]) => karyNTree({ k, n, routing, ...link })),
  fc
    .tuple(
      fc.integer({ min: 2, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      linkArb,
    )
    .map(([leaves, spines, hostsPerLeaf, link]) =>
      twoLevelFatTree({ leaves, spines, hostsPerLeaf, ...link }),
    ),
);

interface Case {
  readonly topology: Topology;
  readonly options: NetworkOptions;
  readonly messages: { src: number; dst: number; bytes: number; startNs: number; sl: number }[];
}

// An egress buffer of 1–6 packets and some slack, its watermarks anywhere in it.
const egressArb = fc.record({
  packets: fc.integer({ min: 1, max: 6 }),
  slack: fc.integer({ min: 0, max: 3000 }),
  xoff: fc.nat(),
  xon: fc.nat(),
});

// `manyVls`: 17–70 VLs (VOQnet's lane per destination, beyond InfiniBand's 16), each message on
// the VL of its destination host. `egress`: every host has an egress buffer.
const caseArb = (
  discipline: "credit" | "pfc",
  manyVls = false,
  egress = false,
): fc.Arbitrary<Case> =>
  fc
    .record({
      topology: topologyArb,
      mtuBytes: fc.constantFrom(256, 1024, 2048),
      vlCount: manyVls ? fc.integer({ min: 17, max: 70 }) : fc.integer({ min: 1, max: 2 }),
      queueing: fc.constantFrom("1q" as const, "voq-port" as const, "voq-dest" as const),
      switching: fc.constantFrom("vct" as const, "saf" as const),
      readPorts: fc.integer({ min: 1, max: 2 }),
      arbitration: fc.constantFrom("round-robin" as const, "oldest-first" as const),
      outputPackets: fc.integer({ min: 0, max: 3 }),
      speedup: fc.constantFrom(1, 1.5, 2),
      routingLatencyNs: fc.integer({ min: 0, max: 200 }),
      bufferPackets: fc.integer({ min: 1, max: 6 }),
      slack: fc.integer({ min: 0, max: 4096 }),
      shared: fc.boolean(),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      cap: fc.option(fc.constantFrom(5, 13), { nil: null }),
      slowReceiver: fc.option(fc.constantFrom(3, 8), { nil: null }),
      egressBuffer: egress ? egressArb : fc.constant(null),
      raw: fc.array(
        fc.record({
          src: fc.nat(),
          dst: fc.nat(),
          bytes: fc.integer({ min: 1, max: 12_000 }),
          startNs: fc.integer({ min: 0, max: 20_000 }),
          sl: fc.nat(1),
        }),
        { minLength: 1, maxLength: 25 },
      ),
    })
    .map((r) => {
      const hosts = r.topology.fabric.hosts.length;
      const packet = r.mtuBytes + 26;
      const maxRate = Math.max(...r.topology.fabric.cables.map((c) => c.rateGbps));
      const maxLatency = Math.max(...r.topology.fabric.cables.map((c) => c.latencyNs));
      const headroom = pfcHeadroomBytes({
        rateGbps: maxRate,
        latencyNs: maxLatency,
        maxPacketBytes: packet,
        processingNs: r.routingLatencyNs,
        cutThroughBytes: packet, // hosts count a packet at its tail: the worst case
      });
      const xoff = r.bufferPackets * packet;
      const bufferBytes =
        discipline === "credit"
          ? creditBlocks(packet) * 64 * r.bufferPackets + r.slack
          : xoff + headroom + r.slack;
      const pfc = { xoffBytes: xoff, xonBytes: Math.floor(xoff / 2) };
      const e = r.egressBuffer;
      const egressBytes = e === null ? 0 : e.packets * packet + e.slack;
      const egressXoff = e === null ? 0 : 1 + (e.xoff % egressBytes);
      const options: NetworkOptions = {
        flowControl: discipline,
        seed: r.seed,
        switch: {
          vlCount: r.vlCount,
          queueing: r.queueing,
          switching: r.switching,
          readPorts: r.readPorts,
          arbitration: r.arbitration,
          outputBufferBytes: r.outputPackets * packet,
          speedup: r.outputPackets === 0 ? 1 : r.speedup,
          routingLatencyNs: r.routingLatencyNs,
          buffer:
            discipline === "pfc" && r.shared
              ? {
                  model: "shared",
                  sharedBytes: bufferBytes * 4,
                  alpha: 1,
                  headroomBytes: headroom,
                  xonOffsetBytes: packet,
                }
              : { model: "partitioned", bytesPerPortVl: bufferBytes },
          ...(discipline === "pfc" ? { pfc } : {}),
        },
        host: {
          mtuBytes: r.mtuBytes,
          receiveBufferBytes: bufferBytes,
          injectionCapGbps: r.cap,
          receiveRateGbps: r.slowReceiver,
          egressBuffer:
            e === null
              ? null
              : { bytes: egressBytes, xoffBytes: egressXoff, xonBytes: e.xon % egressXoff },
        },
        ...(discipline === "pfc" ? { hostPfc: pfc } : {}),
      };
      const messages = r.raw.map((m) => {
        const src = m.src % hosts;
        let dst = m.dst % hosts;
        if (dst === src) dst = (dst + 1) % hosts;
        const sl = manyVls ? dst : m.sl % r.vlCount;
        return { src, dst, bytes: m.bytes, startNs: m.startNs, sl };
      });
      return { topology: r.topology, options, messages };
    });

interface Outcome {
  readonly trace: string[];
  readonly violation: string | undefined;
}

// Runs a case to the end, checking invariants after every event; returns the delivery trace.
function runCase(c: Case): Outcome {
  const net = new Network(c.topology, c.options);
  const trace: string[] = [];
  const deliveries = new Map<string, number>();
  const lastInjected = new Map<number, number>();
  const deterministic = c.topology.routing.tables.every((t) => t.selection !== "random");
  let violation: string | undefined;
  const expected = new Map<number, { bytes: number; flow: number }>();
  for (const m of c.messages) {
    const id = net.addMessage(m.src, {
      dstHost: m.dst,
      bytes: m.bytes,
      startPs: m.startNs * 1000,
      sl: m.sl,
    });
    expected.set(id, { bytes: m.bytes, flow: m.src });
  }
  const packets = net.packets;
  net.onDelivery((packet, nowPs) => {
    if (packets.kindCode[packet] !== DATA_KIND) return;
    const key = `${packets.messageId[packet]}/${packets.seqInMessage[packet]}`;
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
    trace.push(`${nowPs}:${key}`);
    if (deterministic) {
      // A flow's packets must arrive in the order they were injected (a host injects one
      // packet at a time, so injection times order them).
      const flowId = packets.flowId[packet]!;
      const injectedPs = packets.injectedPs[packet]!;
      const previous = lastInjected.get(flowId) ?? -1;
      if (injectedPs <= previous) {
        violation ??= `flow ${flowId}: packet injected at ${injectedPs} ps arrived after one injected at ${previous} ps`;
      }
      lastInjected.set(flowId, injectedPs);
    }
  });
  const maxPacket = (c.options.host?.mtuBytes ?? 2048) + 26;
  const outcome = net.run(undefined, () => {
    violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
    if (violation === undefined) {
      // A port sends one packet at a time: a link cannot have carried more than its rate
      // allows since time 0, plus the packet it may have just started.
      for (const link of net.links.links) {
        if (link.bytesSent > (link.rateGbps * net.nowPs) / 8000 + maxPacket) {
          violation = `link ${link.index} sent ${link.bytesSent} B by ${net.nowPs} ps at ${link.rateGbps} Gb/s`;
        }
      }
    }
    return violation !== undefined || net.scheduler.processed > 2_000_000;
  });
  if (violation === undefined && outcome !== "empty") violation = `run did not finish (${outcome})`;
  if (violation === undefined) {
    for (const [key, count] of deliveries) {
      if (count !== 1) violation ??= `packet ${key} delivered ${count} times`;
    }
    const completed = new Map<number, number>();
    for (const host of net.hosts)
      for (const done of host.completions) completed.set(done.messageId, done.bytes);
    for (const [id, m] of expected) {
      if (completed.get(id) !== m.bytes)
        violation ??= `message ${id} (${m.bytes} B) completed with ${completed.get(id)} B`;
    }
    const packets = [...expected.values()].reduce(
      (sum, m) => sum + Math.ceil(m.bytes / (maxPacket - 26)),
      0,
    );
    if (deliveries.size !== packets)
      violation ??= `${deliveries.size} distinct packets delivered, ${packets} sent`;
    for (const host of net.hosts) {
      const egress = host.egressBuffer;
      if (egress !== undefined && (egress.packetCount !== 0 || egress.xoff.includes(1)))
        violation ??= `host ${host.name}: egress FIFOs hold ${egress.packetCount} packets at the end`;
    }
  }
  return { trace, violation };
}

for (const discipline of ["credit", "pfc"] as const) {
  test.prop([caseArb(discipline)], { numRuns: RUNS })(
    `${discipline}: lossless, exactly once, in order, within buffers and rates`,
    (c) => {
      const { violation } = runCase(c);
      expect(violation).toBeUndefined();
    },
  );
}

// Hosts with egress buffers: the FIFOs fill while the switches pause (or starve) the uplinks.
for (const discipline of ["pfc", "credit"] as const) {
  test.prop([caseArb(discipline, false, true)], { numRuns: discipline === "pfc" ? 100 : 50 })(
    `${discipline}, egress buffers: lossless, exactly once, in order, FIFOs within their size and empty at the end`,
    (c) => {
      const { violation } = runCase(c);
      expect(violation).toBeUndefined();
    },
  );
}

// Many VLs, each destination on its own: every VL of every link keeps its own credits.
test.prop([caseArb("credit", true)], { numRuns: 40 })(
  "credit, a VL per destination: lossless, exactly once, in order, credits conserved",
  (c) => {
    const { violation } = runCase(c);
    expect(violation).toBeUndefined();
  },
);

test.prop([fc.constantFrom("credit" as const, "pfc" as const).chain((d) => caseArb(d))], {
  numRuns: RUNS,
})("the same scenario and seed give the same deliveries at the same times", (c) => {
  expect(runCase(c).trace).toEqual(runCase(c).trace);
});
