import { existsSync, readFileSync } from "node:fs";

/**
 * A CSV file as cclab writes it (sim/src/series.ts): a header line, then comma-separated
 * values without quoting (names in cclab results hold no commas).
 */
export interface Table {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Reads a cclab CSV file, or returns undefined when it does not exist. */
export function readTable(path: string): Table | undefined {
  if (!existsSync(path)) return undefined;
  return parseTable(readFileSync(path, "utf8"), path);
}

export function parseTable(text: string, source = "CSV"): Table {
  const lines = text.split("\n").filter((l) => l.length > 0);
  if (lines.length === 0) throw new Error(`${source}: empty file (a header line was expected)`);
  const columns = lines[0]!.split(",");
  const rows = lines.slice(1).map((line, i) => {
    const cells = line.split(",");
    if (cells.length !== columns.length) {
      throw new Error(
        `${source} line ${i + 2}: ${cells.length} values for ${columns.length} columns (${columns.join(",")})`,
      );
    }
    return cells;
  });
  return { columns, rows };
}

/** Index of a column; throws naming the file's columns when it is missing. */
export function column(table: Table, name: string, source = "CSV"): number {
  const i = table.columns.indexOf(name);
  if (i < 0) {
    throw new Error(`${source}: no column "${name}" (columns: ${table.columns.join(", ")})`);
  }
  return i;
}
