import type { LaneDeclaration } from "@cclab/fabric";

/**
 * The scheme's name: the plugin's name in a scenario's `cc` section, and the prefix of its
 * packet column, packet kind and counters, so that they cannot clash with another scheme's in
 * the same fabric (counters of every part are summed by name into summary.json).
 */
export const SCHEME = "echo-cc";

/** Set to 1 by the switch part on a data packet that found its input queue over the threshold. */
export const MARK_COLUMN = `${SCHEME}.marked` as const;

/** The receiver's answer to a marked packet, sent back to the packet's source. */
export const ECHO_KIND = `x-${SCHEME}-echo` as const;

/**
 * Echoes travel on a control lane, served ahead of data. The name `control` is shared: every
 * scheme in the fabric that declares a lane of that name gets the same VL.
 */
export const CONTROL_LANE = "control";
export const LANES: readonly LaneDeclaration[] = [{ name: CONTROL_LANE, role: "control" }];
