import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const cliDir = fileURLToPath(new URL("..", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));

// npm links a package's bin into node_modules/.bin at install time only if the file exists
// then: a bin in dist/ is missing after `npm ci` in a fresh clone, and `npx cclab` fails.
it("links `cclab` to a file of the source tree, so npx finds it after npm ci", () => {
  const pkg = JSON.parse(readFileSync(`${cliDir}package.json`, "utf8")) as {
    bin: Record<string, string>;
    files: string[];
  };
  const bin = pkg.bin.cclab!;
  expect(bin.startsWith("./dist/")).toBe(false);
  expect(existsSync(`${cliDir}${bin}`)).toBe(true);
  expect(pkg.files).toContain(bin.replace(/^\.\//, "").split("/")[0]);
  expect(realpathSync(`${root}node_modules/.bin/cclab`)).toBe(realpathSync(`${cliDir}${bin}`));
});

it("the bin runs the built command, or says to build first", () => {
  const run = spawnSync(process.execPath, [`${cliDir}bin/cclab.js`, "--version"], {
    encoding: "utf8",
  });
  if (existsSync(`${cliDir}dist/cli.js`)) {
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run.status).toBe(0);
  } else {
    expect(run.stderr).toBe("cclab is not built yet: run `npm run build` first\n");
    expect(run.status).toBe(1);
  }
});
