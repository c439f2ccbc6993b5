/**
 * Seeded mutations of the shipped scenarios (issue 34), shared by the in-process fuzz test
 * (fuzz-scenarios.test.ts) and the CLI's (apps/cli/test/fuzz-validate.test.ts). Each mutation
 * is a file text (YAML or JSON) and `--set` assignments, as a user could give them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { parse, stringify } from "yaml";
import { SCENARIOS } from "./helpers.js";

export interface Mutation {
  /** What was done, to tell a failing case apart. */
  readonly what: string;
  /** The file name: its extension picks JSON or YAML. */
  readonly fileName: string;
  readonly text: string;
  readonly set: readonly string[];
  /** The directory of the scenario it came from (trace files resolve from there). */
  readonly baseDir: string;
}

/**
 * The scale benchmarks build fabrics of 1,024 and 4,096 hosts (1–2 s each, more on a loaded
 * machine): shipped-valid.test.ts validates them once; mutating them here would build them a
 * dozen times against the 5 s limit per case.
 */
const SCALE_BENCHMARKS = new Set(["bench/uniform1024.yaml", "bench/uniform4096.yaml"]);

/** The shipped scenario files (not sweeps, not the scale benchmarks), sorted. */
export function shippedScenarios(): string[] {
  return readdirSync(SCENARIOS, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".yaml") && !f.endsWith(".sweep.yaml"))
    .filter((f) => !SCALE_BENCHMARKS.has(f.split(sep).join("/")))
    .sort()
    .map((f) => join(SCENARIOS, f));
}

/** mulberry32: small, seeded, good enough to pick mutations. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Rng = ReturnType<typeof rng>;

const BAD_VALUES: readonly unknown[] = [
  -1,
  0,
  -0.5,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 31,
  1e20,
  5e-324,
  1e-6,
  0.1,
  "NaN",
  ".nan",
  "Infinity",
  "-inf",
  "1e999",
  "",
  "é\u0000\uffff🙂\u202e",
  "名前",
  true,
  false,
  null,
  [],
  {},
  [1, "x", null],
  { x: 1 },
  "H999",
  "uniform",
];

const BAD_SET_VALUES = [
  "-1",
  "0",
  "1e308",
  ".nan",
  ".inf",
  "NaN",
  "null",
  "[]",
  "{}",
  "{a: {b: {c: 1}}}",
  "'é🙂'",
  "5e-324",
  "1e-6",
  "[[[[[[",
  "&a [*a]",
  "*nope",
  "",
];

/** Every path into `doc` (maps and lists), as segments. */
function paths(doc: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: { v: unknown; p: (string | number)[] }[] = [{ v: doc, p: [] }];
  while (stack.length > 0) {
    const { v, p } = stack.pop()!;
    if (p.length > 0) out.push(p);
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) stack.push({ v: x, p: [...p, i] });
    } else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, p: [...p, k] });
    }
  }
  return out;
}

const dotted = (p: readonly (string | number)[]) =>
  p.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");

function parentOf(doc: unknown, p: readonly (string | number)[]) {
  let at = doc as Record<string | number, unknown>;
  for (const s of p.slice(0, -1)) at = at[s] as Record<string | number, unknown>;
  return at;
}

