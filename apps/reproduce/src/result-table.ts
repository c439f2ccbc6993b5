/**
 * A CSV file of a run's results, read with the plot package's parser (`@cclab/plot`
 * `parseTable`), and the `ports.csv` row of one switch output.
 */
import { column, parseTable, type Table } from "@cclab/plot";
import type { SimulationResult } from "@cclab/sim";

export interface ResultTable {
  readonly rows: Table["rows"];
  /** Index of column `name`; throws naming the file's columns when it is missing. */
  col(name: string): number;
}

/** The run's file `name` (e.g. `messages.csv`); throws when the run did not write it. */
export function resultTable(result: SimulationResult, name: string): ResultTable {
  const text = result.files.get(name);
  const source = `${result.summary.scenario}: ${name}`;
  if (text === undefined) throw new Error(`${source}: not written by the run`);
  const table = parseTable(text, source);
  return { rows: table.rows, col: (n) => column(table, n, source) };
}

/**
 * The `ports.csv` row (data VL 0) of switch `device`'s output whose cable leads to `peer` (a
 * device name, or a port name such as `SB.p0`), with the table to read its columns.
 */
export function portRow(
  result: SimulationResult,
  device: string,
  peer: string,
): { row: readonly string[]; col: (name: string) => number } {
  const { rows, col } = resultTable(result, "ports.csv");
  const row = rows.find(
    (c) =>
      c[col("device")] === device &&
      c[col("vl")] === "0" &&
      (c[col("peer")] === peer || c[col("peer")]!.startsWith(`${peer}.`)),
  );
  if (row === undefined) {
    throw new Error(`${result.summary.scenario}: no port of ${device} to ${peer}`);
  }
  return { row, col };
}
