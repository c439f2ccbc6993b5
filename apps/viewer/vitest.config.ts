import { cclabProject } from "../../vitest.shared.ts";

export default cclabProject("viewer");
