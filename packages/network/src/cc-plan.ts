import {
  assertSpecVersion,
  type CcScheme,
  compositionErrors,
  type DeclaringPart,
  type LanePlan,
  MAX_VLS,
  planLanes,
  type SwitchPartFactory,
} from "@cclab/fabric";
import type { SwitchConfig } from "@cclab/fabric-switch";

/** Switch parts of a scheme that some switches run beside (after) `cc`'s. */
export interface SwitchCcAssignment {
  readonly scheme: CcScheme;
  /** Indices of the switches that run its switch part. Default: every switch. */
  readonly switches?: readonly number[];
  /**
   * The VLs whose packets its switch part sees, besides the lanes it declares. Default: every
   * VL (as a switch's only part does).
   */
  readonly vls?: readonly number[];
}

/** A switch part and where it runs, with its declarations resolved. */
export interface PlannedSwitchPart {
  readonly factory: SwitchPartFactory;
  readonly declaring: DeclaringPart;
  /** Switch indices, or `all`. */
  readonly switches: readonly number[] | "all";
  /** The VLs it sees: `all`, or the listed data VLs plus its own lanes. */
  readonly vls: readonly number[] | "all";
  /** Where `dropAtHead` is asked: its droppable lanes, or `all` if it declares no lanes. */
  readonly droppableVls: readonly number[] | "all";
  /** Its position among the switch parts (0: `cc`'s, or the first assignment's). */
  readonly order: number;
}

/** The lanes and parts of a fabric's CC, checked: what the network builds from. */
export interface CcPlan {
  readonly lanes: LanePlan;
  readonly switchParts: readonly PlannedSwitchPart[];
  /** Each host scheme's parts, for the lanes its context lists. */
  readonly hostParts: ReadonlyMap<CcScheme, readonly DeclaringPart[]>;
}

/**
 * Checks every part's contract version and declarations and adds their lanes to the fabric's
 * (`base`): `cc`'s switch part runs on every switch, then each of `switchCc` on its switches;
 * `hostSchemes` are the schemes hosts run. Throws a TypeError listing every problem, each
 * starting with `cc:`.
 */
export function planCc(
  base: Pick<SwitchConfig, "vlCount" | "controlVls">,
  cc: CcScheme | undefined,
  switchCc: readonly SwitchCcAssignment[],
  hostSchemes: readonly CcScheme[],
  switchCount: number,
): CcPlan {
  const problems: string[] = [];
  const assignments: SwitchCcAssignment[] = [
    ...(cc?.switchPart === undefined ? [] : [{ scheme: cc }]),
    ...switchCc,
  ];
  const switchParts: Omit<PlannedSwitchPart, "vls" | "droppableVls">[] = [];
  const vlsOf = new Map<DeclaringPart, readonly number[] | undefined>();
  assignments.forEach((a, k) => {
    const factory = a.scheme.switchPart;
    const where =
      k === 0 && cc?.switchPart !== undefined
        ? "cc"
        : `switchCc[${k - (cc?.switchPart === undefined ? 0 : 1)}]`;
    if (factory === undefined) {
      problems.push(`cc: ${where}: scheme "${a.scheme.name}" has no switch part`);
      return;
    }
    assertSpecVersion(`switch part "${factory.name}"`, factory);
    for (const s of a.switches ?? []) {
      if (!Number.isInteger(s) || s < 0 || s >= switchCount) {
        problems.push(`cc: ${where}.switches: ${s} is not a switch (0..${switchCount - 1})`);
      }
    }
    const declaring: DeclaringPart = {
      label: `switch part "${factory.name}" of scheme "${a.scheme.name}"`,
      kind: "switch",
      declarations: factory,
      ...(factory.extraVls === undefined ? {} : { extraVls: factory.extraVls }),
    };
    vlsOf.set(declaring, a.vls);
    switchParts.push({ factory, declaring, switches: a.switches ?? "all", order: k });
  });
  const hostParts = new Map<CcScheme, DeclaringPart[]>();
  for (const scheme of hostSchemes) {
    if (hostParts.has(scheme)) continue;
    const parts: DeclaringPart[] = [];
    for (const [kind, factory] of [
      ["sender", scheme.senderPart],
      ["receiver", scheme.receiverPart],
    ] as const) {
      if (factory === undefined) continue;
      assertSpecVersion(`${kind} part "${factory.name}"`, factory);
      parts.push({
        label: `${kind} part "${factory.name}" of scheme "${scheme.name}"`,
        kind,
        declarations: factory,
      });
    }
    hostParts.set(scheme, parts);
  }
  const queueing = cc?.queueingPart;
  const queueingParts: DeclaringPart[] =
    queueing === undefined
      ? []
      : [{ label: `queueing part "${queueing.name}"`, kind: "queueing", declarations: queueing }];
  if (problems.length > 0) throw new TypeError(problems.join("\n"));
  const declaring = [
    ...switchParts.map((p) => p.declaring),
    ...queueingParts,
    ...[...hostParts.values()].flat(),
  ];
  const lanes = planLanes(base, declaring, MAX_VLS);
  problems.push(
    ...compositionErrors(switchGroups(switchParts, switchCount), [...hostParts.values()].flat()),
  );
  if (problems.length > 0) throw new TypeError(problems.join("\n"));
  return {
    lanes,
    switchParts: switchParts.map((p) => {
      const vls = vlsOf.get(p.declaring);
      const declaresLanes = (p.factory.lanes ?? []).length > 0;
      return {
        ...p,
        vls: vls === undefined ? "all" : [...new Set([...vls, ...lanes.ownVls(p.declaring)])],
        droppableVls: declaresLanes ? lanes.droppableVls(p.declaring) : "all",
      };
    }),
    hostParts,
  };
}

// The distinct sets of switch parts the switches run (for the header-field checks).
function switchGroups(
  parts: readonly Omit<PlannedSwitchPart, "vls" | "droppableVls">[],
  switchCount: number,
): DeclaringPart[][] {
  const groups = new Map<string, DeclaringPart[]>();
  for (let s = 0; s < switchCount; s++) {
    const runs = parts.filter((p) => p.switches === "all" || p.switches.includes(s));
    const key = runs.map((p) => p.order).join(",");
    if (!groups.has(key))
      groups.set(
        key,
        runs.map((p) => p.declaring),
      );
  }
  return [...groups.values()];
}
