import type { PortRow, RunDetail, RunEntry } from "../../data/types.js";
import { linkRamp } from "../colors.js";
import { fmt, h, s } from "../dom.js";
import type { PageContext } from "../main.js";
import { type Layout, layoutTopology } from "../topology-layout.js";
import { findRun, runHeader } from "./nav.js";

/** A value per port (its transmit direction) and how to word it. */
interface PortValues {
  readonly values: ReadonlyMap<string, number>;
  readonly max: number;
  readonly unit: string;
  readonly note: string;
}

/**
 * The fabric drawn from the run's port map; each cable is two halves, each coloured by the
 * port at its end sending into it: the share of a chosen time window it was paused or out of
 * credits (flow-control.csv), or its utilisation over the whole run (ports.csv's bytes; the
 * link rate when known).
 */
export async function topologyPage(ctx: PageContext, [id]: string[]): Promise<void> {
  const entry = findRun(ctx.manifest, id!);
  const detail = await ctx.source.run(entry.id);
  ctx.root.append(runHeader(entry, "topology"));
  if (detail.ports.length === 0) {
    ctx.root.append(h("p", {}, "This run has no ports.csv with port names."));
    return;
  }
  const hasBlocked = detail.series.some((x) => x.name === "flow-control");
  const mode = h(
    "select",
    { id: "topo-mode" },
    h("option", { value: "blocked", disabled: !hasBlocked }, "paused / credit-starved % (window)"),
    h("option", { value: "utilisation" }, "utilisation (whole run)"),
  );
  mode.value = hasBlocked ? "blocked" : "utilisation";
  const from = h("input", { type: "number", id: "topo-from", value: "0", step: "any" });
  const to = h("input", {
    type: "number",
    id: "topo-to",
    value: String(entry.simulatedUs),
    step: "any",
  });
  const apply = h("button", { type: "button", id: "topo-apply" }, "Draw");
  const note = h("p", { className: "muted" });
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
    const values =
      mode.value === "blocked"
        ? await blocked(ctx, entry, Number(from.value), Number(to.value))
        : utilisation(detail);
    note.textContent = values.note;
    holder.replaceChildren(drawTopology(layout, values));
  };
  apply.addEventListener("click", () => void draw());
  mode.addEventListener("change", () => void draw());
  await draw();
}

async function blocked(
  ctx: PageContext,
  entry: RunEntry,
  fromUs: number,
  toUs: number,
): Promise<PortValues> {
  const info = (await ctx.source.run(entry.id)).series.find((x) => x.name === "flow-control")!;
  const data = await ctx.source.series(entry.id, "flow-control", { fromUs, toUs, points: 20_000 });
  const values = new Map<string, number>();
  data.lines.forEach((line) => {
    let sum = 0;
    let n = 0;
    data.x.forEach((x, i) => {
      if (x < fromUs || x >= toUs) return;
      sum += line.y[i] ?? 0;
      n++;
    });
    const port = line.key.split("|")[0]!;
    values.set(port, Math.max(values.get(port) ?? 0, n === 0 ? 0 : sum / n));
  });
  const largest = Math.max(0, ...values.values());
  return {
    values,
    max: largest <= 1 ? 1 : Math.min(100, Math.ceil(largest)),
    unit: "%",
    note: `Mean share of each bin from ${fmt(fromUs)} to ${fmt(toUs)} µs that a port had a packet ready but was paused or out of credits (the most blocked VL); colours run from 0 to the most blocked port's share. ${info.lines.length} ports were ever blocked.`,
  };
}

function utilisation(detail: RunDetail): PortValues {
  const us = detail.entry.simulatedUs || 1;
  const gbps = (p: PortRow) => (p.bytesForwarded * 8) / (us * 1000);
  const rated = detail.ports.every((p) => p.peer === "-" || p.rateGbps !== undefined);
  const values = new Map<string, number>();
  for (const p of detail.ports) {
    const v = rated ? (100 * gbps(p)) / (p.rateGbps ?? 1) : gbps(p);
    values.set(p.name, (values.get(p.name) ?? 0) + v);
  }
  const max = rated ? 100 : Math.max(1e-9, ...values.values());
  return {
    values,
    max,
    unit: rated ? "%" : "Gb/s",
    note: rated
      ? "Bytes each port sent over the whole run as a share of its link's rate (ports.csv)."
      : "Gb/s each port sent over the whole run (ports.csv; the link rates were not known, so colours are relative to the busiest port).",
  };
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
