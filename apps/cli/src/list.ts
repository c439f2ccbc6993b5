import {
  ccPlugins,
  type ParamDoc,
  paramDocs,
  TOPOLOGY_KINDS,
  TRAFFIC_PATTERNS,
  table,
} from "@cclab/sim";

export const LIST_SECTIONS = ["topologies", "traffic", "plugins"] as const;
export type ListSection = (typeof LIST_SECTIONS)[number];

function entry(
  name: string,
  description: string,
  schema: Parameters<typeof paramDocs>[0],
): string[] {
  const docs: ParamDoc[] = paramDocs(schema);
  const rows = docs.map((d) => [
    d.name,
    d.type,
    d.required ? "(required)" : (d.default ?? "-"),
    d.description,
  ]);
  return [
    `${name}: ${description}`,
    ...(rows.length === 0
      ? ["  (no parameters)"]
      : table(
          ["  parameter", "type", "default", "meaning"],
          rows.map((r) => [`  ${r[0]}`, ...r.slice(1)]),
        )),
    "",
  ];
}

/** The text of `cclab list [section]`: every topology, traffic pattern and CC plugin with its parameters. */
export function listText(sections: readonly ListSection[] = LIST_SECTIONS): string {
  const out: string[] = [];
  if (sections.includes("topologies")) {
    out.push("== Topologies (scenario: topology.kind) ==", "");
    for (const [name, kind] of Object.entries(TOPOLOGY_KINDS)) {
      out.push(...entry(name, kind.description, kind.params));
    }
  }
  if (sections.includes("traffic")) {
    out.push("== Traffic patterns (scenario: traffic[].pattern) ==", "");
    for (const [name, pattern] of Object.entries(TRAFFIC_PATTERNS)) {
      out.push(...entry(name, pattern.description, pattern.params));
    }
  }
  if (sections.includes("plugins")) {
    out.push("== CC plugins (scenario: cc.switch.plugin, cc.hosts[].plugin) ==", "");
    const plugins = [...ccPlugins().values()];
    if (plugins.length === 0) {
      out.push(
        "(none registered: CC plugins come as cc-* packages named in the scenario's `plugins` list)",
        "",
      );
    }
    for (const plugin of plugins)
      out.push(...entry(plugin.name, plugin.description, plugin.params));
  }
  return out.join("\n");
}
