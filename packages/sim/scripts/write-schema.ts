// Regenerates schema/summary.schema.json from the zod schema in src/summary.ts.
import { writeFileSync } from "node:fs";
import { summaryJsonSchema } from "../src/summary.js";

const target = new URL("../schema/summary.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(summaryJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
