#!/usr/bin/env node
/**
 * Checks that the built type declarations of every workspace package (the `.d.ts` files in its
 * `dist/`) import only packages a user installs with it: its own `dependencies` and
 * `peerDependencies` (and `optionalDependencies`), itself, Node.js built-in modules (whose
 * types are `@types/node`, as for any Node.js program) and its own files. A declaration that imports anything else
 * (`vega` in @cclab/sim, or `zod` where zod is only a devDependency) breaks the type checks of
 * users who do not happen to have that package. Run after a build:
 *
 *     npm run build && npm run check:declarations
 *
 * Exits 1 listing every such import, or when no package has been built.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { filesUnder, readJson, workspacePackages } from "./workspaces.mjs";

const BUILTINS = new Set(builtinModules);

/** The package a module specifier names (`zod/v4/core` → `zod`), or undefined for a path. */
export function packageOf(specifier) {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every module a declaration file's text imports or references, comments left out. */
export function declarationImports(text) {
  const info = ts.preProcessFile(text, true, true);
  return [...info.importedFiles, ...info.typeReferenceDirectives].map((f) => f.fileName);
}

/**
 * The imports of the declarations in `packageDir/dist` that name a package `packageDir`'s
 * package.json does not depend on (`dependencies`, `peerDependencies`,
 * `optionalDependencies`). `files` is the number of declaration files read (0: not built).
 */
export function undeclaredImports(packageDir) {
  const pkg = readJson(join(packageDir, "package.json"));
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  const files = filesUnder(join(packageDir, "dist")).filter((f) => /\.d\.[cm]?ts$/.test(f));
  const problems = [];
  for (const file of files) {
    for (const specifier of declarationImports(readFileSync(file, "utf8"))) {
      const name = packageOf(specifier);
      if (name === undefined || declared.has(name)) continue;
      if (specifier.startsWith("node:") || BUILTINS.has(name)) continue;
      problems.push({ file: relative(packageDir, file), specifier, package: name });
    }
  }
  return { name: pkg.name, files: files.length, problems };
}

/** Every workspace package of the repository at `root`, checked. */
export function checkDeclarations(root) {
  return workspacePackages(root).map(({ dir }) => ({
    dir: relative(root, dir),
    ...undeclaredImports(dir),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const results = checkDeclarations(root);
  const built = results.filter((r) => r.files > 0);
  if (built.length === 0) {
    console.error("check-declarations: no package has dist/*.d.ts; run `npm run build` first");
    process.exit(1);
  }
  const problems = built.flatMap((r) =>
    r.problems.map(
      (p) =>
        `${r.name} (${r.dir}/${p.file}) imports "${p.specifier}", but ${p.package} is not in its dependencies or peerDependencies`,
    ),
  );
  for (const line of problems) console.error(line);
  const unbuilt = results.filter((r) => r.files === 0).map((r) => r.name);
  console.log(
    `check-declarations: ${built.length} packages, ${problems.length} undeclared imports${unbuilt.length > 0 ? ` (not built: ${unbuilt.join(", ")})` : ""}`,
  );
  process.exit(problems.length > 0 ? 1 : 0);
}
