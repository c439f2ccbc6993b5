/**
 * A CSV file: column names and its data lines, split into cells as they are read (`rows()`),
 * so a series file of a million rows is not held as a million arrays of strings.
 */
export class CsvTable {
  constructor(
    readonly columns: readonly string[],
    private readonly lines: readonly string[],
  ) {}

  get length(): number {
    return this.lines.length;
  }

  *rows(): Generator<readonly string[]> {
    for (const line of this.lines) yield splitLine(line);
  }
}

/**
 * Reads the CSV cclab writes: a header line, comma-separated cells, double quotes around a
 * cell that holds a comma or quote ("" inside). Lines starting with `#` (a truncated trace's
 * note) and empty lines are skipped.
 */
export function parseCsv(text: string): CsvTable {
  const lines = text.split(/\r?\n/).filter((l) => l !== "" && !l.startsWith("#"));
  const [head, ...body] = lines;
  return new CsvTable(head === undefined ? [] : splitLine(head), body);
}

function splitLine(line: string): string[] {
  if (!line.includes('"')) return line.split(",");
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** The index of each named column; a missing one is -1. */
export function columnIndex(table: CsvTable, names: readonly string[]): number[] {
  return names.map((n) => table.columns.indexOf(n));
}
