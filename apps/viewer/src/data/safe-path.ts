import { readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * A folder the viewer may read from, and nothing outside it: every file is named relative to
 * it, and a name that is absolute, climbs out with `..`, holds a NUL or a backslash, or
 * leads (through a symlink anywhere on the way) to a file whose real path is outside the
 * folder's real path is refused. The server and the export read every file through one of
 * these, so a request, a sweep file's point id or a symlink in a result directory cannot make
 * them serve `/etc/passwd`.
 */
export class SafeDir {
  readonly root: string;
  private readonly realRoot: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.realRoot = realpathSync(this.root);
  }

  /** The real path of `name` inside the folder, or undefined when it is not a file inside it. */
  resolveFile(name: string): string | undefined {
    const real = this.resolveInside(name);
    if (real === undefined) return undefined;
    let stats: Stats;
    try {
      stats = statSync(real);
    } catch {
      return undefined;
    }
    return stats.isFile() ? real : undefined;
  }

  /** The real path of `name` when it exists inside the folder (a file or a folder). */
  resolveInside(name: string): string | undefined {
    if (!isSafeName(name)) return undefined;
    let real: string;
    try {
      real = realpathSync(join(this.realRoot, name));
    } catch {
      return undefined;
    }
    const rel = relative(this.realRoot, real);
    if (rel === "") return real;
    if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return undefined;
    return real;
  }

  /** The file's text, or undefined when it is missing or not inside the folder. */
  readText(name: string): string | undefined {
    const file = this.resolveFile(name);
    return file === undefined ? undefined : readFileSync(file, "utf8");
  }

  /** A folder inside this one, itself safe (undefined when it is not inside). */
  sub(name: string): SafeDir | undefined {
    const real = this.resolveInside(name);
    if (real === undefined) return undefined;
    try {
      if (!statSync(real).isDirectory()) return undefined;
    } catch {
      return undefined;
    }
    return new SafeDir(real);
  }
}

/**
 * A relative name of plain segments: not absolute, no `..` or `.` segment, no empty segment,
 * no NUL, no backslash (a Windows separator that `..\\` would climb with).
 */
export function isSafeName(name: string): boolean {
  if (name === "" || name.includes("\0") || name.includes("\\")) return false;
  if (isAbsolute(name) || /^[a-zA-Z]:/.test(name)) return false;
  return name.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}
