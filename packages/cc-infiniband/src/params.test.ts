import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  cctFromFormula,
  type IbCcParams,
  PRESET_DEFAULTS,
  PRESETS,
  params,
  paramsInput,
  thresholdsBytes,
} from "./params.js";

/** The issues of a rejected input (fails the test if the input is accepted). */
function issues(input: unknown): { path: PropertyKey[]; code: string; keys?: string[] }[] {
  const result = params.safeParse(input);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []) as { path: PropertyKey[]; code: string; keys?: string[] }[];
}

/** The paths of the issues of a rejected input, each joined with dots. */
function issuePaths(input: unknown): string[] {
  return issues(input).map((i) => i.path.map(String).join("."));
}

describe("presets", () => {
  it("paper3-hardware fills every key a scenario leaves out", () => {
    const p = params.parse({});
    expect(p.preset).toBe("paper3-hardware");
    expect(p.thresholdWeight).toBe(15);
    expect(p.thresholdFraction).toBeNull();
    expect(p.thresholdHighBytes).toBeNull();
    expect(p.thresholdLowBytes).toBeNull();
    expect(p.markingRate).toBe(1);
    expect(p.packetSize64B).toBe(8);
    expect(p.cctiIncrease).toBe(1);
    expect(p.cctiLimit).toBe(127);
    expect(p.cctiMin).toBe(0);
    expect(p.cctiTimerUs).toBe(150);
    expect(p.thresholdMapping).toBe("voq");
    expect(p.victimMask).toBe("host-ports");
    expect(p.marking).toBe("probability");
    expect(p.level).toBe("qp");
    expect(p.timer).toBe("port-sl");
  });

  it("paper3-hardware's CCT is i²·7/106² µs with 128 entries", () => {
    const p = params.parse({ preset: "paper3-hardware" });
    expect(p.cctUs).toHaveLength(128);
    // Pinned by hand: 7·i²/11236 µs.
    expect(p.cctUs[0]).toBe(0);
    expect(p.cctUs[1]).toBeCloseTo(0.000622997508, 12); // 7 / 11236
    expect(p.cctUs[53]).toBeCloseTo(1.75, 12); // 7 / 4
    expect(p.cctUs[106]).toBeCloseTo(7, 12);
    expect(p.cctUs[127]).toBeCloseTo(10.048326806693, 11); // 112 903 / 11 236
    // Strictly increasing: a higher index always throttles harder.
    for (let i = 1; i < p.cctUs.length; i++) expect(p.cctUs[i]!).toBeGreaterThan(p.cctUs[i - 1]!);
  });

  it("paper4-fattree differs only by Marking_Rate 0 and Packet_Size 0", () => {
    const p3 = params.parse({ preset: "paper3-hardware" });
    const p4 = params.parse({ preset: "paper4-fattree" });
    expect(p4.preset).toBe("paper4-fattree");
    expect(p4.markingRate).toBe(0);
    expect(p4.packetSize64B).toBe(0);
    expect({ ...p4, preset: p3.preset, markingRate: 1, packetSize64B: 8 }).toEqual(p3);
  });

  it("explicit values override the preset", () => {
    const cctUs = Array.from({ length: 130 }, (_, i) => i / 10);
    const p = params.parse({
      preset: "paper4-fattree",
      thresholdWeight: 3,
      markingRate: 7,
      packetSize64B: 2,
      cctiIncrease: 4,
      cctiLimit: 100,
      cctiMin: 5,
      cctiTimerUs: 12.5,
      cctUs,
      thresholdMapping: "sum-per-input",
      victimMask: "none",
      marking: "count",
      level: "sl",
      timer: "per-flow",
      tcdReaction: true,
    });
    expect(p).toEqual({
      preset: "paper4-fattree",
      thresholdWeight: 3,
      thresholdFraction: null,
      thresholdHighBytes: null,
      thresholdLowBytes: null,
      thresholdMapping: "sum-per-input",
      victimMask: "none",
      markingRate: 7,
      marking: "count",
      packetSize64B: 2,
      cctiIncrease: 4,
      cctiLimit: 100,
      cctiMin: 5,
      cctiTimerUs: 12.5,
      cctUs,
      level: "sl",
      timer: "per-flow",
      tcdReaction: true,
    });
  });

  it("a CCT formula overrides the preset's table", () => {
    const p = params.parse({ cctFormula: { entries: 200, scaleUs: 3, divisor: 10 } });
    expect(p.cctUs).toHaveLength(200);
    expect(p.cctUs[10]).toBeCloseTo(3, 12);
    expect(p.cctUs[199]).toBeCloseTo(1188.03, 9); // 3 · 39 601 / 100
  });

  it("cctFromFormula: entry i is scaleUs · i² / divisor² µs", () => {
    const cct = cctFromFormula({ entries: 130, scaleUs: 2, divisor: 4 }); // i² / 8, exact
    expect(cct).toHaveLength(130);
    expect(cct.slice(0, 5)).toEqual([0, 0.125, 0.5, 1.125, 2]);
    expect(cct[129]).toBe(2080.125); // 16 641 / 8
  });

  it("cctFromFormula: exponent 1 is linear, exponent 2 the same as without one", () => {
    const linear = cctFromFormula({ entries: 128, scaleUs: 1, divisor: 20, exponent: 1 });
    expect(linear.slice(0, 4)).toEqual([0, 0.05, 0.1, 0.15]);
    expect(linear[127]).toBe(6.35);
    const f = { entries: 128, scaleUs: 7, divisor: 106 };
    expect(cctFromFormula({ ...f, exponent: 2 })).toEqual(cctFromFormula(f));
    expect(cctFromFormula({ entries: 128, scaleUs: 1, divisor: 2, exponent: 3 })[4]).toBe(8);
  });

  it("explicit byte thresholds replace the weight (which resolves to null)", () => {
    const p = params.parse({ thresholdHighBytes: 4000, thresholdLowBytes: 1000 });
    expect(p.thresholdWeight).toBeNull();
    expect(p.thresholdHighBytes).toBe(4000);
    expect(p.thresholdLowBytes).toBe(1000);
  });

  it("the exported presets table holds the papers' values", () => {
    const paper3 = {
      thresholdWeight: 15,
      markingRate: 1,
      packetSize64B: 8,
      cctiIncrease: 1,
      cctiLimit: 127,
      cctiMin: 0,
      cctiTimerUs: 150,
      cctFormula: { entries: 128, scaleUs: 7, divisor: 106 },
    };
    expect(Object.keys(PRESETS).sort()).toEqual(["paper3-hardware", "paper4-fattree", "srp-ecn"]);
    expect(PRESETS["paper3-hardware"]).toEqual(paper3);
    expect(PRESETS["paper4-fattree"]).toEqual({ ...paper3, markingRate: 0, packetSize64B: 0 });
  });
});

