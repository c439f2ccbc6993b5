import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PortMap, TOPOLOGY_KINDS, unfinishedRunMessage } from "@cclab/sim";
import { Catalog, classifyDir, exportViewer, type PortRates, startServer } from "@cclab/viewer";
import { EXIT, type Io, UsageError } from "./errors.js";
import { checkOutDir } from "./out-dir.js";

/**
 * Where the built viewer app is: `dist/viewer/` beside the bundled command (the CLI's build
 * copies apps/viewer/dist/app there, so the published package carries it), or, when the CLI
 * runs from its sources (apps/cli/src) or from a test bundle (.test-build/<pid>/), the viewer
 * workspace's own build.
 */
export function viewerAppDir(): string | undefined {
  const candidates = [
    new URL("./viewer/", import.meta.url),
    new URL("../../viewer/dist/app/", import.meta.url),
    new URL("../../apps/viewer/dist/app/", import.meta.url),
  ];
  return candidates.map((u) => fileURLToPath(u)).find((d) => existsSync(join(d, "index.html")));
}

/** `cclab view <dir>... [--port N] [--export DIR]`. */
export async function view(
  positionals: readonly string[],
  values: { port?: string[]; export?: string },
  io: Io,
  stop?: Promise<unknown>,
): Promise<number> {
  if (positionals.length === 0) {
    throw new UsageError(
      "cclab view: give one or more result or sweep directories (see cclab view --help)",
    );
  }
  const problems = positionals.flatMap((dir) => {
    const unfinished = unfinishedRunMessage(dir);
    if (unfinished !== undefined) return [unfinished];
    if (classifyDir(dir) !== undefined) return [];
    if (!existsSync(dir)) return [`${dir}: no such directory`];
    return [
      `${dir}: neither a finished run (no summary.json) nor a sweep (no sweep.resolved.json)`,
    ];
  });
  // --port is repeatable for cclab plot (ports to draw); here it is one number.
  if ((values.port ?? []).length > 1) problems.push("--port: give it once");
  const asked = values.port?.[0];
  const port = parsePort(asked);
  if (port === undefined) {
    problems.push(`--port "${asked}": must be an integer from 0 (any free port) to 65535`);
  }
  if (values.export !== undefined && values.port !== undefined) {
    problems.push("--port and --export: an export needs no server; give one of them");
  }
  if (problems.length > 0) throw new UsageError(`cclab view: ${problems.join("\ncclab view: ")}`);
  const app = viewerAppDir();
  if (app === undefined) {
    throw new UsageError(
      "cclab view: the viewer app is not built (npm run build builds apps/viewer and copies it into the CLI)",
    );
  }
  const catalog = new Catalog(positionals, { portRates });
  if (values.export !== undefined) {
    checkOutDir(values.export, "view");
    const index = await exportViewer(catalog, app, values.export);
    io.stdout.write(`cclab view: exported to ${index} (open it in a browser; no server needed)\n`);
    return EXIT.ok;
  }
  const server = await startServer(catalog, app, port).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cclab view: cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`,
    );
  });
  io.stdout.write(`cclab view: ${server.url}\n`);
  io.stderr.write(
    `serving ${catalog.manifest.runs.length} runs and ${catalog.manifest.sweeps.length} sweeps; Ctrl-C stops\n`,
  );
  await (stop ?? signalled());
  await server.close();
  return EXIT.ok;
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n <= 65535 ? n : undefined;
}

/** Resolves on Ctrl-C, SIGTERM or SIGHUP: the server then closes and the command exits 0. */
function signalled(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    const on = (signal: NodeJS.Signals) => {
      for (const s of signals) process.removeListener(s, on);
      done(signal);
    };
    for (const s of signals) process.once(s, on);
  });
}

/**
 * Link rates of a run's ports, from the topology of its `scenario.resolved.json` (built
 * alone: no plugin of the scenario is imported), for the topology page's utilisation.
 */
const portRates: PortRates = async (dir) => {
  const doc = JSON.parse(readFileSync(join(dir, "scenario.resolved.json"), "utf8")) as {
    topology?: { kind?: string };
  };
  const { kind, ...params } = doc.topology ?? {};
  if (kind === undefined || !Object.hasOwn(TOPOLOGY_KINDS, kind)) return undefined;
  const k = TOPOLOGY_KINDS[kind]!;
  const topology = k.build(k.params.parse(params));
  const map = new PortMap(topology.fabric);
  return new Map(
    map.entries.flatMap((e) => (e.rateGbps === null ? [] : [[e.name, e.rateGbps] as const])),
  );
};
