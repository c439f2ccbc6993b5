import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

// Directories made by the test file that imported this module. Vitest evaluates a test file's
// imports afresh for each file (the default isolation), so this hook runs once per file, after
// its last test, and `npm test` leaves nothing behind in the temp directory.
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new, empty directory under the OS temp directory, removed after the file's tests. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
