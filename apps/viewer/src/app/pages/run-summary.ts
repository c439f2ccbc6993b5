import { h } from "../dom.js";
import type { PageContext } from "../main.js";
import { sortableTable } from "../table.js";
import { findRun, runHeader } from "./nav.js";

/** `summary.txt` as sortable tables, and the text itself. */
export async function runSummaryPage(ctx: PageContext, [id]: string[]): Promise<void> {
  const entry = findRun(ctx.manifest, id!);
  const detail = await ctx.source.run(entry.id);
  ctx.root.append(
    runHeader(entry, "summary"),
    h(
      "dl",
      { className: "facts" },
      detail.facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
    ),
    ...detail.tables.map((t) => sortableTable(t)),
    h(
      "details",
      {},
      h("summary", {}, "summary.txt"),
      h("pre", { className: "summary-text" }, detail.summaryText),
    ),
  );
}
