/**
 * Malformed scenarios, each with the path of the field its error must name. Shared by
 * the sim test (ScenarioError issues) and the CLI test (exit code 2, message on stderr).
 */
export const VALID = {
  name: "ok",
  topology: { kind: "single-switch", hosts: 4 },
  traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
  run: { durationUs: 20 },
};

type Doc = Record<string, unknown>;
const withTop = (patch: Doc): Doc => ({ ...VALID, ...patch });

export interface MalformedCase {
  readonly what: string;
  readonly document: unknown;
  /** The path the (first matching) issue must have. */
  readonly path: string;
  /** Text the message must contain (what is allowed). */
  readonly says: string;
}

export const MALFORMED: readonly MalformedCase[] = [
  {
    what: "unknown top-level key",
    document: withTop({ duration: 5 }),
    path: "",
    says: 'unknown key "duration"',
  },
  {
    what: "misspelt switch key",
    document: withTop({ switch: { readPort: 2 } }),
    path: "switch",
    says: "allowed:",
  },
  {
    what: "missing name",
    document: { ...VALID, name: undefined },
    path: "name",
    says: "non-empty string",
  },
  {
    what: "seed not a whole number",
    document: withTop({ seed: 1.5 }),
    path: "seed",
    says: "whole number",
  },
  {
    what: "negative rate",
    document: withTop({ topology: { kind: "single-switch", hosts: 4, rateGbps: -10 } }),
    path: "topology.rateGbps",
    says: "> 0 Gb/s",
  },
  {
    what: "zero injection cap",
    document: withTop({ host: { injectionCapGbps: 0 } }),
    path: "host.injectionCapGbps",
    says: "> 0 Gb/s",
  },
  {
    what: "rate given as a string with a unit",
    document: withTop({ host: { receiveRateGbps: "10Gbps" } }),
    path: "host.receiveRateGbps",
    says: "Gb/s",
  },
  {
    what: "negative latency",
    document: withTop({ switch: { routingLatencyNs: -1 } }),
    path: "switch.routingLatencyNs",
    says: "≥ 0 ns",
  },
  {
    what: "buffer smaller than one MTU",
    document: withTop({ switch: { buffer: { model: "partitioned", bytesPerPortVl: 1024 } } }),
    path: "switch.buffer.bytesPerPortVl",
    says: "one full packet",
  },
  {
    what: "host buffer smaller than one MTU",
    document: withTop({ host: { receiveBufferBytes: 512 } }),
    path: "host.receiveBufferBytes",
    says: "one full packet",
  },
  {
    what: "unknown buffer model",
    document: withTop({ switch: { buffer: { model: "infinite" } } }),
    path: "switch.buffer.model",
    says: '"partitioned" or "shared"',
  },
  {
    what: "unknown topology",
    document: withTop({ topology: { kind: "torus", k: 4 } }),
    path: "topology.kind",
    says: "single-switch",
  },
  {
    what: "impossible topology (one host)",
    document: withTop({ topology: { kind: "single-switch", hosts: 1 } }),
    path: "topology.hosts",
    says: "2..4096",
  },
  {
    what: "unknown traffic pattern",
    document: withTop({ traffic: [{ pattern: "zipf" }] }),
    path: "traffic[0].pattern",
    says: "uniform",
  },
  {
    what: "traffic pattern named like an object property",
    document: withTop({ traffic: [{ pattern: "toString" }] }),
    path: "traffic[0].pattern",
    says: "uniform",
  },
  {
    what: "topology named like an object property",
    document: withTop({ topology: { kind: "constructor" } }),
    path: "topology.kind",
    says: "single-switch",
  },
  {
    what: "load above 1",
    document: withTop({ traffic: [{ pattern: "uniform", loadFraction: 1.5 }] }),
    path: "traffic[0].loadFraction",
    says: "",
  },
  {
    what: "host out of range",
    document: withTop({ traffic: [{ pattern: "hotspot", hotspot: 9 }] }),
    path: "traffic[0]",
    says: "not a host",
  },
  {
    what: "unknown CC plugin",
    document: withTop({ cc: { hosts: [{ plugin: "dctcp" }] } }),
    path: "cc.hosts[0].plugin",
    says: "unknown CC plugin",
  },
  {
    what: "unknown flow control",
    document: withTop({ flowControl: "xon" }),
    path: "flowControl",
    says: '"credit", "pfc"',
  },
  {
    what: "PFC with a partitioned buffer and no thresholds",
    document: withTop({ flowControl: "pfc" }),
    path: "switch.pfc",
    says: "required",
  },
  {
    what: "endless traffic with untilComplete",
    document: withTop({ run: { untilComplete: true } }),
    path: "traffic[0]",
    says: "never ends",
  },
  { what: "no duration", document: withTop({ run: {} }), path: "run", says: "durationUs" },
  {
    what: "duration past the largest time",
    document: withTop({ run: { durationUs: 1e300 } }),
    path: "run.durationUs",
    says: "must be at most 9007199254 µs (the largest time, 2^53 − 1 ps), got 1e+300",
  },
  {
    what: "traffic start past the largest time",
    document: withTop({ traffic: [{ pattern: "uniform", loadFraction: 0.5, startNs: 1e300 }] }),
    path: "traffic[0].startNs",
    says: "must be at most 2^53 − 1 ps (about 9007 s)",
  },
  {
    what: "CC timer past the largest time",
    document: withTop({
      cc: { hosts: [{ plugin: "infiniband", hosts: "all", params: { cctiTimerUs: 1e300 } }] },
    }),
    path: "cc.hosts[0].params.cctiTimerUs",
    says: "must be at most 2^53 − 1 ps (about 9007 s)",
  },
  {
    what: "buffer beyond 32-bit sizes",
    document: withTop({ switch: { buffer: { model: "partitioned", bytesPerPortVl: 1e12 } } }),
    path: "switch.buffer.bytesPerPortVl",
    says: "must be at most 2147483647 bytes (2 GiB), got 1000000000000",
  },
  {
    what: "PFC thresholds on a credit fabric",
    document: withTop({ switch: { pfc: { xoffBytes: 1000, xonBytes: 500 } } }),
    path: "switch.pfc",
    says: "applies to PFC flow control only; this fabric uses credits",
  },
  {
    what: "host PFC thresholds on a credit fabric",
    document: withTop({ host: { pfc: { xoffBytes: 1000, xonBytes: 500 } } }),
    path: "host.pfc",
    says: "applies to PFC flow control only; this fabric uses credits",
  },
  {
    what: "infinite rate",
    document: withTop({
      topology: { kind: "single-switch", hosts: 4, rateGbps: Number.POSITIVE_INFINITY },
    }),
    path: "topology.rateGbps",
    says: "must be a rate > 0 Gb/s, got Infinity",
  },
  {
    what: "service level the fabric does not have",
    document: withTop({
      switch: { vlCount: 2 },
      traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1, sl: 2 }] }],
    }),
    path: "traffic[0]",
    says: "flows[0].sl = 2 is not a service level of this fabric (0..1",
  },
  {
    what: "more VLs than a port may have",
    document: withTop({ switch: { vlCount: 1025 } }),
    path: "switch.vlCount",
    says: "must be a whole number in 1..1024, got 1025",
  },
  {
    what: "a control VL beyond the VLs a port may have",
    document: withTop({ switch: { vlCount: 2, controlVls: [1024] } }),
    path: "switch.controlVls[0]",
    says: "must be a whole number in 0..1023, got 1024",
  },
  {
    what: "an SL mapping the host does not have",
    document: withTop({ host: { slMapping: "source" } }),
    path: "host.slMapping",
    says: 'must be one of "message", "destination", got "source"',
  },
  {
    what: "a VL per destination with fewer VLs than hosts",
    document: withTop({ switch: { vlCount: 3 }, host: { slMapping: "destination" } }),
    path: "host.slMapping",
    says: "needs switch.vlCount ≥ 4 (the host count), got 3",
  },
  {
    what: "a control VL that a destination's data would use",
    document: withTop({
      switch: { vlCount: 5, controlVls: [2] },
      host: { slMapping: "destination" },
    }),
    path: "switch.controlVls",
    says: '2 carries destination 2\'s data under host.slMapping "destination": control VLs must be ≥ 4',
  },
  {
    what: "a host name the topology does not have",
    document: withTop({ traffic: [{ pattern: "hotspot", hotspot: "H9", senders: [1, 2] }] }),
    path: "traffic[0].hotspot",
    says: '"H9" is not a host of this topology; give a host name (H0, H1, H2, H3) or an index 0..3',
  },
  {
    what: "a host name in a CC host group",
    document: withTop({ cc: { hosts: [{ plugin: "dcqcn", hosts: ["H1", "H7"] }] } }),
    path: "cc.hosts[0].hosts[1]",
    says: '"H7" is not a host of this topology',
  },
  {
    what: "a key a traffic pattern does not have",
    document: withTop({ traffic: [{ pattern: "hotspot", hotspot: 0, senders: [1], group: "x" }] }),
    path: "traffic[0]",
    says: 'unknown key "group"; allowed: hotspot, senders',
  },
  {
    what: "a traffic fraction above 1",
    document: withTop({ traffic: [{ pattern: "uniform", loadFraction: 2 }] }),
    path: "traffic[0].loadFraction",
    says: "must be ≤ 1 (a fraction), got 2",
  },
  {
    what: "a string where a traffic number goes",
    document: withTop({ traffic: [{ pattern: "uniform", loadFraction: "half" }] }),
    path: "traffic[0].loadFraction",
    says: 'must be a number (a fraction), got "half"',
  },
  {
    what: "a host receive buffer too small for PFC headroom",
    document: withTop({
      topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
      flowControl: "pfc",
      switch: { pfc: { xoffBytes: 16384, xonBytes: 8192 } },
      host: { receiveBufferBytes: 20_000, pfc: { xoffBytes: 18_000, xonBytes: 9000 } },
    }),
    path: "host.receiveBufferBytes",
    says: "PFC headroom too small on the link into host",
  },
];
