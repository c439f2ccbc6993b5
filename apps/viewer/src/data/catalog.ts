import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type PortRates, RunDir } from "./run-dir.js";
import { SafeDir } from "./safe-path.js";
import { readSweep } from "./sweep-dir.js";
import type { Manifest, SweepEntry } from "./types.js";

/** What a folder holds for the viewer: a finished run, a sweep, or neither. */
export function classifyDir(path: string): "run" | "sweep" | undefined {
  try {
    if (!statSync(path).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  if (existsSync(join(path, "summary.json"))) return "run";
  if (existsSync(join(path, "sweep.resolved.json"))) return "sweep";
  return undefined;
}

/**
 * The runs and sweeps of the folders the user named, by id (`r0`, `s0`, a sweep's points
 * `s0.3`). Folders are read through `SafeDir`s rooted at the named folders: nothing outside
 * them is ever read.
 */
export class Catalog {
  readonly manifest: Manifest;
  private readonly runs = new Map<string, RunDir>();

  constructor(dirs: readonly string[], options: { portRates?: PortRates } = {}) {
    const used = new Map<string, number>();
    const label = (path: string) => {
      const base = basename(resolve(path));
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return n === 1 ? base : `${base} (${n})`;
    };
    const sweeps: SweepEntry[] = [];
    dirs.forEach((path, i) => {
      const kind = classifyDir(path);
      if (kind === undefined) {
        throw new RangeError(
          `${path}: neither a finished run (summary.json) nor a sweep (sweep.resolved.json)`,
        );
      }
      const dir = new SafeDir(path);
      if (kind === "run") {
        const run = new RunDir(dir, { id: `r${i}`, label: label(path), path }, options.portRates);
        this.runs.set(run.entry.id, run);
      } else {
        const sweep = readSweep(dir, `s${i}`, label(path), path, options.portRates);
        sweeps.push(sweep.entry);
        for (const run of sweep.runs) this.runs.set(run.entry.id, run);
      }
    });
    this.manifest = { runs: [...this.runs.values()].map((r) => r.entry), sweeps };
  }

  run(id: string): RunDir | undefined {
    return this.runs.get(id);
  }

  allRuns(): RunDir[] {
    return [...this.runs.values()];
  }
}
