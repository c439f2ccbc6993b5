#!/usr/bin/env node
// Starts a new cclab CC scheme package from this template:
//
//   node templates/cc-plugin/scaffold.mjs <target-dir> <scheme-name> [--package <npm-name>]
//
// Copies the template to <target-dir> (which must not exist or be empty), renames the
// template's scheme `echo-cc` to <scheme-name> in every file (its package `cclab-cc-echo-cc` to
// <npm-name>, default `cclab-cc-<scheme-name>`), and writes the version of each @cclab package
// it depends on as found in this cclab checkout (`^x.y.z`). Nothing else is changed.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// The checkout this template is in (the script is not copied: it runs from a checkout only).
import { filesUnder, readJson, workspacePackages } from "../../scripts/workspaces.mjs";

const TEMPLATE_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(TEMPLATE_DIR, "../..");
const TEMPLATE_SCHEME = "echo-cc";
const TEMPLATE_PACKAGE = "cclab-cc-echo-cc";
const VERSION_PLACEHOLDER = "CCLAB_VERSION";
// Not copied: this script, and what a build or an install in the template folder leaves.
const SKIP = new Set(["scaffold.mjs", "node_modules", "dist", "results"]);
// Lower case, digits and inner hyphens: valid in an npm name, a packet column and a kind.
const SCHEME_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { package: { type: "string" } },
});
const [target, scheme] = positionals;
if (positionals.length !== 2 || target === undefined || scheme === undefined) {
  fail("usage: node scaffold.mjs <target-dir> <scheme-name> [--package <npm-name>]");
}
if (!SCHEME_NAME.test(scheme)) {
  fail(`scheme name "${scheme}": use lower-case letters, digits and inner hyphens (my-cc)`);
}
const packageName = values.package ?? `cclab-cc-${scheme}`;
const targetDir = resolve(target);
if (existsSync(targetDir) && readdirSync(targetDir).length > 0) {
  fail(`${targetDir} is not empty`);
}

const versions = workspaceVersions();
cpSync(TEMPLATE_DIR, targetDir, {
  recursive: true,
  filter: (source) => !SKIP.has(relative(TEMPLATE_DIR, source).split(/[\\/]/)[0] ?? ""),
});
for (const file of filesUnder(targetDir)) {
  const text = readFileSync(file, "utf8");
  const renamed = text
    .replaceAll(TEMPLATE_PACKAGE, packageName)
    .replaceAll(TEMPLATE_SCHEME, scheme);
  if (renamed !== text) writeFileSync(file, renamed);
}
writeVersions(join(targetDir, "package.json"));
process.stdout.write(
  `created ${packageName} (scheme "${scheme}") in ${targetDir}\nnext: cd ${target} && npm install && npm run build && npm test && npx cclab run scenarios/incast.yaml\n`,
);

/** Every package of this checkout's workspaces, by name: its version. */
function workspaceVersions() {
  return new Map(
    workspacePackages(REPO_ROOT).map(({ manifest }) => [manifest.name, manifest.version]),
  );
}

/** Replaces each @cclab dependency's placeholder with `^` and the checkout's version. */
function writeVersions(file) {
  const pkg = readJson(file);
  for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      if (range !== VERSION_PLACEHOLDER) continue;
      const version = versions.get(name);
      if (version === undefined) fail(`${name} is not a package of the checkout at ${REPO_ROOT}`);
      pkg[field][name] = `^${version}`;
    }
  }
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

function fail(message) {
  process.stderr.write(`scaffold: ${message}\n`);
  process.exit(1);
}
