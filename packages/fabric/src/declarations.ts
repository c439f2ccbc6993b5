/**
 * What a part of a CC scheme adds to the fabric and relies on, stated on its factory so that a
 * detector from one package and a reaction from another are checked together when the network
 * is built, with no look-ups of another package's internals (see lanes.ts for the checks).
 * Since contract 3.0; a part that declares nothing is not checked.
 */

/**
 * How switches serve a lane: `control` lanes go ahead of data with strict priority;
 * `low-priority` lanes only when no normal data lane has a packet that may go (SRP's
 * speculative packets, seed 000_23e1115f082a0339.txt, Section 3).
 */
export type LaneRole = "control" | "low-priority";

/** A lane (VL) a part needs beyond the data lanes. */
export interface LaneDeclaration {
  /**
   * Lanes of the same name are one lane, shared by every part that declares it (`"control"` for
   * a lane of notifications several schemes may share). Name a lane of the scheme's own with
   * its package's prefix (`"srp.speculative"`).
   */
  readonly name: string;
  readonly role: LaneRole;
  /**
   * Packets on this lane may be dropped at a queue head by the switch part that declares it
   * (`dropAtHead` is asked for these lanes only). Every part declaring the lane must agree.
   */
  readonly droppable?: boolean;
}

/**
 * A header field or scheme column a part writes or reads: the named header bits (`fecn`,
 * `becn`, `ecn`) or a scheme-owned packet column by its name (`"srp.ttwPs"`, see
 * `Packets.column`).
 */
export type HeaderField = "fecn" | "becn" | "ecn" | `${string}.${string}`;

/** Declarations a part's factory may make. */
export interface PartDeclarations {
  /** Lanes the part needs; the network adds each name once and tells the part its VL. */
  readonly lanes?: readonly LaneDeclaration[];
  /**
   * Header fields the part marks. Two switch parts of one switch may not write the same field
   * (each would overwrite the other's marks).
   */
  readonly writes?: readonly HeaderField[];
  /** Header fields the part acts on: some part of the fabric must write each of them. */
  readonly reads?: readonly HeaderField[];
}
