import { fileURLToPath } from "node:url";

/** The repository's report, at its root. */
export const REPORT_FILE = fileURLToPath(new URL("../../../reproductions.md", import.meta.url));

/** The saved outcome of each experiment (committed; the report is made from these alone). */
export const OUTCOMES_DIR = fileURLToPath(new URL("../outcomes/", import.meta.url));
