import { readFileSync, realpathSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * Where the modules a scenario lists under `plugins` come from. Importing a module runs its
 * code, so a scenario may name only code already installed where it is read:
 *
 * - an npm package name (`my-cc`, `@scope/my-cc`, `@scope/my-cc/switch`), found as Node finds
 *   it: in `node_modules` of `baseDir` or of a folder above, its `exports` read with the
 *   `node`, `import` and `default` conditions (else `main`, else `index.js`);
 * - a file path: `./x.js` or `../lib/x.js` from `baseDir`, or an absolute path; with
 *   `confineFilesTo` (sweep workers) the file must be inside that folder.
 *
 * Anything else — a URL (`data:`, `http:`, `https:`, `file:`, `node:`, ...), a Node built-in
 * module, a name npm would not accept — is refused before anything is imported.
 */
export interface PluginSpecifierOptions {
  /** The folder packages and relative paths resolve from (the scenario file's folder). */
  readonly baseDir: string;
  /** When given, a file plugin must be inside this folder (symbolic links followed). */
  readonly confineFilesTo?: string;
}

/** The file to import for a `plugins` entry, or why it is refused (nothing imported). */
export type PluginResolution =
  | { readonly file: string; readonly refused?: undefined }
  | { readonly refused: string; readonly file?: undefined };

/** What a `plugins` entry may be, for the messages. */
export const PLUGIN_POLICY =
  "a plugin is an npm package name (my-cc, @scope/my-cc, @scope/my-cc/part) found in node_modules of the scenario's folder or a folder above, or a file path (./my-cc.js, ../lib/my-cc.js, /abs/my-cc.js) from the scenario's folder";

// npm package names: lower case for new packages, upper case in some old ones; an optional
// `/subpath` (checked below) names one of its `exports`.
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
const URL_SCHEME = /^([a-z][a-z\d+.-]*):/i;
const CONDITIONS = new Set(["node", "import", "default"]);

export function resolvePluginSpecifier(
  specifier: string,
  options: PluginSpecifierOptions,
): PluginResolution {
  const shown = show(specifier);
  if (isFilePath(specifier)) return resolveFile(specifier, shown, options);
  const scheme = URL_SCHEME.exec(specifier)?.[1];
  if (scheme !== undefined) {
    return {
      refused: `${shown} is a ${scheme.toLowerCase()}: URL, which is not loaded: ${PLUGIN_POLICY}`,
    };
  }
  const parts = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameLength).join("/");
  const subpath = parts.slice(nameLength);
  if (
    !PACKAGE_NAME.test(name) ||
    subpath.some((s) => s === "" || s === "." || s === ".." || s.toLowerCase() === "node_modules")
  ) {
    return { refused: `${shown} is neither a package name nor a file path: ${PLUGIN_POLICY}` };
  }
  if (isBuiltin(name)) {
    return { refused: `${shown} is a Node.js built-in module, not a plugin: ${PLUGIN_POLICY}` };
  }
  return resolvePackage(
    name,
    subpath.length === 0 ? "." : `./${subpath.join("/")}`,
    shown,
    options,
  );
}

function isFilePath(specifier: string): boolean {
  return (
    isAbsolute(specifier) ||
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    (sep === "\\" && (specifier.startsWith(".\\") || specifier.startsWith("..\\")))
  );
}

function resolveFile(
  specifier: string,
  shown: string,
  options: PluginSpecifierOptions,
): PluginResolution {
  const file = resolve(options.baseDir, specifier);
  // Confinement first: whether a file outside exists is none of the scenario's business.
  const root = options.confineFilesTo;
  if (root !== undefined && !inside(realPath(root), realPath(file))) {
    return {
      refused: `${shown} is outside ${root}, the only folder plugin files are loaded from here (a package name or a file in that folder)`,
    };
  }
  if (!isFile(file)) return { refused: `cannot find ${shown} (no file ${file})` };
  return { file };
}

