import type { Options } from "tsup";
import { cclabBuild } from "../../tsup.shared.ts";

// The Node side (data layer, server, export) as a library for the CLI; `vite build` then
// writes the browser app to dist/app (tsup runs first: it cleans dist/).
const options: Options = cclabBuild(["src/index.ts"]);
export default options;
