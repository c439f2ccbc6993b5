/**
 * The packages of this checkout's npm workspaces, as the scripts, the CC plugin template's
 * scaffold and the packaging tests read them: the root package.json's `workspaces` are folders
 * of one level (`packages/*`, `apps/*`), and every subfolder with a package.json is a package.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Each workspace package of the checkout at `root`: its folder and its package.json. */
export function workspacePackages(root) {
  const { workspaces = [] } = readJson(join(root, "package.json"));
  return workspaces.flatMap((pattern) => {
    const parent = join(root, pattern.replace(/\/\*$/, ""));
    if (!existsSync(parent)) return [];
    return readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(dir, "package.json")))
      .map((dir) => ({ dir, manifest: readJson(join(dir, "package.json")) }));
  });
}

/** Every file below `dir` (none when it does not exist), depth first. */
export function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}
