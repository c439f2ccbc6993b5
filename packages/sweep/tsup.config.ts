import type { Options } from "tsup";
import { cclabBuild } from "../../tsup.shared.ts";

// Two entries: the library and the worker-thread entry it loads from beside itself.
const options: Options = { ...cclabBuild(), entry: ["src/index.ts", "src/worker.ts"] };
export default options;
