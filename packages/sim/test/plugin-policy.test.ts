/**
 * What a scenario's `plugins` may name (issue 34): importing a module runs its code, so only
 * npm packages and files found from the scenario's folder are imported, and everything else
 * (`data:` and `http:` URLs, Node built-ins, ...) is a scenario issue before any import.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ccPlugins, loadPluginModules, resolveScenario, ScenarioError } from "../src/index.js";
import { scratchDir } from "./scratch-dir.js";

/** zod as a module of its own, which a plugin outside this repository would import. */
const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve("zod")).href;

/** Set by a module when it runs: whether something was imported. */
const ran = () => (globalThis as { cclabPolicyRan?: string[] }).cclabPolicyRan ?? [];

/** The source of a module exporting the plugin `name`, noting in `cclabPolicyRan` that it ran. */
function pluginSource(name: string): string {
  return `import { z } from ${JSON.stringify(zodUrl)};
(globalThis.cclabPolicyRan ??= []).push(${JSON.stringify(name)});
export default { name: ${JSON.stringify(name)}, description: "d", params: z.strictObject({}), create: () => ({ specVersion: 2, name: ${JSON.stringify(name)} }) };
`;
}

function write(file: string, text: string): string {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const scenario = (plugins: unknown) => ({
  name: "policy",
  plugins,
  topology: { kind: "single-switch", hosts: 2, rateGbps: 10, latencyNs: 100 },
  traffic: [{ pattern: "scheduled", flows: [{ src: 0, dst: 1 }] }],
  run: { durationUs: 10 },
});

async function issuesOf(plugins: unknown, options: Parameters<typeof resolveScenario>[1] = {}) {
  const error = await resolveScenario(scenario(plugins), options).catch((e: unknown) => e);
  return error instanceof ScenarioError ? error.issues : [];
}

describe("plugins that are not packages or files", () => {
  it("refuses a data: URL without importing it", async () => {
    // Imported, this module runs (the code before this change did): it would note "data-url".
    const code = `(globalThis.cclabPolicyRan ??= []).push("data-url"); export default {};`;
    const urls = [
      `data:text/javascript,${encodeURIComponent(code)}`,
      `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`,
    ];
    expect(await loadPluginModules(urls)).toEqual(
      [0, 1].map((i) => ({
        path: `plugins[${i}]`,
        message: expect.stringMatching(
          /^"data:text\/javascript.{37}\.\.\." is a data: URL, which is not loaded: a plugin is an npm package name/,
        ),
      })),
    );
    // As `cclab validate` reports it.
    expect(await issuesOf(urls)).toEqual([
      expect.objectContaining({
        path: "plugins[0]",
        message: expect.stringContaining("data: URL"),
      }),
      expect.objectContaining({
        path: "plugins[1]",
        message: expect.stringContaining("data: URL"),
      }),
    ]);
    expect(ran()).not.toContain("data-url");
  });

  it.each([
    ["http://example.com/cc.js", "http: URL"],
    ["https://example.com/cc.mjs", "https: URL"],
    ["node:child_process", "node: URL"],
    ["file:///etc/passwd", "file: URL"],
    ["child_process", "Node.js built-in module"],
    ["fs/promises", "Node.js built-in module"],
    ["my-cc/../../x.js", "neither a package name nor a file path"],
    ["My Plugin", "neither a package name nor a file path"],
  ])("refuses %s", async (specifier, what) => {
    const [issue] = await loadPluginModules([specifier]);
    expect(issue?.path).toBe("plugins[0]");
    expect(issue?.message).toContain(what);
    expect(issue?.message).toContain(
      "a plugin is an npm package name (my-cc, @scope/my-cc, @scope/my-cc/part) found in node_modules of the scenario's folder or a folder above, or a file path",
    );
  });

  it("still loads the other entries, each refused one with its own issue", async () => {
    const dir = scratchDir("cclab-policy-mixed-");
    write(join(dir, "mixed.mjs"), pluginSource("policy-mixed"));
    const issues = await issuesOf(["https://example.com/a.js", "./mixed.mjs", "data:,x"], {
      baseDir: dir,
    });
    expect(issues.map((issue) => issue.path)).toEqual(["plugins[0]", "plugins[2]"]);
    expect(ccPlugins().has("policy-mixed")).toBe(true);
  });
});

describe("file plugins", () => {
  it("resolves a relative path from the scenario's folder, not the working directory", async () => {
    const dir = scratchDir("cclab-policy-file-");
    write(join(dir, "lib", "relative.mjs"), pluginSource("policy-relative"));
    expect(process.cwd()).not.toBe(join(dir, "lib"));
    expect(await issuesOf(["./lib/relative.mjs"], { baseDir: dir })).toEqual([]);
    expect(ccPlugins().has("policy-relative")).toBe(true);
    // The same entry from another folder is not that file.
    const other = scratchDir("cclab-policy-other-");
    expect(await issuesOf(["./lib/relative.mjs"], { baseDir: other })).toEqual([
      {
        path: "plugins[0]",
        message: `cannot find "./lib/relative.mjs" (no file ${join(other, "lib", "relative.mjs")})`,
      },
    ]);
  });

  it("resolves from the working directory when no folder is given (a scenario in code)", async () => {
    const dir = scratchDir("cclab-policy-cwd-");
    const file = write(join(dir, "cwd.mjs"), pluginSource("policy-cwd"));
    const fromCwd = relative(process.cwd(), file);
    expect(await loadPluginModules([fromCwd.startsWith(".") ? fromCwd : `./${fromCwd}`])).toEqual(
      [],
    );
    expect(ccPlugins().has("policy-cwd")).toBe(true);
  });

  it("with pluginDir (sweep workers) loads only files inside it, resolved from it", async () => {
    const root = scratchDir("cclab-policy-root-");
    const inside = join(root, "worker");
    write(join(inside, "ok.mjs"), pluginSource("policy-inside"));
    const outside = write(join(root, "outside.mjs"), pluginSource("policy-outside"));
    symlinkSync(outside, join(inside, "link.mjs"));
    const scenarioDir = scratchDir("cclab-policy-payload-");
    write(join(scenarioDir, "ok.mjs"), pluginSource("policy-payload"));
    const options = { baseDir: scenarioDir, pluginDir: inside };
    const refused = await issuesOf([outside, "../outside.mjs", "./link.mjs"], options);
    expect(refused).toEqual(
      [0, 1, 2].map((i) => ({
        path: `plugins[${i}]`,
        message: expect.stringContaining(
          `is outside ${inside}, the only folder plugin files are loaded from here`,
        ),
      })),
    );
    expect(ran()).not.toContain("policy-outside");
    // "./ok.mjs" is the worker's file, not the one beside the scenario.
    expect(await issuesOf(["./ok.mjs"], options)).toEqual([]);
    expect(ran()).toContain("policy-inside");
    expect(ran()).not.toContain("policy-payload");
  });
});

describe("package plugins", () => {
  // node_modules is ignored by git, so the packages are written at test time.
  const project = scratchDir("cclab-policy-packages-");
  const scenarios = join(project, "scenarios", "deep");
  mkdirSync(scenarios, { recursive: true });
  const pkg = join(project, "node_modules", "policy-toy");
  write(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "policy-toy",
      type: "module",
      exports: {
        ".": { types: "./index.d.ts", require: "./index.cjs", import: "./index.js" },
        "./parts/*": { import: "./lib/*.js" },
        "./internal": null,
        "./unbuilt": { import: "./dist/unbuilt.js" },
      },
    }),
  );
  write(join(pkg, "index.js"), pluginSource("policy-package"));
  write(join(pkg, "lib", "switch.js"), pluginSource("policy-subpath"));
  write(join(pkg, "internal.js"), pluginSource("policy-internal"));
  const scoped = join(project, "node_modules", "@toy", "cc");
  write(join(scoped, "package.json"), JSON.stringify({ name: "@toy/cc", main: "main.js" }));
  write(join(scoped, "main.js"), pluginSource("policy-scoped"));

  it("finds a package in node_modules of the scenario's folder or above, by its import export", async () => {
    expect(
      await issuesOf(["policy-toy", "policy-toy/parts/switch", "@toy/cc"], { baseDir: scenarios }),
    ).toEqual([]);
    expect(
      ["policy-package", "policy-subpath", "policy-scoped"].map((n) => ccPlugins().has(n)),
    ).toEqual([true, true, true]);
  });

  it("reports a package that is not there, or a part it does not export", async () => {
    const elsewhere = scratchDir("cclab-policy-nopkg-");
    expect(await issuesOf(["policy-toy", "policy-toy/internal"], { baseDir: elsewhere })).toEqual([
      {
        path: "plugins[0]",
        message: `cannot find package "policy-toy" in node_modules of ${elsewhere} or a folder above (install it there; a file is named by its path, ./my-cc.js)`,
      },
      expect.objectContaining({ path: "plugins[1]" }),
    ]);
    expect(await issuesOf(["policy-toy/internal"], { baseDir: scenarios })).toEqual([
      {
        path: "plugins[0]",
        message: `"policy-toy/internal": package "policy-toy" (${pkg}) has no module for "./internal" under the node, import or default conditions`,
      },
    ]);
    expect(await issuesOf(["policy-toy/unbuilt"], { baseDir: scenarios })).toEqual([
      {
        path: "plugins[0]",
        message: `"policy-toy/unbuilt": package "policy-toy" (${pkg}) exports "./unbuilt" as ./dist/unbuilt.js, which is not there (is the package built?)`,
      },
    ]);
    expect(ran()).not.toContain("policy-internal");
  });
});
