import { linkRamp } from "../colors.js";
import { fmt, h, s } from "../dom.js";
import type { PageContext } from "../main.js";
import { type Layout, layoutTopology } from "../topology-layout.js";
import { findRun, runHeader } from "./nav.js";
import {
  blockedInWindow,
  type PortValues,
  utilisationInWindow,
  utilisationOfRun,
} from "./topology-values.js";

/**
 * The fabric drawn from the run's port map; each cable is two halves, each coloured by the
 * port at its end sending into it: its utilisation over a chosen time window
 * (link-throughput.csv), the share of the window it was paused or out of credits
 * (flow-control.csv), or its utilisation over the whole run (ports.csv's bytes; the link rate
 * when known). A run with link-throughput.csv opens on its window utilisation.
 */
export async function topologyPage(ctx: PageContext, [id]: string[]): Promise<void> {
  const entry = findRun(ctx.manifest, id!);
  const detail = await ctx.source.run(entry.id);
  ctx.root.append(runHeader(entry, "topology"));
  if (detail.ports.length === 0) {
    ctx.root.append(h("p", {}, "This run has no ports.csv with port names."));
    return;
  }
  const has = (name: string) => detail.series.some((x) => x.name === name);
  const hasLinks = has("link-throughput");
  const hasBlocked = has("flow-control");
  const mode = h(
    "select",
    { id: "topo-mode" },
    h("option", { value: "utilisation-window", disabled: !hasLinks }, "utilisation % (window)"),
    h("option", { value: "blocked", disabled: !hasBlocked }, "paused / credit-starved % (window)"),
    h("option", { value: "utilisation" }, "utilisation (whole run)"),
  );
  mode.value = hasLinks ? "utilisation-window" : hasBlocked ? "blocked" : "utilisation";
  const from = h("input", { type: "number", id: "topo-from", value: "0", step: "any" });
  const to = h("input", {
    type: "number",
    id: "topo-to",
    value: String(entry.simulatedUs),
    step: "any",
  });
  const apply = h("button", { type: "button", id: "topo-apply" }, "Draw");
  const note = h("p", { className: "muted", id: "topo-note" });
  const holder = h("div", { className: "topology" });
  ctx.root.append(
    h(
      "div",
      { className: "controls" },
      "colour by ",
      mode,
      " window µs ",
      from,
      " – ",
      to,
      " ",
      apply,
    ),
    note,
    holder,
  );
  const layout = layoutTopology(detail.ports, Math.max(600, holder.clientWidth - 4));
  const draw = async () => {
    const [fromUs, toUs] = [Number(from.value), Number(to.value)];
    const values: PortValues =
      mode.value === "utilisation-window"
        ? await utilisationInWindow(ctx, detail, fromUs, toUs)
        : mode.value === "blocked"
          ? await blockedInWindow(ctx, entry, fromUs, toUs)
          : utilisationOfRun(detail);
    // The window applies to the window modes only; whole-run utilisation ignores it.
    from.disabled = to.disabled = mode.value === "utilisation";
    note.textContent = values.note;
    holder.replaceChildren(drawTopology(layout, values));
    holder.dataset.mode = mode.value;
  };
  apply.addEventListener("click", () => void draw());
  mode.addEventListener("change", () => void draw());
  await draw();
}

function drawTopology(layout: Layout, pv: PortValues): SVGSVGElement {
  const pos = new Map(layout.nodes.map((n) => [n.name, n]));
  const small = layout.nodes.filter((n) => n.kind === "host").length > 64;
  const halves = layout.cables.flatMap((c) => {
    const a = pos.get(c.deviceA);
    const b = pos.get(c.deviceB);
    if (a === undefined || b === undefined) return [];
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    return [
      [c.a, c.b, a, { x: mx, y: my }],
      [c.b, c.a, b, { x: mx, y: my }],
    ].map(([port, peer, p, q]) => {
      const from = p as { x: number; y: number };
      const to = q as { x: number; y: number };
      const v = pv.values.get(port as string) ?? 0;
      return s(
        "line",
        {
          x1: from.x,
          y1: from.y,
          x2: to.x,
          y2: to.y,
          stroke: linkRamp(v / pv.max),
          "stroke-width": small ? 2 : 5,
          "data-port": port as string,
        },
        s("title", {}, `${port} → ${peer}: ${fmt(v, 2)} ${pv.unit}`),
      );
    });
  });
  const nodes = layout.nodes.map((n) =>
    n.kind === "switch"
      ? s(
          "g",
          { class: "node switch" },
          s("rect", { x: n.x - 22, y: n.y - 12, width: 44, height: 24, rx: 4 }),
          s("text", { x: n.x, y: n.y + 4, "text-anchor": "middle" }, n.name),
        )
      : s(
          "g",
          { class: "node host" },
          s("circle", { cx: n.x, cy: n.y, r: small ? 3 : 7 }),
          small ? null : s("text", { x: n.x, y: n.y + 22, "text-anchor": "middle" }, n.name),
        ),
  );
  return s(
    "svg",
    { width: layout.width, height: layout.height + 50, class: "topology-svg", role: "img" },
    halves,
    nodes,
    colourKey(layout, pv),
  );
}

function colourKey(layout: Layout, pv: PortValues): SVGGElement {
  const y = layout.height + 10;
  const stops = Array.from({ length: 21 }, (_, i) =>
    s("rect", { x: 40 + i * 10, y, width: 10, height: 12, fill: linkRamp(i / 20) }),
  );
  return s(
    "g",
    { class: "key" },
    stops,
    s("text", { x: 40, y: y + 28 }, `0 ${pv.unit}`),
    s("text", { x: 250, y: y + 28, "text-anchor": "end" }, `${fmt(pv.max, 2)} ${pv.unit}`),
  );
}
