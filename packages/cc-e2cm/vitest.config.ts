import { cclabProject } from "../../vitest.shared.ts";

export default cclabProject("cc-e2cm");
