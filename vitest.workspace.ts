/**
 * The test projects: one per workspace package. Vitest 4 no longer reads this file on its own;
 * the root `vitest.config.ts` passes it as `test.projects`.
 */
export default ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"];
