/**
 * The outsider's path to a CC scheme of their own, from the packages as npm would publish
 * them (docs/write-your-own-cc.md): every published package of this repository is built and
 * packed; a project outside the repository is made from templates/cc-plugin by its scaffold,
 * with a new scheme name; the tarballs are installed there by path (third-party packages come
 * from the registry); the project builds, type-checks and passes its tests; the packed `cclab`
 * runs its scenario, the new scheme beside a built-in one; and the project's own tarball,
 * installed in a consumer folder, is found by its package name in a scenario's `plugins`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { type Manifest, workspacePackages } from "../../../scripts/workspaces.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCHEME = "my-cc"; // the guide's rename
const PACKAGE = `cclab-cc-${SCHEME}`;
const INSTALL_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline"];

const work = mkdtempSync(join(tmpdir(), "cclab-packed-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// What `npm test` and vitest put in the environment would steer the commands run here (npm's
// own `npm_*` settings name this repository as the project): they run as a user's shell would.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !/^(npm_(package|lifecycle|command|config_(local_prefix|workspaces?|include_workspace_root))|VITEST|INIT_CWD$|NODE_ENV$|TEST$)/.test(
        key,
      ),
  ),
);

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${code}:\n${output}`));
    });
  });
}

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;

/** The workspace packages npm would publish (`private` ones are never published). */
function publishedPackages(): Manifest[] {
  return workspacePackages(ROOT)
    .map(({ manifest }) => manifest)
    .filter((pkg) => pkg.private !== true);
}

interface Summary {
  totals: {
    messages: number;
    completedMessages: number;
    controlPackets: Record<string, number>;
    ccCounters: Record<string, number>;
  };
}

/** The scheme's counters and InfiniBand CC's, side by side, and every message delivered. */
function expectBothSchemes(summary: Summary): void {
  const { totals } = summary;
  expect(totals.completedMessages).toBe(totals.messages);
  const counters = totals.ccCounters;
  for (const name of ["packetsMarked", "echoesSent", "echoesReceived", "rateCuts"]) {
    expect(counters[`${SCHEME}.${name}`], `${SCHEME}.${name}`).toBeGreaterThan(0);
  }
  expect(totals.controlPackets[`x-${SCHEME}-echo`]).toBe(counters[`${SCHEME}.echoesSent`]);
  // InfiniBand CC's own counters (cc-infiniband): FECN marks, and the BECNs they brought back.
  expect(counters.fecnMarked).toBeGreaterThan(0);
  expect(counters.becnReceived).toBeGreaterThan(0);
}

