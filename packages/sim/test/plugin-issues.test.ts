/**
 * Modules under a scenario's `plugins` that export something plugin-like which cannot be used
 * get an issue naming the module, the plugin and what is wrong, instead of a crash later.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type CcPlugin,
  ccPlugins,
  loadPluginModules,
  registerCcPlugin,
  resolveScenario,
  ScenarioError,
} from "../src/index.js";
import { issuesFromError } from "../src/scenario/device-errors.js";
import { scratchDir } from "./scratch-dir.js";

const dir = scratchDir("cclab-plugin-issues-");
/** zod as a module of its own, which a plugin package outside this repository would import. */
const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve("zod")).href;

/** Writes an ES module exporting `source` and returns its path. */
function pluginModule(name: string, source: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { z } from ${JSON.stringify(zodUrl)};\n${source}\n`);
  return file;
}

const scheme = `create: () => ({ specVersion: 2, name: "s" })`;

describe("plugins exported by a module", () => {
  it("reports a plugin whose params is a plain object, not a zod schema", async () => {
    const file = pluginModule(
      "plain-params",
      `export default { name: "plain", description: "d", params: { gapUs: 2 }, ${scheme} };`,
    );
    expect(await loadPluginModules([file])).toEqual([
      {
        path: "plugins[0]",
        message: `"${file}" exports "plain" whose params is not a zod schema (zod 4 object expected)`,
      },
    ]);
    expect(ccPlugins().has("plain")).toBe(false);
    // As `cclab validate` shows it, before any run.
    const error = await resolveScenario({
      name: "plain-params",
      plugins: [file],
      topology: { kind: "single-switch", hosts: 2, rateGbps: 10, latencyNs: 100 },
      traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1 }] }],
      run: { durationUs: 10 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).message).toContain(
      `plugins[0]: "${file}" exports "plain" whose params is not a zod schema (zod 4 object expected)`,
    );
  });

  it("reports each unusable plugin of a ccPlugins list and registers the others", async () => {
    const file = pluginModule(
      "mixed",
      `export const ccPlugins = [
        { name: "good-v2", description: "d", params: z.strictObject({}), specVersion: 2, ${scheme} },
        { name: "good-v3", description: "d", params: z.strictObject({}), specVersion: "^3.0.0", ${scheme} },
        { name: "future", description: "d", params: z.strictObject({}), specVersion: "^4.0.0", ${scheme} },
        { name: "odd", description: "d", params: z.strictObject({}), specVersion: "banana", ${scheme} },
        { name: "no-create", description: "d", params: z.strictObject({}) },
        { name: "no-description", params: z.strictObject({}), ${scheme} },
      ];`,
    );
    const issues = await loadPluginModules([file]);
    expect(issues.map((issue) => issue.path)).toEqual(Array(4).fill("plugins[0]"));
    expect(issues.map((issue) => issue.message)).toEqual([
      `"${file}" exports "future": the plugin supports @cclab/fabric contract "^4.0.0"; this fabric implements 3.5.0 (and 3.4.0, 3.3.0, 3.2.0, 3.1.0, 3.0.0, 2.0.0)`,
      expect.stringMatching(
        /^".*mixed\.mjs" exports "odd": the plugin has specVersion "banana", which is not a version range: cannot read "banana"/,
      ),
      `"${file}" exports "no-create" without a create function`,
      `"${file}" exports "no-description" without a description (a string)`,
    ]);
    expect(["good-v2", "good-v3", "future", "odd"].map((name) => ccPlugins().has(name))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("still says so when a module exports nothing plugin-like", async () => {
    const file = pluginModule("nothing", "export const x = 1;");
    expect(await loadPluginModules([file])).toEqual([
      { path: "plugins[0]", message: expect.stringContaining(`"${file}" exports no CC plugin`) },
    ]);
  });
});

describe("registerCcPlugin", () => {
  const plugin = (extra: object) =>
    ({
      name: "registered",
      description: "d",
      params: z.strictObject({}),
      create: () => ({ specVersion: 2, name: "s" }),
      ...extra,
    }) as CcPlugin;

  it("refuses a plain-object params and a specVersion this fabric does not implement", () => {
    expect(() => registerCcPlugin(plugin({ params: {} }))).toThrow(
      new TypeError(
        'cannot register CC plugin "registered" whose params is not a zod schema (zod 4 object expected)',
      ),
    );
    expect(() => registerCcPlugin(plugin({ create: undefined }))).toThrow(
      new TypeError('cannot register CC plugin "registered" without a create function'),
    );
    expect(() => registerCcPlugin({ params: z.strictObject({}) } as unknown as CcPlugin)).toThrow(
      /is not a CC plugin \(expected name, description, params: a zod 4 schema, and create\)/,
    );
    expect(() => registerCcPlugin(plugin({ specVersion: "^4" }))).toThrow(
      new TypeError(
        'cannot register CC plugin "registered": the plugin supports @cclab/fabric contract "^4"; this fabric implements 3.5.0 (and 3.4.0, 3.3.0, 3.2.0, 3.1.0, 3.0.0, 2.0.0)',
      ),
    );
    expect(ccPlugins().has("registered")).toBe(false);
    registerCcPlugin(plugin({ specVersion: ">=2 <4" }));
    expect(ccPlugins().has("registered")).toBe(true);
  });
});

describe("the contract version of the scheme a plugin makes", () => {
  const later = (name: string) => ({ name, specVersion: "^9.0.0", create: () => ({}) });
  const implemented = "this fabric implements 3.5.0 (and 3.4.0, 3.3.0, 3.2.0, 3.1.0, 3.0.0, 2.0.0)";

  it("is checked with the scenario, at the assignment that names the plugin", async () => {
    registerCcPlugin({
      name: "later-queueing",
      description: "a queueing part of a later contract",
      params: z.strictObject({}),
      create: () => ({
        specVersion: "^3.0.0",
        name: "later-queueing",
        queueingPart: later("later-queues") as never,
      }),
    });
    const error = await resolveScenario({
      name: "later",
      topology: { kind: "single-switch", hosts: 2, rateGbps: 10, latencyNs: 100 },
      cc: { switch: { plugin: "later-queueing" } },
      traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1 }] }],
      run: { durationUs: 10 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).issues).toEqual([
      {
        path: "cc.switch.plugin",
        message: `CC plugin "later-queueing" (registered in code): its queueing part "later-queues" supports @cclab/fabric contract "^9.0.0"; ${implemented}`,
      },
    ]);
  });

  it("is a cc issue when only the network's build finds it", () => {
    expect(
      issuesFromError(
        new TypeError(`switch part "x" supports @cclab/fabric contract "^9"; ${implemented}`),
      ),
    ).toEqual([
      {
        path: "cc",
        message: `switch part "x" supports @cclab/fabric contract "^9"; ${implemented}`,
      },
    ]);
    expect(
      issuesFromError(new TypeError(`cc scheme "y" supports … ; ${implemented}`))[0]!.path,
    ).toBe("cc");
  });
});
