import { defineConfig } from "tsup";

// ESM and .d.ts for Node 20, as the cclab packages are built; the @cclab packages and zod
// stay imports (peer dependencies), never bundled in.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // tsup 8.5 sets `baseUrl` for its .d.ts build, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
  sourcemap: true,
  clean: true,
});
