import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseTable, plotRun, RUN_FIGURES, type RunFigureName } from "@cclab/plot";
import { unfinishedRunMessage } from "@cclab/sim";
import { EXIT, type Io, UsageError } from "./errors.js";

/** `cclab plot <result-dir> [--series name ...] [--port NAME ...] [--flow FLOW ...]`. */
export async function plot(
  positionals: readonly string[],
  values: { series?: string[]; port?: string[]; flow?: string[] },
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError("cclab plot: give exactly one result directory (see cclab plot --help)");
  }
  const dir = positionals[0]!;
  const unfinished = unfinishedRunMessage(dir);
  if (unfinished !== undefined) throw new UsageError(`cclab plot: ${unfinished}`);
  if (!existsSync(join(dir, "summary.json"))) {
    throw new UsageError(
      `cclab plot: ${dir} has no summary.json; give the directory of a finished cclab run`,
    );
  }
  const series = values.series ?? [];
  const problems = [
    ...series
      .filter((s) => !(RUN_FIGURES as readonly string[]).includes(s))
      .map((s) => `--series "${s}": not a figure; figures: ${RUN_FIGURES.join(", ")}`),
    ...unknownPorts(dir, values.port ?? []),
    ...unknownFlows(dir, values.flow ?? []),
  ];
  if (problems.length > 0) {
    throw new UsageError(`cclab plot: ${problems.join("\ncclab plot: ")}`);
  }
  const written = await plotRun(dir, {
    ...(series.length === 0 ? {} : { only: series as RunFigureName[] }),
    ...(values.port === undefined ? {} : { ports: values.port }),
    ...(values.flow === undefined ? {} : { flows: values.flow }),
  });
  if (written.length === 0) {
    io.stderr.write(
      `cclab plot: ${dir} recorded none of the series asked for (metrics.series in its scenario.resolved.json says which it has)\n`,
    );
    return EXIT.badInput;
  }
  for (const file of written) io.stdout.write(`${join(dir, file)}\n`);
  return EXIT.ok;
}

/** Port or device names the run's `ports.csv` does not have. */
function unknownPorts(dir: string, asked: readonly string[]): string[] {
  if (asked.length === 0) return [];
  const path = join(dir, "ports.csv");
  if (!existsSync(path)) return [`--port: ${dir} has no ports.csv to look port names up in`];
  const table = parseTable(readFileSync(path, "utf8"), path);
  const [name, device] = ["port_name", "device"].map((c) => table.columns.indexOf(c));
  if (name! < 0 || device! < 0) {
    return [`--port: ${path} has no port names (a result of an older cclab; rerun it to get them)`];
  }
  const known = new Set(table.rows.flatMap((r) => [r[name!]!, r[device!]!]));
  return asked
    .filter((p) => !known.has(p))
    .map(
      (p) =>
        `--port "${p}": no such port or device in this run (ports are named like ${table.rows[0]?.[name!] ?? "S0.p0"}; see ${path} or cclab topology)`,
    );
}

/** Flow ids or host pairs (`H1->H2`) the run's flow table does not have. */
function unknownFlows(dir: string, asked: readonly string[]): string[] {
  if (asked.length === 0) return [];
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as {
    flows?: { id: number; srcName: string; dstName: string }[];
  };
  const flows = summary.flows ?? [];
  const known = new Set(
    flows.flatMap((f) => [String(f.id), `${f.srcName}->${f.dstName}`, `${f.srcName}→${f.dstName}`]),
  );
  return asked
    .filter((f) => !known.has(f))
    .map(
      (f) =>
        `--flow "${f}": no such flow in this run's flow table (an id such as ${flows[0]?.id ?? 0}, or a host pair such as ${flows[0] === undefined ? "H0->H1" : `${flows[0].srcName}->${flows[0].dstName}`}; summary.json lists the flows)`,
    );
}
