/**
 * The package as the scenario runner uses it: the registry, the entry schema it builds from
 * the patterns' schemas, and the properties every pattern keeps (determinism per seed,
 * independent entries, well-formed and time-ordered messages, finite patterns ending).
 */
import { usToPs } from "@cclab/core-des";
import {
  createTrafficSource,
  isFinitePattern,
  mergeSources,
  TRAFFIC_PATTERNS,
  type TrafficEntry,
  trafficEntrySchema,
} from "@cclab/traffic";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { drain, shapeViolation, testContext } from "./context.js";

const NAMES = [
  "uniform",
  "hotspot",
  "hotspot-background",
  "impulse",
  "on-off",
  "scheduled",
  "silent-trees",
  "windy-trees",
  "moving-trees",
  "trace",
];

describe("the registry", () => {
  it("holds every pattern under its name", () => {
    expect(Object.keys(TRAFFIC_PATTERNS)).toEqual(NAMES);
    for (const [name, p] of Object.entries(TRAFFIC_PATTERNS)) {
      expect(p.name).toBe(name);
      expect(p.description).toMatch(/^[a-zA-Z].{10,100}$/);
    }
  });

  it.each(NAMES)("%s: strict schema, no pattern key, every field described", (name) => {
    const schema = TRAFFIC_PATTERNS[name]!.params;
    expect(schema.shape).not.toHaveProperty("pattern");
    expect(schema.safeParse({ notAParameter: 1 }).error?.issues.map((i) => i.code)).toContain(
      "unrecognized_keys",
    );
    for (const [key, field] of Object.entries(schema.shape)) {
      expect({ key, description: z.globalRegistry.get(field)?.description }).toEqual({
        key,
        description: expect.any(String),
      });
    }
    // The CLI can list and document the parameters.
    expect(z.toJSONSchema(schema, { io: "input" })).toHaveProperty("properties");
  });

  it("builds the runner's entry schema, discriminated by pattern", () => {
    const schema = trafficEntrySchema();
    expect(schema.parse({ pattern: "uniform", loadFraction: 0.5 })).toEqual({
      pattern: "uniform",
      loadFraction: 0.5,
      size: { kind: "fixed", bytes: 4096 },
      startNs: 0,
    });
    expect(schema.safeParse({ pattern: "uniform", loadFraction: 0.5, hotspots: 8 }).success).toBe(
      false,
    );
    expect(schema.safeParse({ pattern: "silent-trees", hotspots: 8 }).success).toBe(true);
    expect(schema.safeParse({ pattern: "ring", loadFraction: 0.5 }).success).toBe(false);
  });

  it("creates an entry's source, naming unknown patterns and bad fields", () => {
    const ctx = testContext({ hostCount: 4, endPs: usToPs(1) });
    const source = createTrafficSource({ pattern: "hotspot", hotspot: 0 }, ctx);
    expect(drain(source).every((m) => m.dstHost === 0)).toBe(true);
    expect(() => createTrafficSource({ pattern: "ring" }, ctx)).toThrow(
      /unknown traffic pattern "ring" \(known: uniform, hotspot,/,
    );
    expect(() => createTrafficSource({ pattern: "toString" }, ctx)).toThrow(/unknown traffic/);
    expect(() => createTrafficSource({ pattern: "hotspot", hotspot: 4 }, ctx)).toThrow(
      new RangeError("traffic pattern hotspot: hotspot = 4 is not a host (0..3)"),
    );
    expect(() => createTrafficSource({ pattern: "hotspot", hotspot: -1 }, ctx)).toThrow(z.ZodError);
  });
});

/** Valid parameters of a random pattern for `hostCount` hosts, each with a stop. */
function entryArb(hostCount: number): fc.Arbitrary<TrafficEntry> {
  const host = fc.integer({ min: 0, max: hostCount - 1 });
  // Bounded so that a case has at most a few thousand messages: sizes ≥ 256 B, ≤ 10 µs.
  const stopNs = fc.integer({ min: 1000, max: 10_000 });
  const size = fc.oneof(
    fc.record({ kind: fc.constant("fixed"), bytes: fc.integer({ min: 256, max: 8192 }) }),
    fc.record({
      kind: fc.constant("bimodal"),
      smallBytes: fc.integer({ min: 256, max: 512 }),
      largeBytes: fc.integer({ min: 512, max: 65_536 }),
      largeFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc
      .tuple(fc.integer({ min: 256, max: 9000 }), fc.integer({ min: 0, max: 9000 }))
      .map(([minBytes, extra]) => ({ kind: "uniform", minBytes, maxBytes: minBytes + extra })),
  );
  const load = fc.double({ min: 0.05, max: 1, noNaN: true });
  const senderCount = fc.integer({ min: 1, max: hostCount - 1 });
  const trees = {
    hotspots: fc.integer({ min: 1, max: Math.min(4, hostCount) }),
    contributorFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    injectionGbps: fc.double({ min: 1, max: 100, noNaN: true }),
    messageBytes: fc.integer({ min: 512, max: 8192 }),
    startNs: fc.integer({ min: 0, max: 999 }),
    stopNs,
  };
  const windy = {
    windyFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    hotFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  };
  const flow = fc
    .tuple(host, fc.integer({ min: 1, max: hostCount - 1 }), fc.integer({ min: 0, max: 5000 }))
    .chain(([src, shift, startNs]) =>
      fc.record({
        src: fc.constant(src),
        dst: fc.constant((src + shift) % hostCount),
        startNs: fc.constant(startNs),
        stopNs: fc.integer({ min: startNs + 1, max: 10_000 }),
        messageBytes: fc.integer({ min: 256, max: 65_536 }),
      }),
    );
  const row = fc
    .tuple(
      host,
      fc.integer({ min: 1, max: hostCount - 1 }),
      fc.integer({ min: 1, max: 1e6 }),
      fc.nat(20_000),
    )
    .map(([src, shift, bytes, t]) => `${src},${(src + shift) % hostCount},${bytes},${t}`);
  return fc.oneof(
    fc.record({ pattern: fc.constant("uniform"), loadFraction: load, size, stopNs }),
    fc.record({ pattern: fc.constant("hotspot"), senderCount, stopNs }),
    fc.record({
      pattern: fc.constant("hotspot-background"),
      senderCount,
      loadFraction: load,
      size,
      stopNs,
    }),
    fc.record({
      pattern: fc.constant("impulse"),
      atNs: fc.nat(20_000),
      messages: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({
      pattern: fc.constant("on-off"),
      onUs: fc.double({ min: 0.1, max: 5, noNaN: true }),
      offUs: fc.double({ min: 0.1, max: 5, noNaN: true }),
      durations: fc.constantFrom("fixed", "exponential"),
      synchronized: fc.boolean(),
      stopNs,
    }),
    fc.record({
      pattern: fc.constant("scheduled"),
      flows: fc.array(flow, { minLength: 1, maxLength: 5 }),
    }),
    fc.record({ pattern: fc.constant("silent-trees"), ...trees }),
    fc.record({ pattern: fc.constant("windy-trees"), ...trees, ...windy }),
    fc.record({
      pattern: fc.constant("moving-trees"),
      ...trees,
      ...windy,
      lifetimeUs: fc.double({ min: 0.5, max: 10, noNaN: true }),
    }),
    fc.record({
      pattern: fc.constant("trace"),
      path: fc
        .array(row, { maxLength: 40 })
        .map((rows) => `src,dst,bytes,startNs\n${rows.join("\n")}`),
    }),
  );
}

const caseArb = fc
  .record({
    hostCount: fc.integer({ min: 2, max: 12 }),
    seed: fc.integer(),
    rateGbps: fc.constantFrom(10, 25, 100),
  })
  .chain((c) => fc.record({ c: fc.constant(c), entry: entryArb(c.hostCount) }));

/** The context of a case; a trace entry's "path" is its text, served as that file. */
function contextOf(
  c: { hostCount: number; seed: number; rateGbps: number },
  entry: TrafficEntry,
  name = "traffic/0",
) {
  const files = typeof entry.path === "string" ? { [entry.path]: entry.path } : {};
  return testContext({ ...c, entry: name, files });
}

describe("every pattern", () => {
  test.prop([caseArb], { numRuns: 150 })(
    "with a stop ends by itself, in order, never to itself, within its window",
    ({ c, entry }) => {
      const pattern = TRAFFIC_PATTERNS[entry.pattern]!;
      const { pattern: _, ...raw } = entry;
      expect(isFinitePattern(pattern, pattern.params.parse(raw))).toBe(true);
      const messages = drain(createTrafficSource(entry, contextOf(c, entry)), 100_000);
      const untilPs = typeof entry.stopNs === "number" ? entry.stopNs * 1000 : undefined;
      const fromPs = typeof entry.startNs === "number" ? entry.startNs * 1000 : 0;
      expect(shapeViolation(messages, c.hostCount, fromPs, untilPs)).toBeUndefined();
    },
  );

  test.prop([caseArb], { numRuns: 100 })(
    "gives the same messages for the same seed, whatever another entry does meanwhile",
    ({ c, entry }) => {
      const alone = drain(createTrafficSource(entry, contextOf(c, entry)));
      // The same entry again, pulled in turn with another entry of the same run.
      const again = createTrafficSource(entry, contextOf(c, entry));
      const other = createTrafficSource(entry, contextOf(c, entry, "traffic/1"));
      const interleaved = [];
      for (let m = again.next(); m !== undefined; m = again.next()) {
        interleaved.push(m);
        other.next();
      }
      expect(interleaved).toEqual(alone);
    },
  );

  it("that draws at random differs between entries of one run", () => {
    const c = { hostCount: 16, seed: 7, rateGbps: 100 };
    const random: TrafficEntry[] = [
      { pattern: "uniform", loadFraction: 0.5, stopNs: 5000 },
      { pattern: "hotspot", senderCount: 3, stopNs: 5000 },
      { pattern: "on-off", onUs: 1, offUs: 1, stopNs: 5000 },
      { pattern: "impulse", atNs: 0 },
      { pattern: "windy-trees", stopNs: 5000 },
      { pattern: "moving-trees", stopNs: 5000 },
    ];
    for (const entry of random) {
      const a = drain(createTrafficSource(entry, contextOf(c, entry, "traffic/0")));
      const b = drain(createTrafficSource(entry, contextOf(c, entry, "traffic/1")));
      expect({ entry, same: a.length > 0 && JSON.stringify(a) === JSON.stringify(b) }).toEqual({
        entry,
        same: false,
      });
    }
  });

  it("merges with the others into one time-ordered stream", () => {
    const ctx = (name: string) => testContext({ hostCount: 8, entry: name, endPs: usToPs(5) });
    const entries: TrafficEntry[] = [
      { pattern: "uniform", loadFraction: 0.4, stopNs: 1000 },
      { pattern: "hotspot-background", senderCount: 2, loadFraction: 0.4, startNs: 1000 },
      { pattern: "impulse", atNs: 2500 },
    ];
    const merged = drain(
      mergeSources(entries.map((e, i) => createTrafficSource(e, ctx(`traffic/${i}`)))),
    );
    expect(shapeViolation(merged, 8, 0, usToPs(5))).toBeUndefined();
    const total = entries
      .map((e, i) => drain(createTrafficSource(e, ctx(`traffic/${i}`))).length)
      .reduce((a, b) => a + b);
    expect(merged).toHaveLength(total);
  });
});
