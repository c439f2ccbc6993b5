import { MAX_TIME_US, TIME_TOO_LATE } from "@cclab/core-des";
import { z } from "zod";

/**
 * SRP's parameters, Table 1 of the paper (seed 000_23e1115f082a0339.txt, lines 106–112), and
 * the size of its control packets (line 98: one 64-bit flit).
 */
export const DEFAULTS = {
  epsilon: 0.05,
  ttwUs: 1.3,
  nMaxPackets: 16,
  nMinPackets: 4,
  controlPacketBytes: 8,
  fifoLanes: true,
  inOrder: false,
  dropCheck: "at-head",
} as const;

/**
 * When a switch checks a speculative packet's TTW (seed 000_23e1115f082a0339.txt, line 70: on
 * the timestamp "when the packet is at the head of the input buffer"; line 247: "when a packet
 * arrives from the channel or when it reaches the head of an input queue"). `at-head`: each time
 * the arbiter considers it at the head, on its queueing time so far (this switch included).
 * `until-room`: as the authors' Booksim routers do, on arrival, on the queueing time of the
 * switches before, and at the head only while it has no room past the crossbar (no output
 * buffer space or credits); a head with room is spared, though its wait for the crossbar still
 * counts at the next switch.
 */
export const DROP_CHECKS = ["at-head", "until-room"] as const;
export type DropCheck = (typeof DROP_CHECKS)[number];

/** What a scenario may write under `params` (units in the keys; all optional). */
export const params = z
  .strictObject({
    epsilon: z
      .number()
      .min(0)
      .max(10)
      .default(DEFAULTS.epsilon)
      .describe(
        "ε, reservation overhead adjustment: a grant of n packets moves the destination's schedule by n·(1+ε)·τ_p (Table 1, line 109)",
      ),
    ttwUs: z
      .number()
      .min(0.001, "must be at least 0.001 µs (1 ns)")
      .max(MAX_TIME_US, TIME_TOO_LATE)
      .default(DEFAULTS.ttwUs)
      .describe(
        "TTW, speculative time-to-wait: a switch drops a speculative packet whose queueing time summed over its hops exceeds this, µs (Table 1, line 110)",
      ),
    nMaxPackets: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(DEFAULTS.nMaxPackets)
      .describe(
        "n_max, reservation granularity: a message is reserved in chunks of at most this many packets (Table 1, line 111)",
      ),
    nMinPackets: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(DEFAULTS.nMinPackets)
      .describe(
        "n_min, minimum reservation message size: messages of fewer packets bypass SRP (Table 1, line 112)",
      ),
    controlPacketBytes: z
      .number()
      .int()
      .min(1)
      .max(65_536)
      .default(DEFAULTS.controlPacketBytes)
      .describe(
        "size of SRP's reservation, grant, ACK and NACK packets on the wire, bytes (line 98: one 64-bit flit)",
      ),
    fifoLanes: z
      .boolean()
      .default(DEFAULTS.fifoLanes)
      .describe(
        "queue the reservation, reply and speculative lanes of each switch input in one FIFO, as the paper's routers do (line 98); false: the switch's own queueing (e.g. VOQ) for them too",
      ),
    inOrder: z
      .boolean()
      .default(DEFAULTS.inOrder)
      .describe(
        "the in-order variant (lines 80–82): from t_s the source resends, on its own lane and ahead of the chunk's other packets, every speculative packet not yet ACKed or NACKed; the destination discards the copy that arrives second. Hosts only",
      ),
    dropCheck: z
      .enum(DROP_CHECKS)
      .default(DEFAULTS.dropCheck)
      .describe(
        "when a switch checks TTW (lines 70, 247): at-head, whenever the arbiter considers the head, on all its queueing time; until-room, on arrival (queueing at earlier switches) and at the head only while it has no room past the crossbar, as the authors' Booksim routers do. Switches only",
      ),
  })
  .refine((p) => p.nMinPackets <= p.nMaxPackets, {
    message: "nMinPackets must not exceed nMaxPackets",
    path: ["nMinPackets"],
  });

/** Resolved parameters. */
export type SrpParams = z.output<typeof params>;
