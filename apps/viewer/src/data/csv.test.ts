import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.js";

describe("parseCsv", () => {
  it("reads a header and rows, quoted cells, and skips comments and blank lines", () => {
    const t = parseCsv('a,b,c\n1,"x,y",3\n# truncated\n\n4,"say ""hi""",6\n');
    expect(t.columns).toEqual(["a", "b", "c"]);
    expect([...t.rows()]).toEqual([
      ["1", "x,y", "3"],
      ["4", 'say "hi"', "6"],
    ]);
  });

  it("gives an empty table for an empty file", () => {
    const t = parseCsv("");
    expect(t.columns).toEqual([]);
    expect(t.length).toBe(0);
  });
});
