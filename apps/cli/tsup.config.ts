import { cpSync, existsSync } from "node:fs";
import type { Options } from "tsup";
import { cclabBuild } from "../../tsup.shared.ts";

/** The viewer app (`apps/viewer`, built first: a devDependency, so turbo orders it). */
const VIEWER_APP = "../viewer/dist/app";

// Two entries: the library (`main`, for tests and embedding) and the `cclab` executable.
// `@cclab/viewer` (private, a devDependency) is bundled in; its built app is copied into
// dist/viewer so the published package (`files: ["dist"]`) carries it for `cclab view`.
const options: Options = {
  ...cclabBuild(),
  entry: ["src/index.ts", "src/cli.ts"],
  async onSuccess() {
    if (!existsSync(`${VIEWER_APP}/index.html`)) {
      throw new Error(`${VIEWER_APP} is not built: build @cclab/viewer first (npm run build)`);
    }
    cpSync(VIEWER_APP, "dist/viewer", { recursive: true });
  },
};
export default options;
