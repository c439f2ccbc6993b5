/**
 * Third-party CC plugins through the `cclab` command (issue 41): a plugin that cannot run is
 * refused with an error naming the plugin and the problem, at the place that names it (its
 * `plugins[i]` entry, or the `cc` assignment whose scheme states a contract version this
 * fabric does not implement: never `topology`), whether a scenario's `plugins` loaded it or
 * code registered it; and `cclab list --plugin` / `--scenario` show a plugin's parameters.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CONTRACT_VERSION, IMPLEMENTED_CONTRACT_VERSIONS } from "@cclab/fabric";
import { type CcPlugin, registerCcPlugin } from "@cclab/sim";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { testBundles } from "../../../packages/sweep/test/bundles.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const dir = scratchDir("cclab-plugin-diagnostics-");
/** zod as a plugin package outside this repository imports it: a module of its own. */
const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve("zod")).href;

/** What the fabric says it implements, as every version message ends. */
const IMPLEMENTS = `this fabric implements ${CONTRACT_VERSION} (and ${IMPLEMENTED_CONTRACT_VERSIONS.slice(1).join(", ")})`;

/** Writes the plugin module `name.mjs` (zod imported as `z`) into `folder`. */
function pluginFile(name: string, source: string, folder = dir): string {
  const file = join(folder, `${name}.mjs`);
  writeFileSync(file, `import { z } from ${JSON.stringify(zodUrl)};\n${source}\n`);
  return file;
}

const PLAIN = `export default {
  name: "plain", description: "params as a plain object", params: { gapUs: 2 },
  create: () => ({ specVersion: "^3.0.0", name: "plain" }),
};`;

const FUTURE = `export default {
  name: "future", description: "a plugin of a later contract", specVersion: "^9.0.0",
  params: z.strictObject({}), create: () => ({ specVersion: "^9.0.0", name: "future" }),
};`;

// Plugins that load (their own `specVersion` is fine) but make parts of a later contract.
const PARTS = `
const later = (name) => ({ name, specVersion: "^9.0.0", create: () => ({}) });
export const ccPlugins = [
  {
    name: "toy-host", description: "host parts of a later contract",
    params: z.strictObject({
      gainFraction: z.number().min(0).max(1).default(0.5).describe("share of the rate cut per notification"),
      timerUs: z.number().positive().default(55).describe("recovery timer"),
    }),
    create: () => ({ specVersion: "^3.0.0", name: "toy-host", senderPart: later("toy-sender") }),
  },
  {
    name: "toy-switch", description: "a switch part of a later contract", params: z.strictObject({}),
    create: () => ({ specVersion: "^3.0.0", name: "toy-switch", switchPart: later("toy-marker") }),
  },
  {
    name: "toy-scheme", description: "a scheme of a later contract", params: z.strictObject({}),
    create: () => ({ specVersion: "^9.0.0", name: "toy-scheme" }),
  },
];`;

const TAKEN = `export default {
  name: "dcqcn", description: "a name the built-in DCQCN has", params: z.strictObject({}),
  create: () => ({ specVersion: "^3.0.0", name: "dcqcn" }),
};`;

/** A small scenario with these `plugins` and `cc` (YAML text). */
function scenario(name: string, plugins: string[], cc?: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      `plugins: ${JSON.stringify(plugins)}`,
      "topology: { kind: single-switch, hosts: 2, rateGbps: 10, latencyNs: 100 }",
      ...(cc === undefined ? [] : [`cc: ${cc}`]),
      "traffic: [{ pattern: scheduled, flows: [{ src: 0, dst: 1 }] }]",
      "run: { durationUs: 10 }",
    ].join("\n"),
  );
  return file;
}

async function cclab(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, out: c.out, err: c.err };
}

beforeAll(() => {
  for (const [name, source] of [
    ["plain", PLAIN],
    ["future", FUTURE],
    ["parts", PARTS],
    ["taken", TAKEN],
  ] as const) {
    pluginFile(name, source);
  }
});

