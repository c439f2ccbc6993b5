import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import projects from "./vitest.workspace.ts";

export default defineConfig({
  test: {
    projects,
    // Vitest's default leaves one core idle (cores − 1 workers): one worker on CI's 2 cores,
    // where the reproduction tests alone then take most of the 25 minutes. Every core.
    maxWorkers: availableParallelism(),
  },
});
