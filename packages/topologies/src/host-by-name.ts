import type { FabricDescription } from "@cclab/fabric";

/**
 * Index of the host called `name` (`fabric.hosts[i].name === name`), so scenarios can say
 * "S0 sends to D0" instead of hard-coding indices. Throws a `RangeError` listing some of the
 * fabric's host names when there is no such host.
 */
export function hostByName(fabric: FabricDescription, name: string): number {
  const i = fabric.hosts.findIndex((h) => h.name === name);
  if (i < 0) throw new RangeError(unknownName(fabric, "host", name, fabric.hosts));
  return i;
}

/** Index of the switch called `name`; a `RangeError` when there is none. */
export function switchByName(fabric: FabricDescription, name: string): number {
  const i = fabric.switches.findIndex((s) => s.name === name);
  if (i < 0) throw new RangeError(unknownName(fabric, "switch", name, fabric.switches));
  return i;
}

const LISTED = 8;

function unknownName(
  fabric: FabricDescription,
  what: string,
  name: string,
  nodes: readonly { readonly name: string }[],
): string {
  const plural = what === "switch" ? "switches" : "hosts";
  const shown = nodes.slice(0, LISTED).map((n) => n.name);
  const more = nodes.length > LISTED ? `, … (${nodes.length} in all)` : "";
  const list = nodes.length === 0 ? `it has no ${plural}` : `${plural}: ${shown.join(", ")}${more}`;
  return `no ${what} named ${JSON.stringify(name)} in fabric "${fabric.name}" (${list})`;
}