describe("a plugin a scenario's plugins load", () => {
  it("whose params is not a zod schema: its plugins entry says so", async () => {
    const run = await cclab("validate", scenario("plain", ["./plain.mjs"]));
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe(
      `cclab validate: the scenario is not valid:\n  plugins[0]: "./plain.mjs" exports "plain" whose params is not a zod schema (zod 4 object expected)\n`,
    );
  });

  it("whose specVersion the fabric does not implement: its plugins entry says so", async () => {
    const run = await cclab("validate", scenario("future", ["./future.mjs"]));
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe(
      `cclab validate: the scenario is not valid:\n  plugins[0]: "./future.mjs" exports "future": the plugin supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}\n`,
    );
  });

  it("with a name another plugin has: refused, not an internal error", async () => {
    const run = await cclab("validate", scenario("taken", ["./taken.mjs"]));
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe(
      `cclab validate: the scenario is not valid:\n  plugins[0]: "./taken.mjs" exports "dcqcn", but a CC plugin of that name is already registered (built in); give it another name\n`,
    );
  });

  it.each([
    [
      "a host group's sender part",
      "{ hosts: [{ plugin: toy-host }] }",
      `cc.hosts[0].plugin: CC plugin "toy-host" (from "./parts.mjs"): its sender part "toy-sender" supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}`,
    ],
    [
      "the switches' part",
      "{ switch: { plugin: toy-switch } }",
      `cc.switch.plugin: CC plugin "toy-switch" (from "./parts.mjs"): its switch part "toy-marker" supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}`,
    ],
    [
      "one switch plugin of a list",
      "{ switch: [{ plugin: dcqcn }, { plugin: toy-switch, switches: [0] }] }",
      `cc.switch[1].plugin: CC plugin "toy-switch" (from "./parts.mjs"): its switch part "toy-marker" supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}`,
    ],
    [
      "the scheme",
      "{ hosts: [{ plugin: toy-scheme }] }",
      `cc.hosts[0].plugin: CC plugin "toy-scheme" (from "./parts.mjs"): its scheme "toy-scheme" supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}`,
    ],
  ])("whose %s states a later contract: reported at the assignment", async (_what, cc, issue) => {
    const file = scenario("parts", ["./parts.mjs"], cc);
    const validate = await cclab("validate", file);
    expect(validate.code).toBe(EXIT.badInput);
    expect(validate.err).toBe(`cclab validate: the scenario is not valid:\n  ${issue}\n`);
    const run = await cclab("run", file, "--out", join(dir, "parts-out"), "--quiet");
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe(`cclab run: the scenario is not valid:\n  ${issue}\n`);
  });
});

describe("a plugin registered in code", () => {
  const plugin = (name: string, extra: object = {}) =>
    ({
      name,
      description: "registered in code",
      params: z.strictObject({}),
      create: () => ({ specVersion: "^3.0.0", name }),
      ...extra,
    }) as CcPlugin;

  it("whose params is not a zod schema or whose specVersion does not fit: not registered", () => {
    expect(() => registerCcPlugin(plugin("coded-plain", { params: { gapUs: 2 } }))).toThrow(
      new TypeError(
        'cannot register CC plugin "coded-plain" whose params is not a zod schema (zod 4 object expected)',
      ),
    );
    expect(() => registerCcPlugin(plugin("coded-future", { specVersion: "^9.0.0" }))).toThrow(
      new TypeError(
        `cannot register CC plugin "coded-future": the plugin supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}`,
      ),
    );
    expect(() => registerCcPlugin(plugin("dcqcn"))).toThrow(
      new TypeError(
        'a CC plugin named "dcqcn" is already registered (built in); give this one another name',
      ),
    );
  });

  it("whose parts state a later contract: reported at the assignment", async () => {
    const later = { name: "coded-sender", specVersion: "^9.0.0", create: () => ({}) };
    registerCcPlugin(
      plugin("coded-parts", {
        create: () => ({ specVersion: "^3.0.0", name: "coded-parts", senderPart: later }),
      }),
    );
    const run = await cclab(
      "validate",
      scenario(
        "coded",
        [],
        "{ hosts: [{ hosts: [1], plugin: dcqcn }, { hosts: [0], plugin: coded-parts }] }",
      ),
    );
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe(
      `cclab validate: the scenario is not valid:\n  cc.hosts[1].plugin: CC plugin "coded-parts" (registered in code): its sender part "coded-sender" supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}\n`,
    );
  });
});

