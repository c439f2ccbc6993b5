import type { Manifest, RunEntry } from "../../data/types.js";
import { h } from "../dom.js";

/** The run's title and its pages as tabs. */
export function runHeader(entry: RunEntry, active: "summary" | "series" | "topology"): HTMLElement {
  const tab = (name: typeof active, href: string, label: string) =>
    h("a", { href, className: name === active ? "tab active" : "tab" }, label);
  const id = encodeURIComponent(entry.id);
  return h(
    "div",
    { className: "page-head" },
    h("h2", {}, entry.label),
    h(
      "p",
      { className: "muted" },
      `${entry.scenario} · seed ${entry.seed} · ${entry.status} · ${entry.simulatedUs} µs simulated · ${entry.path}`,
    ),
    h(
      "nav",
      { className: "tabs" },
      tab("summary", `#/run/${id}`, "Summary"),
      tab("series", `#/run/${id}/series`, "Time series"),
      tab("topology", `#/run/${id}/topology`, "Topology"),
    ),
  );
}

export function findRun(manifest: Manifest, id: string): RunEntry {
  const run = manifest.runs.find((r) => r.id === id);
  if (run === undefined) throw new Error(`no run "${id}" here`);
  return run;
}