it("builds, packs and installs cclab; a scaffolded scheme builds, tests, runs and publishes", {
  timeout: 600_000,
}, async () => {
  const times: Record<string, number> = {};
  const step = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await body();
    times[name] = Math.round(performance.now() - start);
    return result;
  };
  const npm = (args: readonly string[], cwd: string) => run("npm", args, cwd);

  // (a) Every package built (turbo's cache makes a built tree quick).
  await step("build", () =>
    run("npx", ["--no", "turbo", "run", "build", "--output-logs=errors-only"], ROOT),
  );

  // (b) A tarball per published package.
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  const packages = publishedPackages();
  const packed = await step("pack", () =>
    npm(
      [
        "pack",
        "--json",
        "--pack-destination",
        tarballs,
        ...packages.map((p) => `--workspace=${p.name}`),
      ],
      ROOT,
    ),
  );
  const files = (JSON.parse(packed) as { filename: string }[]).map((p) =>
    join(tarballs, p.filename),
  );
  expect(files).toHaveLength(packages.length);

  // (c) The project, outside the repository, from the template under a new name.
  const project = join(work, SCHEME);
  await step("scaffold", () =>
    run(process.execPath, [join(ROOT, "templates/cc-plugin/scaffold.mjs"), project, SCHEME], work),
  );

  // (d) The tarballs stand in for the registry: installed by path, package.json unchanged
  // (it keeps the ^x.y.z ranges the scaffold wrote, as published).
  await step("install", () => npm(["install", "--no-save", ...INSTALL_FLAGS, ...files], project));
  const lock = readJson<{ packages: Record<string, { resolved?: string }> }>(
    join(project, "node_modules/.package-lock.json"),
  );
  for (const pkg of packages) {
    expect(lock.packages[`node_modules/${pkg.name}`]?.resolved, pkg.name).toMatch(/^file:/);
  }

  // (e) The project's own checks.
  await step("project build", () => npm(["run", "build"], project));
  await step("project typecheck", () => npm(["run", "typecheck"], project));
  await step("project test", () => npm(["test"], project));

  // (f) The packed cclab runs the scenario: the new scheme beside InfiniBand CC.
  const results = join(work, "results");
  await step("scenario", () =>
    run(
      "npx",
      ["--no", "cclab", "run", "scenarios/incast.yaml", "--out", results, "--quiet", "--no-plots"],
      project,
    ),
  );
  expectBothSchemes(readJson<Summary>(join(results, "summary.json")));
  expect(readFileSync(join(results, "cc-flows.csv"), "utf8")).toMatch(/,rateGbps,/);

  // The guide's `cclab list --plugin`: the scheme's parameter table, from the packed cclab.
  const listed = await run(
    "npx",
    ["--no", "cclab", "list", "--plugin", "./dist/index.js"],
    project,
  );
  expect(listed).toContain(SCHEME);
  expect(listed).toMatch(/thresholdBytes\s+.*8192\s+bytes/);

  // Published: the project's tarball, installed in a consumer folder below the project (its
  // peers, cclab's packages, resolve from the project's node_modules above), is named in a
  // scenario's `plugins` by its package name.
  const [published] = JSON.parse(
    await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], project),
  ) as { filename: string; files: { path: string }[] }[];
  expect(published!.files.map((f) => f.path).sort()).toContain("dist/index.js");
  const consumer = join(project, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), '{ "name": "consumer", "private": true }\n');
  await step("consumer install", () =>
    npm(
      ["install", ...INSTALL_FLAGS, "--legacy-peer-deps", join(work, published!.filename)],
      consumer,
    ),
  );
  const installed = readJson<Manifest>(join(consumer, "node_modules", PACKAGE, "package.json"));
  const fabric = packages.find((p) => p.name === "@cclab/fabric")!;
  expect(installed.peerDependencies?.["@cclab/fabric"]).toBe(`^${fabric.version}`);
  const scenario = readFileSync(join(project, "scenarios/incast.yaml"), "utf8");
  const byFile = "plugins: [../dist/index.js]";
  expect(scenario).toContain(byFile);
  writeFileSync(join(consumer, "incast.yaml"), scenario.replace(byFile, `plugins: [${PACKAGE}]`));
  const consumerResults = join(work, "consumer-results");
  await step("consumer scenario", () =>
    run(
      process.execPath,
      [
        join(project, "node_modules/@cclab/cli/bin/cclab.js"),
        "run",
        "incast.yaml",
        "--out",
        consumerResults,
        "--quiet",
        "--no-plots",
      ],
      consumer,
    ),
  );
  expectBothSchemes(readJson<Summary>(join(consumerResults, "summary.json")));

  // The README's code example runs against the installed package.
  const readme = readFileSync(join(project, "README.md"), "utf8");
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toContain(`from "${PACKAGE}"`);
  writeFileSync(
    join(consumer, "example.mjs"),
    `${example}net.addMessage(0, { dstHost: 2, bytes: 65536, startPs: 0 });\nnet.run();\nif (net.hosts[2].completions.length !== 1) process.exit(1);\n`,
  );
  await run(process.execPath, ["example.mjs"], consumer);

  console.log(`packed plugin steps (ms): ${JSON.stringify(times)}`);
});
