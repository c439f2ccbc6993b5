import type { Options } from "tsup";

/** The build every package uses: ESM and .d.ts from `src/index.ts`, for Node 20. */
export function cclabBuild(): Options {
  return {
    entry: ["src/index.ts"],
    format: ["esm"],
    target: "node20",
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
  };
}
