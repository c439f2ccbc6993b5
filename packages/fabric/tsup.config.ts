import { cclabBuild } from "../../tsup.shared.ts";

// Two entries: the contract, and the test contexts for CC parts (`@cclab/fabric/testing`).
export default cclabBuild(["src/index.ts", "src/testing.ts"]);
