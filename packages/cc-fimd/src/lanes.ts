import type { LaneDeclaration } from "@cclab/fabric";

/** ACKs travel ahead of data, on a control lane (shared with any other scheme's of that name). */
export const CONTROL_LANE = "control";
export const LANES: readonly LaneDeclaration[] = [{ name: CONTROL_LANE, role: "control" }];
