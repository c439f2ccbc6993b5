import { h } from "../dom.js";
import type { PageContext } from "../main.js";
import { sortableTable } from "../table.js";

/** The runs and sweeps named on the command line; tick runs to overlay them. */
export async function homePage(ctx: PageContext): Promise<void> {
  const { manifest } = ctx;
  const runs = manifest.runs.filter((r) => r.sweep === undefined);
  const picked = new Set<string>();
  const overlay = h("button", { type: "button", id: "overlay-go", disabled: true }, "Overlay");
  overlay.addEventListener("click", () => {
    location.hash = `#/overlay/${[...picked].join(",")}`;
  });
  const rows = runs.map((r) => {
    const box = h("input", { type: "checkbox", "data-run": r.id, title: "overlay this run" });
    box.addEventListener("change", () => {
      if (box.checked) picked.add(r.id);
      else picked.delete(r.id);
      overlay.disabled = picked.size < 2;
    });
    const id = encodeURIComponent(r.id);
    return h(
      "tr",
      {},
      h("td", {}, box),
      h("td", {}, h("a", { href: `#/run/${id}` }, r.label)),
      h("td", {}, r.scenario),
      h("td", { className: "num" }, r.seed),
      h("td", {}, r.status),
      h("td", { className: "num" }, r.simulatedUs),
      h(
        "td",
        {},
        h("a", { href: `#/run/${id}/series` }, "series"),
        " · ",
        h("a", { href: `#/run/${id}/topology` }, "topology"),
      ),
    );
  });
  const parts: HTMLElement[] = [h("h2", {}, "Runs and sweeps")];
  if (runs.length > 0) {
    parts.push(
      h(
        "table",
        { className: "runs" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["", "run", "scenario", "seed", "status", "simulated µs", "pages"].map((c) =>
              h("th", {}, c),
            ),
          ),
        ),
        h("tbody", {}, rows),
      ),
      h("p", {}, overlay, h("span", { className: "muted" }, " tick two or more runs")),
    );
  }
  if (manifest.sweeps.length > 0) {
    parts.push(
      sortableTable({
        title: "Sweeps",
        header: ["sweep", "axes", "points", "finished"],
        rows: manifest.sweeps.map((s) => [
          { text: s.label, href: `#/sweep/${encodeURIComponent(s.id)}` },
          s.axes.map((a) => a.path).join(" × "),
          s.points.length,
          s.points.filter((p) => p.runId !== undefined).length,
        ]),
      }),
    );
  }
  ctx.root.append(...parts);
}
