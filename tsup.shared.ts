import type { Options } from "tsup";

/** The build every package uses: ESM and .d.ts from `src/index.ts` (or `entry`), for Node 20. */
export function cclabBuild(entry: string[] = ["src/index.ts"]): Options {
  return {
    entry,
    format: ["esm"],
    target: "node20",
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
  };
}
