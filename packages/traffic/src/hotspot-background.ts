import { z } from "zod";
import { allHosts } from "./hosts.js";
import { hotspotErrors, hotspotShape, hotspotSources, resolveHotspot } from "./hotspot.js";
import { mergeSources } from "./merge.js";
import { definePattern } from "./pattern.js";
import { DEFAULT_SIZE, sizeSchema } from "./size.js";
import { loadFractionSchema, uniformSources } from "./uniform.js";
import { windowPs } from "./window.js";

/**
 * SRP's combined pattern (seed 000 L100, L142): hot-spot senders send only to the hot-spot,
 * every other host (the hot-spot included) runs uniform random background traffic at a load.
 * Messages are tagged `hot` and `background`.
 */
const params = z.strictObject({
  ...hotspotShape,
  loadFraction: loadFractionSchema.describe(
    "offered load of each background host, fraction of its host link rate (Poisson arrivals)",
  ),
  size: sizeSchema
    .default(DEFAULT_SIZE)
    .describe("background message-size distribution; default fixed 4096 bytes"),
});

export const hotspotBackground = definePattern({
  name: "hotspot-background",
  description: "N:1 hot-spot plus uniform random background traffic from every other host",
  params,
  finite: (p) => p.stopNs !== undefined,
  check: hotspotErrors,
  create: (p, ctx) => {
    const { hotspot, senders } = resolveHotspot(p, ctx);
    const window = windowPs(p, ctx.endPs);
    const hot = new Set(senders);
    const background = allHosts(ctx.hostCount).filter((h) => !hot.has(h));
    return mergeSources([
      hotspotSources(p, hotspot, senders, window, ctx),
      uniformSources(
        background,
        p.loadFraction,
        p.size,
        window,
        ctx,
        ctx.rng.split("background"),
        "background",
      ),
    ]);
  },
});
