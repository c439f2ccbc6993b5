/**
 * `cclab list` shows every key a scenario file may hold, with type, default, unit and meaning
 * (issue 33): the switch and host sections, nested keys as dotted rows instead of `object`,
 * and the values a CC plugin's presets give instead of "-".
 */
import { scenarioSchema } from "@cclab/sim";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { cctFromFormula, PRESETS } from "../../../packages/cc-infiniband/src/index.js";
import { EXIT, main } from "../src/index.js";

async function list(...sections: string[]): Promise<string> {
  let out = "";
  let err = "";
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  };
  const code = await main(["list", ...sections], io);
  expect(err).toBe("");
  expect(code).toBe(EXIT.ok);
  return out;
}

type Row = Record<string, string>;

/** Every table of the text (a header line over a line of dashes), as rows keyed by header. */
function tables(text: string): Row[][] {
  const lines = text.split("\n");
  const found: Row[][] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!/^-+( {2}-+)*$/.test(lines[i]!)) continue;
    const starts = [...lines[i]!.matchAll(/-+/g)].map((m) => m.index);
    const cells = (line: string) => starts.map((s, c) => line.slice(s, starts[c + 1]).trim());
    const header = cells(lines[i - 1]!);
    const rows: Row[] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.trim() !== ""; j++) {
      const row = cells(lines[j]!);
      rows.push(Object.fromEntries(header.map((h, c) => [h, row[c]!])));
    }
    found.push(rows);
  }
  return found;
}

const rows = (text: string) => tables(text).flat();
const byName = (text: string) =>
  new Map(rows(text).map((r) => [r.key ?? r.parameter, r] as [string, Row]));

// The section's defaults, from the schema: what `switch: {}` and `host: {}` become.
const sectionDefaults = (key: "switch" | "host") =>
  (scenarioSchema.shape[key] as z.ZodType).parse(undefined) as Record<string, unknown>;

describe("cclab list", () => {
  it.each(["switch", "host"] as const)("lists every %s key with its default", async (section) => {
    const shown = byName(await list(section));
    const defaults = sectionDefaults(section);
    expect(Object.keys(defaults).length).toBeGreaterThan(5);
    for (const [key, value] of Object.entries(defaults)) {
      const row = shown.get(`${section}.${key}`);
      expect(row, `${section}.${key}`).toBeDefined();
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        expect(row!.default, `${section}.${key}`).toBe(JSON.stringify(value));
      }
    }
    // Optional keys without a default are listed too (switch.pfc, host.pfc), with their keys.
    expect(shown.get(`${section}.pfc.xoffBytes`)).toMatchObject({ unit: "bytes" });
  });

  it("gives units from the keys' names", async () => {
    const shown = byName(await list("switch", "host", "topologies"));
    expect(shown.get("switch.routingLatencyNs")).toMatchObject({
      default: String(sectionDefaults("switch").routingLatencyNs),
      unit: "ns",
    });
    expect(shown.get("host.injectionCapGbps")).toMatchObject({ unit: "Gb/s" });
    expect(shown.get("rateGbps")).toMatchObject({ unit: "Gb/s" });
  });

  it("has a section for every top-level key that holds keys of its own", async () => {
    const top = byName(await list("scenario"));
    for (const key of Object.keys(scenarioSchema.shape)) expect(top.has(key), key).toBe(true);
    for (const [name, row] of top) {
      if (name.includes(".") || name.includes("[") || !row.type!.startsWith("{")) continue;
      if (name === "topology" || name === "traffic") continue; // cclab list topologies, traffic
      const section = rows(await list(name));
      expect(section.length, name).toBeGreaterThan(0);
      expect(section.every((r) => r.key!.startsWith(`${name}.`))).toBe(true);
    }
  });

  it("gives every row a meaning and a type, objects as rows of their keys", async () => {
    const all = rows(await list());
    const names = all.map((r) => r.key ?? r.parameter!);
    for (const row of all.filter((r) => r.meaning !== undefined)) {
      const name = row.key ?? row.parameter!;
      expect(row.meaning, name).not.toBe("");
      expect(row.type, name).not.toMatch(/^(object|unknown)(\[\])?$/);
      if (row.type === "{…}" || row.type === "{…}[]") {
        expect(names.some((n) => n.startsWith(`${name}.`) || n.startsWith(`${name}[].`))).toBe(
          true,
        );
      }
    }
    expect(all.length).toBeGreaterThan(200); // the scenario's keys are there too
    // The scheduled pattern's flows and the traffic size variants have their own rows.
    expect(names).toEqual(expect.arrayContaining(["flows[].src", "size.kind", "size.bytes"]));
  });

  it("shows the values of the InfiniBand CC presets instead of -", async () => {
    const text = await list("plugins");
    const ib = text.slice(text.indexOf("infiniband:"), text.indexOf("\ndcqcn:"));
    const [params, presets] = tables(ib);
    // The default preset's values are the defaults; a table gives every preset's.
    const main = new Map(params!.map((r) => [r.parameter!, r]));
    const first = Object.keys(PRESETS)[0] as keyof typeof PRESETS;
    for (const [key, value] of Object.entries(PRESETS[first])) {
      if (typeof value !== "object") expect(main.get(key)!.default, key).toBe(`${value} (preset)`);
    }
    expect(presets, "a table of the presets' values").toBeDefined();
    const byPreset = new Map(presets!.map((r) => [r.parameter!, r]));
    for (const [preset, values] of Object.entries(PRESETS)) {
      for (const [key, value] of Object.entries(values)) {
        if (typeof value === "object") continue; // the CCT formula: checked as cctUs below
        expect(byPreset.get(key)?.[preset], `${preset} ${key}`).toBe(JSON.stringify(value));
      }
      const cct = cctFromFormula(values.cctFormula);
      expect(byPreset.get("cctUs")?.[preset]).toContain(`${cct.length} entries`);
    }
  });

  it("keeps selecting sections and rejects unknown ones", async () => {
    const text = await list("host");
    expect(text).toContain("host.mtuBytes");
    expect(text).not.toContain("switch.vlCount");
    expect(text).not.toContain("two-level-fat-tree");
    let err = "";
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
    expect(await main(["list", "hosts"], io)).toBe(EXIT.badInput);
    expect(err).toContain("switch, host");
  });
});
