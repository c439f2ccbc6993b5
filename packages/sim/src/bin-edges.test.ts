import { describe, expect, it } from "vitest";
import { dropRowsAt } from "./bin-edges.js";

describe("dropRowsAt", () => {
  it("drops only the trailing records taken at the given time", () => {
    // Records of 3: [time, key, value]; two at 20 at the end, one at 20 earlier is not trailing.
    const rows = [10, 0, 1, 20, 0, 2, 10, 1, 3, 20, 0, 4, 20, 1, 5];
    dropRowsAt(rows, 3, 20);
    expect(rows).toEqual([10, 0, 1, 20, 0, 2, 10, 1, 3]);
    dropRowsAt(rows, 3, 30);
    expect(rows).toEqual([10, 0, 1, 20, 0, 2, 10, 1, 3]);
  });

  it("empties rows that all have the time, and leaves empty rows alone", () => {
    const rows = [5, 0, 1, 5, 1, 2];
    dropRowsAt(rows, 3, 5);
    expect(rows).toEqual([]);
    dropRowsAt(rows, 3, 5);
    expect(rows).toEqual([]);
  });
});