describe("srp-ecn preset (SRP paper Table 1, seed 000_23e1115f082a0339.txt, lines 113–116)", () => {
  const p = params.parse({ preset: "srp-ecn" });

  it("resolves to the paper's ECN parameters", () => {
    expect(p).toMatchObject({
      preset: "srp-ecn",
      thresholdWeight: null,
      thresholdFraction: 0.9,
      thresholdHighBytes: null,
      thresholdLowBytes: null,
      thresholdMapping: "sum",
      victimMask: "none",
      markingRate: 0,
      packetSize64B: 0,
      cctiIncrease: 16,
      cctiLimit: 4095,
      cctiMin: 0,
      cctiTimerUs: 2,
      level: "qp",
      timer: "per-flow",
    });
  });

  it("has a linear CCT of 50 ns steps: IPD+ 800 ns is 16 steps, IPD− 50 ns one", () => {
    expect(p.cctUs).toHaveLength(4096);
    for (let i = 0; i < p.cctUs.length; i++) expect(p.cctUs[i]! * 1000).toBeCloseTo(50 * i, 9);
    expect(p.cctUs[1]).toBe(0.05);
    expect(p.cctUs[p.cctiIncrease]).toBe(0.8);
    expect(p.cctUs[2 * p.cctiIncrease]! - p.cctUs[p.cctiIncrease]!).toBeCloseTo(0.8, 12);
    expect(p.cctUs[p.cctiLimit]).toBe(204.75);
  });

  it("marks above 90 % of the input buffer: 3686.4 of 4096 bytes per VL", () => {
    expect(thresholdsBytes(p, 4096)).toEqual({ high: 3686.4, low: 3686.4 });
    expect(thresholdsBytes(p, 32 * 1024)!.high).toBeCloseTo(29_491.2, 9);
  });

  it("a threshold the scenario gives replaces the preset's fraction", () => {
    const weighted = params.parse({ preset: "srp-ecn", thresholdWeight: 2 });
    expect([weighted.thresholdWeight, weighted.thresholdFraction]).toEqual([2, null]);
    expect(thresholdsBytes(weighted, 4096)).toEqual({ high: 3584, low: 3584 });
    const bytes = params.parse({
      preset: "srp-ecn",
      thresholdHighBytes: 3000,
      thresholdLowBytes: 1000,
    });
    expect([bytes.thresholdWeight, bytes.thresholdFraction]).toEqual([null, null]);
    expect(thresholdsBytes(bytes, 4096)).toEqual({ high: 3000, low: 1000 });
    // And a fraction the preset's weight.
    const fraction = params.parse({ preset: "paper3-hardware", thresholdFraction: 0.5 });
    expect([fraction.thresholdWeight, fraction.thresholdFraction]).toEqual([null, 0.5]);
  });

  it("explicit keys override its modes, and its resolved form parses to itself", () => {
    const q = params.parse({ preset: "srp-ecn", timer: "port-sl", thresholdMapping: "voq" });
    expect([q.timer, q.thresholdMapping, q.victimMask]).toEqual(["port-sl", "voq", "none"]);
    expect(params.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  });

  it("the other presets keep the spec's modes", () => {
    for (const preset of ["paper3-hardware", "paper4-fattree"] as const) {
      const q = params.parse({ preset });
      expect(q).toMatchObject({ ...PRESET_DEFAULTS, thresholdWeight: 15 });
    }
  });
});

describe("tcdReaction (TCD's marks at the hosts, INFERRED rule)", () => {
  const presets = Object.keys(PRESETS) as (keyof typeof PRESETS)[];

  it("is off in every preset unless given, and given passes through every preset", () => {
    expect(PRESET_DEFAULTS.tcdReaction).toBe(false);
    for (const preset of presets) {
      const off = params.parse({ preset });
      expect(off.tcdReaction, preset).toBe(false);
      for (const tcdReaction of [true, false]) {
        const on = params.parse({ preset, tcdReaction });
        // Only the option differs from the preset's own values.
        expect(on, `${preset} ${tcdReaction}`).toEqual({ ...off, tcdReaction });
        // A resolved scenario gives it back unchanged.
        expect(params.parse(JSON.parse(JSON.stringify(on)))).toEqual(on);
      }
    }
  });

  it("is a boolean, described for `cclab list`", () => {
    expect(issuePaths({ tcdReaction: "yes" })).toEqual(["tcdReaction"]);
    expect(issuePaths({ tcdReaction: 1 })).toEqual(["tcdReaction"]);
    expect(paramsInput.shape.tcdReaction.description).toMatch(/TCD/);
    expect(paramsInput.shape.tcdReaction.description).toMatch(/INFERRED/);
  });
});

describe("validation", () => {
  it("rejects a threshold fraction together with a weight or byte thresholds", () => {
    expect(issuePaths({ thresholdFraction: 0.9, thresholdWeight: 2 })).toEqual([
      "thresholdFraction",
    ]);
    expect(
      issuePaths({ thresholdFraction: 0.9, thresholdHighBytes: 900, thresholdLowBytes: 900 }),
    ).toEqual(["thresholdFraction"]);
    expect(issuePaths({ thresholdFraction: 0 })).toEqual(["thresholdFraction"]);
    expect(issuePaths({ thresholdFraction: 1.5 })).toEqual(["thresholdFraction"]);
    expect(
      issuePaths({ cctFormula: { entries: 128, scaleUs: 1, divisor: 1, exponent: 5 } }),
    ).toEqual(["cctFormula.exponent"]);
  });

  it("rejects thresholdHighBytes without thresholdLowBytes, at the missing key", () => {
    expect(issuePaths({ thresholdHighBytes: 1000 })).toEqual(["thresholdLowBytes"]);
  });

  it("rejects thresholdLowBytes without thresholdHighBytes, at the missing key", () => {
    expect(issuePaths({ thresholdLowBytes: 1000 })).toEqual(["thresholdHighBytes"]);
  });

  it("rejects a low threshold above the high one", () => {
    expect(issuePaths({ thresholdHighBytes: 1000, thresholdLowBytes: 1001 })).toEqual([
      "thresholdLowBytes",
    ]);
    // Equal thresholds are a single threshold: accepted.
    expect(params.safeParse({ thresholdHighBytes: 1000, thresholdLowBytes: 1000 }).success).toBe(
      true,
    );
  });

  it("rejects a weight together with byte thresholds", () => {
    expect(
      issuePaths({ thresholdWeight: 4, thresholdHighBytes: 1000, thresholdLowBytes: 500 }),
    ).toEqual(["thresholdWeight"]);
  });

  it("rejects cctUs together with cctFormula", () => {
    const cctUs = Array.from({ length: 128 }, () => 1);
    expect(issuePaths({ cctUs, cctFormula: { entries: 128, scaleUs: 7, divisor: 106 } })).toEqual([
      "cctUs",
    ]);
  });

  it("rejects a cctiLimit that does not index the CCT", () => {
    expect(issuePaths({ cctiLimit: 128 })).toEqual(["cctiLimit"]);
    expect(params.parse({ cctiLimit: 127 }).cctiLimit).toBe(127);
    const cctUs = Array.from({ length: 140 }, (_, i) => i);
    expect(issuePaths({ cctUs, cctiLimit: 140 })).toEqual(["cctiLimit"]);
    expect(params.parse({ cctUs, cctiLimit: 139 }).cctiLimit).toBe(139);
    const cctFormula = { entries: 150, scaleUs: 1, divisor: 1 };
    expect(issuePaths({ cctFormula, cctiLimit: 150 })).toEqual(["cctiLimit"]);
    expect(params.parse({ cctFormula, cctiLimit: 149 }).cctiLimit).toBe(149);
  });

  it("rejects a cctiMin above cctiLimit (given or from the preset)", () => {
    expect(issuePaths({ cctiMin: 11, cctiLimit: 10 })).toEqual(["cctiMin"]);
    expect(issuePaths({ cctiMin: 128 })).toContain("cctiMin");
    expect(params.parse({ cctiMin: 10, cctiLimit: 10 }).cctiMin).toBe(10);
  });

  it("rejects a CCT shorter than 128 entries", () => {
    expect(issuePaths({ cctUs: Array.from({ length: 127 }, () => 1) })).toContain("cctUs");
    expect(issuePaths({ cctFormula: { entries: 127, scaleUs: 7, divisor: 106 } })).toContain(
      "cctFormula.entries",
    );
  });

  it("rejects an unknown key, naming it", () => {
    const found = issues({ thresholdWieght: 3 });
    expect(found).toHaveLength(1);
    expect(found[0]!.code).toBe("unrecognized_keys");
    expect(found[0]!.keys).toEqual(["thresholdWieght"]);
  });

  it("rejects out-of-range values at their key", () => {
    expect(issuePaths({ thresholdWeight: 16 })).toEqual(["thresholdWeight"]);
    expect(issuePaths({ markingRate: -1 })).toEqual(["markingRate"]);
    expect(issuePaths({ cctiTimerUs: 0 })).toEqual(["cctiTimerUs"]);
    // Below 1 ns a timer would round to 0 ps and never advance the clock.
    expect(issuePaths({ cctiTimerUs: 1e-7 })).toEqual(["cctiTimerUs"]);
    expect(params.parse({ cctiTimerUs: 0.001 }).cctiTimerUs).toBe(0.001);
    expect(issuePaths({ preset: "paper9" })).toEqual(["preset"]);
  });
});

describe("thresholdsBytes", () => {
  const weighted = (w: number): IbCcParams => params.parse({ thresholdWeight: w });

  it("weight 0 never marks: no threshold", () => {
    expect(thresholdsBytes(weighted(0), 32 * 1024)).toBeNull();
  });

  const WEIGHTED = Array.from({ length: 16 }, (_, w) => weighted(w));

  test.prop([fc.integer({ min: 64, max: 1 << 20 })])(
    "weights 1..15 give a single threshold within (0, buffer] that falls as the weight rises; 0 none",
    (buffer) => {
      expect(thresholdsBytes(WEIGHTED[0]!, buffer)).toBeNull();
      let previous = Number.POSITIVE_INFINITY;
      for (let w = 1; w <= 15; w++) {
        const t = thresholdsBytes(WEIGHTED[w]!, buffer);
        expect(t, `w ${w}`).not.toBeNull();
        expect(t!.low, `w ${w}`).toBe(t!.high);
        expect(t!.high, `w ${w}`).toBeGreaterThan(0);
        expect(t!.high, `w ${w}`).toBeLessThanOrEqual(buffer);
        expect(t!.high, `w ${w}`).toBeLessThan(previous);
        previous = t!.high;
      }
    },
  );

  it("weights decrease the threshold: 15 is 1/16 of the buffer, 1 is 15/16", () => {
    expect(thresholdsBytes(weighted(15), 32 * 1024)).toEqual({ high: 2048, low: 2048 });
    expect(thresholdsBytes(weighted(1), 32 * 1024)).toEqual({ high: 30_720, low: 30_720 });
    expect(thresholdsBytes(weighted(8), 1000)).toEqual({ high: 500, low: 500 });
  });

  test.prop([
    fc.integer({ min: 1, max: 100_000 }),
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 64, max: 1 << 20 }),
  ])("explicit thresholds are taken as given, whatever the buffer", (a, b, buffer) => {
    const high = Math.max(a, b);
    const low = Math.min(a, b);
    const p = params.parse({ thresholdHighBytes: high, thresholdLowBytes: low });
    expect(thresholdsBytes(p, buffer)).toEqual({ high, low });
  });
});