describe("cclab list --plugin and --scenario", () => {
  let cli: string;
  beforeAll(async () => {
    cli = (await testBundles()).cli;
  }, 120_000);
  /** The built command, run in `cwd`. */
  const cclabIn = (cwd: string, ...argv: string[]) =>
    spawnSync(process.execPath, [cli, ...argv], { cwd, encoding: "utf8", timeout: 120_000 });

  it("lists a plugin file's parameters, resolved from the working directory", () => {
    const run = cclabIn(dir, "list", "--plugin", "./parts.mjs");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(EXIT.ok);
    // Only the plugins section, each plugin saying where it comes from.
    expect(run.stdout).toMatch(/^== CC plugins /);
    expect(run.stdout).not.toContain("== Topologies");
    expect(run.stdout).toContain('toy-host (from "./parts.mjs"): host parts of a later contract');
    expect(run.stdout).toMatch(
      /^ {2}gainFraction +number +0\.5 +fraction +share of the rate cut per notification/m,
    );
    expect(run.stdout).toMatch(/^ {2}timerUs +number +55 +µs +recovery timer/m);
    // Only the plugins the module exports: no built-in one.
    expect(
      [...run.stdout.matchAll(/^(\S+) \(from "\.\/parts\.mjs"\): /gm)].map((m) => m[1]),
    ).toEqual(["toy-host", "toy-switch", "toy-scheme"]);
    expect(run.stdout).not.toMatch(/^dcqcn: /m);
  });

  it("lists a package's plugins, found in node_modules of the working directory", () => {
    const pkg = join(dir, "node_modules", "my-cc");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({
        name: "my-cc",
        type: "module",
        exports: { ".": { default: "./index.mjs" } },
      }),
    );
    pluginFile(
      "index",
      `export default {
        name: "my-cc", description: "a plugin package", params: z.strictObject({
          windowBytes: z.number().int().positive().default(4096).describe("send window"),
        }),
        create: () => ({ specVersion: "^3.0.0", name: "my-cc" }),
      };`,
      pkg,
    );
    const run = cclabIn(dir, "list", "plugins", "--plugin", "my-cc");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(EXIT.ok);
    expect(run.stdout).toContain('my-cc (from "my-cc"): a plugin package');
    expect(run.stdout).toMatch(/^ {2}windowBytes +integer +4096 +bytes +send window/m);
    // A section named: the package's plugins with the built-in ones.
    expect(run.stdout).toMatch(/^dcqcn: /m);
  });

  it("lists a scenario's plugins, resolved from the scenario's folder", () => {
    const file = scenario("listed", ["./parts.mjs"]);
    const run = cclabIn(process.cwd(), "list", "--scenario", file);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(EXIT.ok);
    expect(run.stdout).toContain(
      'toy-switch (from "./parts.mjs"): a switch part of a later contract',
    );
  });

  it("names the module and the problem when a plugin cannot be listed", async () => {
    const plain = cclabIn(dir, "list", "--plugin", "./plain.mjs", "--plugin", "./parts.mjs");
    expect(plain.status).toBe(EXIT.badInput);
    expect(plain.stderr).toBe(
      `cclab list: cannot list the plugins given:\n  --plugin ./plain.mjs: "./plain.mjs" exports "plain" whose params is not a zod schema (zod 4 object expected)\n`,
    );
    const future = cclabIn(dir, "list", "--plugin", "./future.mjs");
    expect(future.status).toBe(EXIT.badInput);
    expect(future.stderr).toBe(
      `cclab list: cannot list the plugins given:\n  --plugin ./future.mjs: "./future.mjs" exports "future": the plugin supports @cclab/fabric contract "^9.0.0"; ${IMPLEMENTS}\n`,
    );
    const missing = cclabIn(dir, "list", "--plugin", "./missing.mjs");
    expect(missing.status).toBe(EXIT.badInput);
    expect(missing.stderr).toMatch(
      /^cclab list: cannot list the plugins given:\n {2}--plugin \.\/missing\.mjs: /,
    );
    expect(missing.stderr).toContain("missing.mjs");
    const url = cclabIn(dir, "list", "--plugin", "data:text/javascript,export default 1");
    expect(url.status).toBe(EXIT.badInput);
    expect(url.stderr).toContain(
      `--plugin data:text/javascript,export default 1: "data:text/javascript,export default 1" is a data: URL, which is not loaded`,
    );
    const scenarioRun = await cclab("list", "--scenario", scenario("bad-list", ["./plain.mjs"]));
    expect(scenarioRun.code).toBe(EXIT.badInput);
    expect(scenarioRun.err).toBe(
      `cclab list: the scenario is not valid:\n  plugins[0]: "./plain.mjs" exports "plain" whose params is not a zod schema (zod 4 object expected)\n`,
    );
  });

  it("takes --plugin and --scenario only with list", async () => {
    const run = await cclab("validate", "x.yaml", "--plugin", "./parts.mjs");
    expect(run.code).toBe(EXIT.badInput);
    expect(run.err).toBe("cclab validate: option --plugin does not apply to validate\n");
  });
});
