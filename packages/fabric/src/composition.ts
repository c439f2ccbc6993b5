import type { HeaderField, LaneRole, PartDeclarations } from "./declarations.js";

/** A part as the composition checks see it: its declarations and how errors name it. */
export interface DeclaringPart {
  /** How errors name the part, e.g. `switch part "dcqcn" of scheme "dcqcn"`. */
  readonly label: string;
  readonly kind: "switch" | "queueing" | "receiver" | "sender";
  readonly declarations: PartDeclarations;
  /** Anonymous control lanes of the part's own (contract 2's `extraVls`). */
  readonly extraVls?: number;
}

/** The VLs of a fabric once every part's lanes are added. */
export interface LanePlan {
  readonly vlCount: number;
  /** Lanes served ahead of data with strict priority, in order. */
  readonly controlVls: readonly number[];
  /** Lanes served when no normal data lane has a packet that may go. */
  readonly lowPriorityVls: readonly number[];
  /** The VL of each named lane. */
  readonly vlOfLane: ReadonlyMap<string, number>;
  /** The VLs of the lanes `part` declared, by name (its context's `lanes`). */
  lanesOf(part: DeclaringPart): Record<string, number>;
  /** The VLs of the part's own lanes: its named lanes and its anonymous control lanes. */
  ownVls(part: DeclaringPart): readonly number[];
  /** The VLs of the lanes the part declared droppable. */
  droppableVls(part: DeclaringPart): readonly number[];
}

/**
 * Adds the parts' lanes after the fabric's `vlCount` VLs (of which `controlVls` are control
 * lanes): first each part's anonymous control lanes in the order of `parts` (as contract 2
 * did), then each named lane once, in the order it is first declared. Throws a TypeError that
 * lists every problem: a lane declared with two roles or two drop rules, more VLs than
 * `maxVls`.
 */
export function planLanes(
  base: { readonly vlCount: number; readonly controlVls: readonly number[] },
  parts: readonly DeclaringPart[],
  maxVls: number,
): LanePlan {
  const problems: string[] = [];
  const controlVls = [...base.controlVls];
  const lowPriorityVls: number[] = [];
  const anonymous = new Map<DeclaringPart, number[]>();
  let vlCount = base.vlCount;
  for (const part of parts) {
    const n = part.extraVls ?? 0;
    if (n === 0) continue;
    const vls = Array.from({ length: n }, (_, i) => vlCount + i);
    anonymous.set(part, vls);
    controlVls.push(...vls);
    vlCount += n;
  }
  const vlOfLane = new Map<string, number>();
  const first = new Map<string, { part: DeclaringPart; role: LaneRole; droppable: boolean }>();
  for (const part of parts) {
    for (const lane of part.declarations.lanes ?? []) {
      const droppable = lane.droppable === true;
      const earlier = first.get(lane.name);
      if (earlier !== undefined) {
        if (earlier.role !== lane.role) {
          problems.push(
            `lane "${lane.name}" is a ${earlier.role} lane for ${earlier.part.label} but a ${lane.role} lane for ${part.label}`,
          );
        } else if (earlier.droppable !== droppable) {
          const [drops, keeps] = droppable ? [part, earlier.part] : [earlier.part, part];
          problems.push(
            `lane "${lane.name}" is droppable for ${drops.label} but lossless for ${keeps.label}`,
          );
        }
        continue;
      }
      first.set(lane.name, { part, role: lane.role, droppable });
      vlOfLane.set(lane.name, vlCount);
      (lane.role === "control" ? controlVls : lowPriorityVls).push(vlCount);
      vlCount++;
    }
  }
  if (vlCount > maxVls) {
    const adds = parts
      .map((part) => {
        const own = (anonymous.get(part)?.length ?? 0) + ownNamed(part, first).length;
        return own === 0 ? undefined : `${part.label} adds ${own}`;
      })
      .filter((s) => s !== undefined);
    problems.push(
      `the lanes make ${vlCount} VLs, more than the ${maxVls} a port may have: ${base.vlCount} data VL${base.vlCount === 1 ? "" : "s"}; ${adds.join("; ")}`,
    );
  }
  if (problems.length > 0) throw new TypeError(problems.map((p) => `cc: ${p}`).join("\n"));
  return {
    vlCount,
    controlVls,
    lowPriorityVls,
    vlOfLane,
    lanesOf: (part) =>
      Object.fromEntries(
        (part.declarations.lanes ?? []).map((l) => [l.name, vlOfLane.get(l.name)!]),
      ),
    ownVls: (part) => [
      ...(anonymous.get(part) ?? []),
      ...(part.declarations.lanes ?? []).map((l) => vlOfLane.get(l.name)!),
    ],
    droppableVls: (part) =>
      (part.declarations.lanes ?? [])
        .filter((l) => l.droppable === true)
        .map((l) => vlOfLane.get(l.name)!),
  };
}

// The named lanes `part` was first to declare.
function ownNamed(part: DeclaringPart, first: ReadonlyMap<string, { part: DeclaringPart }>) {
  return (part.declarations.lanes ?? []).filter((l) => first.get(l.name)?.part === part);
}

/**
 * What is wrong with running these parts together (empty: nothing). `switchGroups` lists the
 * switch parts each switch runs (one entry per distinct set); `hostParts` every receiver and
 * sender part of every host group.
 * - Two switch parts of one switch that write the same header field would overwrite each
 *   other's marks.
 * - A part that reads a header field needs some part of the fabric to write it: a reaction
 *   without its detector (IB CC's FECN reaction behind a switch that marks ECN) would never
 *   react.
 */
export function compositionErrors(
  switchGroups: readonly (readonly DeclaringPart[])[],
  hostParts: readonly DeclaringPart[],
): string[] {
  const problems: string[] = [];
  const writers = new Map<HeaderField, DeclaringPart[]>();
  const note = (part: DeclaringPart, field: HeaderField) => {
    const list = writers.get(field);
    if (list === undefined) writers.set(field, [part]);
    else if (!list.includes(part)) list.push(part);
  };
  const reported = new Set<string>();
  for (const group of switchGroups) {
    const inGroup = new Map<HeaderField, DeclaringPart>();
    for (const part of group) {
      for (const field of part.declarations.writes ?? []) {
        note(part, field);
        const other = inGroup.get(field);
        const key = `${other?.label}|${part.label}|${field}`;
        if (other !== undefined && other !== part && !reported.has(key)) {
          reported.add(key);
          problems.push(
            `${other.label} and ${part.label} both write ${field} on the same switches; run them on different switches (cc.switch[].switches) or drop one`,
          );
        }
        inGroup.set(field, part);
      }
    }
  }
  for (const part of hostParts)
    for (const field of part.declarations.writes ?? []) note(part, field);
  const all = [...switchGroups.flat(), ...hostParts];
  for (const part of new Set(all)) {
    for (const field of part.declarations.reads ?? []) {
      if (writers.has(field)) continue;
      const switchWrites = [...new Set(switchGroups.flat())]
        .filter((p) => (p.declarations.writes ?? []).length > 0)
        .map((p) => `${p.label} writes ${p.declarations.writes!.join(", ")}`);
      problems.push(
        `${part.label} reads ${field}, which no part of the fabric writes (${switchWrites.length === 0 ? "the switches run no part that marks packets" : switchWrites.join("; ")})`,
      );
    }
  }
  return problems.map((p) => `cc: ${p}`);
}
