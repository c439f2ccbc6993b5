/**
 * The built type declarations of a package may import only what a user installs with it
 * (scripts/check-declarations.mjs): a `.d.ts` importing `vega` from a package that does not
 * depend on it, or `zod` where zod is only a devDependency, fails the type checks of users who
 * lack that package. The check reads `dist/`: CI builds before it tests, so there every
 * package is checked and a missing build fails; a local `npm test` without a build checks the
 * checker alone, on a package of the test's own (`npm run check:declarations` after a build).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import {
  checkDeclarations,
  packageOf,
  undeclaredImports,
} from "../../../scripts/check-declarations.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("the declarations check", () => {
  it("names each import of a package the declarations' package does not depend on", () => {
    const dir = scratchDir("cclab-declarations-");
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "@cclab/leaky",
        dependencies: { "@cclab/fabric": "^0.2.0" },
        peerDependencies: { zod: "^4.6.7" },
        devDependencies: { vega: "^6.4.0", "vega-lite": "~6.4.3" },
      }),
    );
    mkdirSync(join(dir, "dist", "chunks"), { recursive: true });
    writeFileSync(
      join(dir, "dist", "index.d.ts"),
      [
        "/** e.g. `import { compile } from 'vega-lite'` (a comment, not an import) */",
        "import { CcPlugin } from '@cclab/fabric';",
        "import * as z from 'zod/v4/core';",
        "import { View } from 'vega';",
        "import * as url from 'url';",
        "import { A } from './chunks/a.js';",
        "export { B } from '@cclab/leaky/testing';",
        "declare const view: import('vega-embed').Result;",
        "export { CcPlugin, z, View, url, A, view };",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "dist", "chunks", "a.d.ts"),
      "import type { Worker } from 'node:worker_threads';\nimport type { Redis } from 'ioredis';\nexport type A = Worker | Redis;\n",
    );
    const checked = undeclaredImports(dir);
    expect(checked.files).toBe(2);
    expect(checked.problems).toEqual([
      { file: join("dist", "chunks", "a.d.ts"), specifier: "ioredis", package: "ioredis" },
      { file: join("dist", "index.d.ts"), specifier: "vega", package: "vega" },
      { file: join("dist", "index.d.ts"), specifier: "vega-embed", package: "vega-embed" },
    ]);
  });

  it("reads package names from specifiers", () => {
    expect(packageOf("zod/v4/core")).toBe("zod");
    expect(packageOf("@cclab/fabric/testing")).toBe("@cclab/fabric");
    expect(packageOf("./cc-0XG379Zd.js")).toBeUndefined();
  });
});

const checked = checkDeclarations(ROOT);
const built = checked.filter((p) => p.files > 0);
const inCi = process.env.CI === "true";

describe.skipIf(built.length === 0 && !inCi)("the built packages' declarations", () => {
  it("are there for every package (CI builds them all first)", () => {
    expect(built.map((p) => p.name)).toEqual(checked.map((p) => p.name));
  });

  it.each(built.map((p) => [p.name, p] as const))(
    "%s imports only its dependencies and peers",
    (_name, p) => {
      expect(p.problems).toEqual([]);
    },
  );
});
