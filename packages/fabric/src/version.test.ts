import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  assertSpecVersion,
  CONTRACT_VERSION,
  IMPLEMENTED_CONTRACT_VERSIONS,
  SPEC_VERSION,
  satisfiesSpecVersion,
} from "./version.js";

type V = [number, number, number];

const component = fc.nat(12);
const version = fc.tuple(component, component, component);
const str = ([a, b, c]: V) => `${a}.${b}.${c}`;
const cmp = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const holds = (v: V, range: string | number) => satisfiesSpecVersion(str(v), range);

describe("the contract's versions", () => {
  it("is 3.5.0 and still implements every earlier minor down to 2.0.0", () => {
    expect(CONTRACT_VERSION).toBe("3.5.0");
    expect(IMPLEMENTED_CONTRACT_VERSIONS).toEqual([
      "3.5.0",
      "3.4.0",
      "3.3.0",
      "3.2.0",
      "3.1.0",
      "3.0.0",
      "2.0.0",
    ]);
    expect(Object.isFrozen(IMPLEMENTED_CONTRACT_VERSIONS)).toBe(true);
    expect(SPEC_VERSION).toBe(3);
  });
});

describe("satisfiesSpecVersion", () => {
  it.each([
    ["^3.0.0", ["3.0.0", "3.1.0", "3.9.9"], ["2.9.9", "4.0.0"]],
    ["^3", ["3.0.0", "3.5.1"], ["2.0.0", "4.0.0"]],
    ["^3.1", ["3.1.0", "3.4.0"], ["3.0.9", "4.0.0"]],
    ["^0.2.3", ["0.2.3", "0.2.9"], ["0.2.2", "0.3.0"]],
    ["^0.0.3", ["0.0.3"], ["0.0.4", "0.1.0"]],
    ["^0.0", ["0.0.0", "0.0.7"], ["0.1.0"]],
    ["~3.0", ["3.0.0", "3.0.5"], ["3.1.0", "2.9.0"]],
    ["~3.1.2", ["3.1.2", "3.1.9"], ["3.1.1", "3.2.0"]],
    ["~3", ["3.0.0", "3.9.0"], ["4.0.0"]],
    [">=2 <4", ["2.0.0", "3.9.9"], ["1.9.9", "4.0.0"]],
    [">= 2 < 4", ["2.0.0", "3.9.9"], ["1.9.9", "4.0.0"]],
    [">2.1", ["2.2.0", "3.0.0"], ["2.1.9", "2.1.0"]],
    [">2", ["3.0.0"], ["2.9.9"]],
    ["<=3.1", ["3.1.9", "0.0.0"], ["3.2.0"]],
    ["<=3.1.0", ["3.1.0"], ["3.1.1"]],
    ["<3", ["2.9.9"], ["3.0.0"]],
    ["3.x", ["3.0.0", "3.7.2"], ["2.0.0", "4.0.0"]],
    ["3.X.x", ["3.0.0"], ["4.0.0"]],
    ["3.0.*", ["3.0.4"], ["3.1.0"]],
    ["3", ["3.2.1"], ["4.0.0"]],
    ["=3.0", ["3.0.1"], ["3.1.0"]],
    ["2 || 3", ["2.0.0", "3.4.0"], ["1.0.0", "4.0.0"]],
    ["^2.0.0||^3.0.0", ["2.0.0", "3.0.0"], ["4.0.0"]],
    ["3.0.0", ["3.0.0"], ["3.0.1", "2.0.0"]],
    ["  3.0.0  ", ["3.0.0"], ["3.0.1"]],
    ["*", ["0.0.0", "99.1.2"], []],
    ["x", ["5.0.0"], []],
    [">=*", ["5.0.0"], []],
    [">*", [], ["0.0.0", "5.0.0"]],
    ["<*", [], ["0.0.0", "5.0.0"]],
    [3, ["3.0.0", "3.4.0"], ["2.0.0", "4.0.0"]],
    [0, ["0.0.0", "0.9.9"], ["1.0.0"]],
  ] as const)("%o holds %o and not %o", (range, inside, outside) => {
    for (const v of inside) expect(satisfiesSpecVersion(v, range), `${v}`).toBe(true);
    for (const v of outside) expect(satisfiesSpecVersion(v, range), `${v}`).toBe(false);
  });

  it.each([
    "",
    "   ",
    "banana",
    "3.0.0.0",
    "v3",
    "^",
    "~>3",
    "=>3",
    "3.x.1",
    "03",
    "3.0.0-beta.1",
    "1 - 2",
    "2 ||",
    "|| 3",
    "2 | 3",
    "^3 &&",
  ])("rejects %o with a clear error", (range) => {
    expect(() => satisfiesSpecVersion("3.0.0", range)).toThrow(TypeError);
  });

  it.each([-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects the number %o", (range) => {
    expect(() => satisfiesSpecVersion("3.0.0", range)).toThrow(/not a major version/);
  });

  it("rejects a version that is not major.minor.patch", () => {
    expect(() => satisfiesSpecVersion("3.0", "^3")).toThrow(/"3.0" is not a version/);
  });

  test.prop([version, version])(
    "^M.m.p (M > 0) holds exactly the versions ≥ M.m.p of major M",
    ([a, b, c], v) => {
      const base: V = [a + 1, b, c];
      expect(holds(v, `^${str(base)}`)).toBe(cmp(v, base) >= 0 && v[0] === base[0]);
    },
  );

  test.prop([version, version])(
    "~M.m.p holds exactly the versions ≥ M.m.p of minor M.m",
    (base, v) => {
      expect(holds(v, `~${str(base)}`)).toBe(
        cmp(v, base) >= 0 && v[0] === base[0] && v[1] === base[1],
      );
    },
  );

  // (^0.0.0 is 0.0.0 only: a bare 0 means major 0, like ^0.)
  const major = fc.integer({ min: 1, max: 12 });
  test.prop([major, version])("N, ^N, N.x, ~N and ^N.0.0 are the same range", (n, v) => {
    const expected = v[0] === n;
    for (const range of [n, `^${n}`, `${n}.x`, `${n}.x.x`, `~${n}`, `^${n}.0.0`, `=${n}`]) {
      expect(holds(v, range), String(range)).toBe(expected);
    }
  });

  test.prop([version, version])("comparators order versions like compare", (base, v) => {
    const c = cmp(v, base);
    const b = str(base);
    expect([
      holds(v, `>=${b}`),
      holds(v, `>${b}`),
      holds(v, `<=${b}`),
      holds(v, `<${b}`),
      holds(v, b),
      holds(v, `=${b}`),
    ]).toEqual([c >= 0, c > 0, c <= 0, c < 0, c === 0, c === 0]);
  });

  const simple = fc.oneof(
    version.map((v) => `^${str(v)}`),
    version.map((v) => `~${str(v)}`),
    version.map((v) => `>=${str(v)}`),
    version.map((v) => `<${str(v)}`),
    fc.tuple(component, component).map(([a, b]) => `${a}.${b}.x`),
  );

  test.prop([simple, simple, version])("space is and, || is or", (r1, r2, v) => {
    const a = holds(v, r1);
    const b = holds(v, r2);
    expect(holds(v, `${r1} ${r2}`)).toBe(a && b);
    expect(holds(v, `${r1} || ${r2}`)).toBe(a || b);
  });
});