/** Finds the package as Node's ESM resolver does, without importing anything. */
function resolvePackage(
  name: string,
  subpath: string,
  shown: string,
  options: PluginSpecifierOptions,
): PluginResolution {
  let dir = resolve(options.baseDir);
  for (;;) {
    const packageDir = join(dir, "node_modules", name);
    if (isFile(join(packageDir, "package.json"))) {
      const entry = packageEntry(packageDir, subpath);
      if (typeof entry === "string") return { file: entry };
      return {
        refused:
          entry.missing === undefined
            ? `${shown}: package "${name}" (${packageDir}) has no module for "${subpath}" under the node, import or default conditions`
            : `${shown}: package "${name}" (${packageDir}) exports "${subpath}" as ${entry.missing}, which is not there (is the package built?)`,
      };
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return {
    refused: `cannot find package "${name}" in node_modules of ${resolve(options.baseDir)} or a folder above (install it there; a file is named by its path, ./my-cc.js)`,
  };
}

/** The file a package gives for `subpath`, or the target it names that is missing. */
function packageEntry(packageDir: string, subpath: string): string | { missing?: string } {
  let manifest: { exports?: unknown; main?: unknown };
  try {
    manifest = JSON.parse(
      readFileSync(join(packageDir, "package.json"), "utf8"),
    ) as typeof manifest;
  } catch {
    return {};
  }
  if (manifest.exports !== undefined && manifest.exports !== null) {
    const target = exportsTarget(manifest.exports, subpath);
    if (target === undefined) return {};
    const file = resolve(packageDir, target);
    if (!inside(packageDir, file)) return {};
    return isFile(file) ? file : { missing: target };
  }
  // Without `exports`, Node's legacy rules: `main` (or its `.js`, or its `index.js`), then
  // `index.js`; a subpath is a file of the package.
  const candidates =
    subpath === "."
      ? typeof manifest.main === "string"
        ? [manifest.main, `${manifest.main}.js`, join(manifest.main, "index.js"), "index.js"]
        : ["index.js"]
      : [subpath];
  for (const candidate of candidates) {
    const file = resolve(packageDir, candidate);
    if (inside(packageDir, file) && isFile(file)) return file;
  }
  return {};
}

/** The target of `subpath` in a package's `exports` (Node's PACKAGE_EXPORTS_RESOLVE). */
function exportsTarget(exports: unknown, subpath: string): string | undefined {
  const map =
    typeof exports === "object" &&
    !Array.isArray(exports) &&
    Object.keys(exports as object).every((key) => key.startsWith("."))
      ? (exports as Record<string, unknown>)
      : { ".": exports };
  if (Object.hasOwn(map, subpath)) return conditionTarget(map[subpath], undefined);
  // Patterns (`"./parts/*": "./dist/*.js"`): the one with the longest part before `*` wins.
  let best: { key: string; match: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*");
    if (star < 0 || key.indexOf("*", star + 1) >= 0) continue;
    const [before, after] = [key.slice(0, star), key.slice(star + 1)];
    if (
      subpath.length >= key.length &&
      subpath.startsWith(before) &&
      subpath.endsWith(after) &&
      (best === undefined || before.length > best.key.indexOf("*"))
    ) {
      best = { key, match: subpath.slice(before.length, subpath.length - after.length) };
    }
  }
  return best === undefined ? undefined : conditionTarget(map[best.key], best.match);
}

function conditionTarget(target: unknown, match: string | undefined): string | undefined {
  if (typeof target === "string") {
    if (!target.startsWith("./")) return undefined;
    return match === undefined ? target : target.replaceAll("*", match);
  }
  if (Array.isArray(target)) {
    for (const item of target) {
      const found = conditionTarget(item, match);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof target === "object" && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!CONDITIONS.has(condition)) continue;
      const found = conditionTarget(value, match);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The path with symbolic links followed; a folder that is not there contains nothing. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A specifier in a message: quoted, long ones (data: URLs) cut. */
function show(specifier: string): string {
  return JSON.stringify(specifier.length > 60 ? `${specifier.slice(0, 57)}...` : specifier);
}
