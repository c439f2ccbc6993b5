import type { Options } from "tsup";
import { cclabBuild } from "../../tsup.shared.ts";

// Two entries: the library (`main`, for tests and embedding) and the `cclab` executable.
const options: Options = { ...cclabBuild(), entry: ["src/index.ts", "src/cli.ts"] };
export default options;