describe("assertSpecVersion", () => {
  it("accepts every version-2 and version-3 statement", () => {
    for (const specVersion of [2, 3, "^2.0.0", "^3.0.0", "^3", "~3.0", ">=2 <4", "3.x", "2 || 3"]) {
      expect(() => assertSpecVersion("part", { specVersion }), String(specVersion)).not.toThrow();
    }
  });

  it("names the part, its range and what this fabric implements", () => {
    expect(() => assertSpecVersion('switch part "x"', { specVersion: "^4.0.0" })).toThrow(
      new TypeError(
        'switch part "x" supports @cclab/fabric contract "^4.0.0"; this fabric implements 3.5.0 (and 3.4.0, 3.3.0, 3.2.0, 3.1.0, 3.0.0, 2.0.0)',
      ),
    );
    expect(() => assertSpecVersion('cc scheme "past"', { specVersion: 1 })).toThrow(
      new TypeError(
        'cc scheme "past" supports @cclab/fabric contract specVersion 1 (^1.0.0); this fabric implements 3.5.0 (and 3.4.0, 3.3.0, 3.2.0, 3.1.0, 3.0.0, 2.0.0)',
      ),
    );
    // A minor version the fabric does not have yet is not there.
    expect(() => assertSpecVersion("p", { specVersion: "^3.6.0" })).toThrow(/"\^3.6.0"/);
    expect(() => assertSpecVersion("p", { specVersion: "^3.5.0" })).not.toThrow();
    // A part that pinned the previous minors keeps running.
    expect(() => assertSpecVersion("p", { specVersion: "~3.4" })).not.toThrow();
    expect(() => assertSpecVersion("p", { specVersion: "~3.3" })).not.toThrow();
    expect(() => assertSpecVersion("p", { specVersion: "~3.2" })).not.toThrow();
  });

  it("says what a malformed range is and what to write instead", () => {
    expect(() => assertSpecVersion('cc scheme "x"', { specVersion: "banana" })).toThrow(
      /^cc scheme "x" has specVersion "banana", which is not a version range: cannot read "banana" \(.*\); state a semver range such as "\^3\.5\.0" or a major version number such as 3$/,
    );
    expect(() => assertSpecVersion("p", { specVersion: 2.5 })).toThrow(
      /specVersion 2.5, which is not a version range: 2.5 is not a major version/,
    );
    expect(() => assertSpecVersion("p", {} as { specVersion: number })).toThrow(
      /specVersion undefined, which is not a version range: it is missing/,
    );
    expect(() => assertSpecVersion("p", { specVersion: null } as never)).toThrow(
      /a object \(expected a string, or a number for a major version\)/,
    );
  });
});
