import { defaultServerConditions } from "vite";
import { defineProject, type ViteUserConfig } from "vitest/config";

/**
 * Export condition that maps every internal `@cclab/*` package to its TypeScript sources, so
 * tests (and `tsc`, via `customConditions`) run without building `dist/` first.
 */
export const SOURCE_CONDITION = "@cclab/source";

/** The per-package Vitest project: `name` shows in the test report. */
export function cclabProject(name: string): ViteUserConfig {
  const conditions = [SOURCE_CONDITION, ...defaultServerConditions];
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node",
      // A test's own time limit, not a performance bound (those are `npm run bench`): property
      // tests of whole fabrics take a few seconds alone and several times that on a loaded
      // 2-core machine, where vitest's 5 s default failed correct runs.
      testTimeout: 60_000,
    },
  });
}
