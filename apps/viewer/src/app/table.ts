import type { TableData } from "../data/types.js";
import { h } from "./dom.js";

/** A cell that may link somewhere (`href`) instead of plain text. */
export type Cell = string | number | { readonly text: string; readonly href: string };

/**
 * A table whose columns sort on a click on their header (again: the other way); numbers sort
 * as numbers, "–" and empty cells last.
 */
export function sortableTable(
  data:
    | TableData
    | { title: string; header: readonly string[]; rows: readonly (readonly Cell[])[] },
): HTMLElement {
  const rows = data.rows.map((r) => [...r] as Cell[]);
  const tbody = h("tbody");
  let sortedBy = -1;
  let ascending = true;
  const headers = data.header.map((name, col) =>
    h("th", { title: "sort", "data-col": name, onclick: () => sort(col) }, name),
  );
  const render = () => {
    tbody.replaceChildren(
      ...rows.map((r) =>
        h(
          "tr",
          {},
          r.map((c) =>
            h(
              "td",
              { className: typeof c === "number" ? "num" : "" },
              typeof c === "object" ? h("a", { href: c.href }, c.text) : c,
            ),
          ),
        ),
      ),
    );
    headers.forEach((th, i) => {
      th.dataset.sort = i === sortedBy ? (ascending ? "asc" : "desc") : "";
    });
  };
  const sort = (col: number) => {
    ascending = sortedBy === col ? !ascending : true;
    sortedBy = col;
    const key = (c: Cell | undefined) => (typeof c === "object" ? c.text : c);
    rows.sort((a, b) => compare(key(a[col]), key(b[col])) * (ascending ? 1 : -1));
    render();
  };
  render();
  return h(
    "div",
    { className: "table-wrap", "data-table": data.title },
    h("h3", {}, data.title),
    h("table", { className: "sortable" }, h("thead", {}, h("tr", {}, headers)), tbody),
  );
}

function compare(a: string | number | undefined, b: string | number | undefined): number {
  const missing = (v: unknown) => v === undefined || v === "" || v === "–" || v === "-";
  if (missing(a) || missing(b)) return missing(a) ? (missing(b) ? 0 : 1) : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}
