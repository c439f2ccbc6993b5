/**
 * The CC plugin template (templates/cc-plugin) and its guide (docs/write-your-own-cc.md),
 * without installing anything: every code block of the guide is an excerpt of a template file,
 * the guide's file references exist, the template's dependencies follow the repository's, and
 * the scaffold renames the scheme everywhere. packed-plugin.test.ts builds and runs the result.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  filesUnder,
  type Manifest,
  readJson,
  workspacePackages,
} from "../../../scripts/workspaces.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TEMPLATE = join(ROOT, "templates/cc-plugin");
const GUIDE = readFileSync(join(ROOT, "docs/write-your-own-cc.md"), "utf8");
const PLACEHOLDER = "CCLAB_VERSION";

const template = readJson(join(TEMPLATE, "package.json"));

/** Every package of the repository's workspaces, by name. */
function workspaces(): Map<string, Manifest> {
  return new Map(workspacePackages(ROOT).map(({ manifest }) => [manifest.name, manifest]));
}

describe("the guide", () => {
  // A code block's first line names the template file it is an excerpt of (`// src/x.ts`,
  // `# scenarios/x.yaml`); shell commands are run by packed-plugin.test.ts.
  const blocks = [...GUIDE.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].map((m) => {
    const [first, ...rest] = m[2]!.split("\n");
    return {
      lang: m[1]!,
      file: /^(?:\/\/|#) ([\w./-]+)$/.exec(first!)?.[1],
      text: rest.join("\n"),
    };
  });

  it("has code blocks, each an excerpt of the template file its first line names", () => {
    const code = blocks.filter((b) => b.lang !== "sh");
    expect(code.length).toBeGreaterThan(10);
    for (const block of code) {
      expect(block.file, `a ${block.lang} block names no file:\n${block.text}`).toBeDefined();
      const file = join(TEMPLATE, block.file!);
      expect(existsSync(file), `${block.file} is not in the template`).toBe(true);
      expect(readFileSync(file, "utf8"), `not in ${block.file}:\n${block.text}`).toContain(
        block.text,
      );
    }
  });

  it("refers to files of this repository that exist", () => {
    const paths = [...GUIDE.matchAll(/`((?:packages|apps|templates|docs)\/[\w./-]+)`/g)];
    expect(paths.length).toBeGreaterThan(10);
    for (const [, path] of paths) expect(existsSync(join(ROOT, path!)), path).toBe(true);
  });
});

describe("the template's package.json", () => {
  it("leaves every @cclab version to the scaffold, naming packages of this repository", () => {
    const packages = workspaces();
    for (const field of ["dependencies", "devDependencies", "peerDependencies"] as const) {
      for (const [name, range] of Object.entries(template[field] ?? {})) {
        if (!name.startsWith("@cclab/")) continue;
        expect(range, `${field}.${name}`).toBe(PLACEHOLDER);
        expect(packages.get(name)?.private, `${name} is a published package`).not.toBe(true);
      }
    }
    expect(Object.keys(template.peerDependencies ?? {}).sort()).toEqual([
      "@cclab/core-des",
      "@cclab/fabric",
      "zod",
    ]);
  });

  it("uses the repository's versions of its tools and of zod", () => {
    const root = readJson(join(ROOT, "package.json")).devDependencies ?? {};
    const fabric = workspaces().get("@cclab/fabric")!;
    const dev = template.devDependencies ?? {};
    for (const tool of ["typescript", "vitest", "tsup", "@types/node"]) {
      expect(dev[tool], tool).toBe(root[tool]);
    }
    expect(dev.zod).toBe(fabric.peerDependencies?.zod);
    expect(template.peerDependencies?.zod).toBe(fabric.peerDependencies?.zod);
  });
});

describe("the scaffold", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("copies the template, renames the scheme everywhere and writes the @cclab versions", () => {
    const parent = mkdtempSync(join(tmpdir(), "cclab-scaffold-"));
    dirs.push(parent);
    const target = join(parent, "my-cc");
    const run = spawnSync(process.execPath, [join(TEMPLATE, "scaffold.mjs"), target, "my-cc"], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const files = filesUnder(target).map((f) => f.slice(target.length + 1));
    expect(files).toContain("src/scheme.ts");
    expect(files).not.toContain("scaffold.mjs");
    for (const file of files) {
      expect(readFileSync(join(target, file), "utf8"), file).not.toMatch(/echo-cc|CCLAB_VERSION/);
    }
    expect(readFileSync(join(target, "src/scheme.ts"), "utf8")).toContain(
      'export const SCHEME = "my-cc";',
    );
    const made = readJson(join(target, "package.json"));
    expect(made.name).toBe("cclab-cc-my-cc");
    const packages = workspaces();
    for (const [name, range] of Object.entries(made.peerDependencies ?? {})) {
      if (name.startsWith("@cclab/")) expect(range).toBe(`^${packages.get(name)!.version}`);
    }
    expect(made.devDependencies?.["@cclab/cli"]).toBe(`^${packages.get("@cclab/cli")!.version}`);
  });

  it("refuses a name that is not a valid scheme name, and a folder that is not empty", () => {
    const bad = spawnSync(process.execPath, [join(TEMPLATE, "scaffold.mjs"), tmpdir(), "My CC"], {
      encoding: "utf8",
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/scheme name "My CC"/);
    const full = spawnSync(process.execPath, [join(TEMPLATE, "scaffold.mjs"), TEMPLATE, "x"], {
      encoding: "utf8",
    });
    expect(full.status).toBe(1);
    expect(full.stderr).toMatch(/is not empty/);
  });
});
