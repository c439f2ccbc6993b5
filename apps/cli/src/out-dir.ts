import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "./errors.js";

/**
 * Checks, before any work, that results can be written to `dir`: it is a writable directory,
 * or the nearest existing folder above it is one (the directory is created there). Otherwise
 * a UsageError (exit 2) naming the path; without this check, `--out` naming a file failed
 * only when the results were written, as an internal error with a stack trace.
 */
export function checkOutDir(dir: string, command: string): void {
  const fail = (why: string) =>
    new UsageError(
      `cclab ${command}: cannot write results to ${dir}: ${why} (choose another --out)`,
    );
  let path = resolve(dir);
  for (;;) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw fail(`${path}: ${code}`);
    }
    if (isDirectory === false) throw fail(`${path} is a file, not a directory`);
    if (isDirectory === true) {
      try {
        accessSync(path, constants.W_OK);
      } catch {
        throw fail(`${path} is not writable`);
      }
      return;
    }
    const parent = dirname(path);
    if (parent === path) return;
    path = parent;
  }
}
