import { cclabBuild } from "../../tsup.shared.ts";

export default cclabBuild();
