import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../../../packages/sim/test/scratch-dir.js";
import { isSafeName, SafeDir } from "./safe-path.js";

describe("SafeDir", () => {
  const base = scratchDir("cclab-safe-");
  const root = join(base, "root");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(root, "sub/ok.txt"), "ok");
  writeFileSync(join(base, "secret.txt"), "secret");
  symlinkSync(join(base, "secret.txt"), join(root, "escape.txt"));
  symlinkSync(base, join(root, "up"));
  symlinkSync(join(root, "sub/ok.txt"), join(root, "inside.txt"));
  const dir = new SafeDir(root);

  it("reads files inside, also through a symlink that stays inside", () => {
    expect(dir.readText("sub/ok.txt")).toBe("ok");
    expect(dir.readText("inside.txt")).toBe("ok");
  });

  it("refuses names that climb out, absolute names, and symlinks that lead out", () => {
    for (const name of [
      "../secret.txt",
      "sub/../../secret.txt",
      join(base, "secret.txt"),
      "/etc/passwd",
      "escape.txt",
      "up/secret.txt",
      "sub\\..\\..\\secret.txt",
      "sub/ok.txt\0",
      "",
      "sub",
    ]) {
      expect(dir.readText(name), name).toBeUndefined();
    }
    expect(dir.sub("up")).toBeUndefined();
    expect(dir.sub("sub")?.readText("ok.txt")).toBe("ok");
  });

  it("names: plain relative segments only", () => {
    expect(isSafeName("points/p1/summary.json")).toBe(true);
    for (const bad of ["..", "a/../b", "./a", "a//b", "/a", "C:/x", "a\\b"]) {
      expect(isSafeName(bad), bad).toBe(false);
    }
  });
});