function nestedText(depth: number) {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

const ALIAS_BOMB = (() => {
  const names = ["a", "b", "c", "d", "e", "f", "g"];
  let text = `${names[0]}: &${names[0]} [x, x, x, x, x, x, x, x, x]\n`;
  for (let i = 1; i < names.length; i++) {
    text += `${names[i]}: &${names[i]} [${Array(9)
      .fill(`*${names[i - 1]}`)
      .join(", ")}]\n`;
  }
  return text;
})();

/** One mutation of `source` (a parsed scenario) picked by `r`. */
function mutate(r: Rng, file: string, text: string): Mutation {
  const doc = parse(text) as Record<string, unknown>;
  const all = paths(doc);
  const p = r.pick(all);
  const baseDir = dirname(file);
  const asYaml = (what: string, d: unknown, set: string[] = []): Mutation => ({
    what,
    fileName: file,
    text: stringify(d),
    set,
    baseDir,
  });
  const asJson = (what: string, t: string, set: string[] = []): Mutation => ({
    what,
    fileName: file.replace(/\.yaml$/, ".json"),
    text: t,
    set,
    baseDir,
  });
  const kind = r.int(16);
  switch (kind) {
    case 0: {
      const parent = parentOf(doc, p);
      const key = p[p.length - 1]!;
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return asYaml(`delete ${dotted(p)}`, doc);
    }
    case 1:
    case 2:
    case 3: {
      const value = r.pick(BAD_VALUES);
      parentOf(doc, p)[p[p.length - 1]!] = value;
      return asYaml(`${dotted(p)} = ${JSON.stringify(value)}`, doc);
    }
    case 4: {
      const depth = r.pick([10, 63, 65, 200, 3000, 5000]);
      const json = JSON.stringify({ ...doc, deep: "@@" }).replace('"@@"', nestedText(depth));
      return r.next() < 0.5
        ? asJson(`deep ${depth} (json)`, json)
        : { ...asJson(`deep ${depth} (yaml flow)`, json), fileName: file };
    }
    case 5:
      return { ...asYaml("alias bomb", doc), text: `${text}\n${ALIAS_BOMB}` };
    case 6: {
      // An own key (as JSON.parse makes it) beside a random key of a random map.
      const key = r.pick(["__proto__", "constructor", "prototype"]);
      const names = all.map((q) => q[q.length - 1]).filter((s) => typeof s === "string");
      const beside = r.pick(names.length > 0 ? names : ["name"]);
      const json = JSON.stringify(doc).replace(
        `"${beside}":`,
        `"${key}": {"polluted": 1}, "${beside}":`,
      );
      return asJson(`prototype key ${key} beside ${beside}`, json);
    }
    case 7: {
      const path = r.pick([
        "__proto__.polluted=1",
        "constructor.prototype.polluted=1",
        "traffic[0].__proto__.polluted=1",
        "prototype=1",
        "host.constructor.x=1",
      ]);
      return asYaml(`--set ${path}`, doc, [path]);
    }
    case 8: {
      const index = r.pick([1, 2, 5, 99, 99999999, 2 ** 32, 1e21]);
      const list = r.pick(["traffic", "cc.hosts", "traffic[0].flows", "plugins"]);
      const set = `${list}[${index}].pattern=uniform`;
      return asYaml(`--set ${set}`, doc, [set]);
    }
    case 9: {
      const binUs = r.pick(["1e-6", "5e-324", "0", "-1", "0.0001", "0.001", "1e308", ".inf"]);
      return asYaml(`binUs ${binUs}`, doc, [`metrics.binUs=${binUs}`]);
    }
    case 10:
    case 11: {
      const set = `${dotted(p)}=${r.pick(BAD_SET_VALUES)}`;
      return asYaml(`--set ${set}`, doc, [set]);
    }
    case 12: {
      const bytes = Buffer.from(text, "utf8");
      const n = 1 + r.int(8);
      for (let i = 0; i < n; i++) bytes[r.int(bytes.length)] = r.int(256);
      return {
        what: `${n} garbage bytes`,
        fileName: file,
        text: bytes.toString("utf8"),
        set: [],
        baseDir,
      };
    }
    case 13: {
      const cut = r.int(text.length);
      return {
        what: `truncated at ${cut}`,
        fileName: file,
        text: text.slice(0, cut),
        set: [],
        baseDir,
      };
    }
    case 14: {
      const garbage = String.fromCharCode(...Array.from({ length: 40 }, () => r.int(0x3000)));
      const at = r.int(text.length);
      return {
        what: "unicode garbage inserted",
        fileName: file,
        text: text.slice(0, at) + garbage + text.slice(at),
        set: [],
        baseDir,
      };
    }
    default: {
      // Several at once.
      for (let i = 0; i < 3; i++) {
        const q = r.pick(paths(doc));
        if (q === undefined) break;
        parentOf(doc, q)[q[q.length - 1]!] = r.pick(BAD_VALUES);
      }
      return asYaml("three bad values", doc, [`run.durationUs=${r.pick(BAD_SET_VALUES)}`]);
    }
  }
}

/** `count` mutations from `seed`, spread over the shipped scenarios. */
export function mutations(count: number, seed: number): Mutation[] {
  const files = shippedScenarios().map((f) => ({ file: f, text: readFileSync(f, "utf8") }));
  const r = rng(seed);
  const out: Mutation[] = [];
  for (let i = 0; i < count; i++) {
    const { file, text } = files[i % files.length]!;
    out.push(mutate(r, file, text));
  }
  return out;
}
