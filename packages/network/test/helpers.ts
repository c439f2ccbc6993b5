import type { Topology } from "@cclab/fabric";

/** N hosts on one switch (host h on port h), built by hand so these tests stand alone. */
export function star(hosts: number, rateGbps = 10, latencyNs = 10): Topology {
  return {
    fabric: {
      name: `star ${hosts}`,
      hosts: Array.from({ length: hosts }, (_, h) => ({ name: `H${h}` })),
      switches: [{ name: "S0", portCount: hosts }],
      cables: Array.from({ length: hosts }, (_, h) => ({
        a: { kind: "host" as const, index: h },
        b: { kind: "switch" as const, index: 0, port: h },
        rateGbps,
        latencyNs,
      })),
    },
    routing: {
      name: "direct",
      tables: [{ candidates: Array.from({ length: hosts }, (_, h) => [h]), selection: "first" }],
    },
  };
}
