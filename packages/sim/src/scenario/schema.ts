import { z } from "zod";
import { count, oneOf, strictObject } from "./fields.js";
import { hostSchema } from "./host.js";
import { metricsSchema, runSchema } from "./run.js";
import { switchSchema } from "./switch.js";

/** A part whose parameters are validated in a second step, once its kind is known. */
const namedPart = (key: string, meaning: string) =>
  z
    .looseObject({
      [key]: z.string({ error: `must name a ${meaning}` }).describe(`which ${meaning}`),
    })
    .describe(`a ${meaning}: \`${key}\` plus its parameters`);

const ccPart = strictObject({
  plugin: z
    .string({ error: "must name a registered CC plugin" })
    .describe("the CC plugin, by name: a built-in one or one from a module in `plugins`"),
  params: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("the plugin's parameters (each plugin's own keys); left out: its defaults"),
});

const hostSet = z
  .union([z.literal("all"), z.array(count("a host index", 0))], {
    error: 'must be "all" or a list of host indices',
  })
  .describe('"all" or a list of host indices');

const switchSet = z
  .union([z.literal("all"), z.array(count("a switch index", 0))], {
    error: 'must be "all" or a list of switch indices',
  })
  .describe('"all" or a list of switch indices');

/** One of several switch parts: where it runs and the data VLs whose packets it sees. */
const switchCcPart = ccPart
  .extend({
    switches: switchSet.default("all"),
    vls: z
      .array(count("a VL", 0))
      .optional()
      .describe("the data VLs whose packets the part sees besides its own lanes (default: all)"),
  })
  .strict();

/** The `cc` section: which plugin runs where. */
export const ccSchema = strictObject({
  switch: z
    .union([z.null(), ccPart, z.array(switchCcPart).min(1, "must list at least one plugin")], {
      error:
        "must be a plugin ({ plugin, params }), a list of them each with optional switches and vls, or null (none)",
    })
    .optional()
    .describe(
      "the plugin whose switch part (congestion point, queueing) every switch runs, or a list of plugins run in that order, each on its `switches` and seeing its `vls`",
    ),
  hosts: z
    .array(ccPart.extend({ hosts: hostSet.default("all") }).strict())
    .default([])
    .describe("host groups and the plugin whose sender and receiver parts they run"),
});

/**
 * The scenario file's top level (step one of validation). `topology`, each `traffic` entry and
 * the plugins' `params` are checked against their own schemas in step two, once their kind is
 * known, so errors can list what that kind allows.
 */
export const scenarioSchema = strictObject({
  name: z
    .string({ error: "must be a non-empty string" })
    .min(1, "must be a non-empty string")
    .regex(
      /^[\w.-]+$/,
      "may hold letters, digits, '.', '_' and '-' only (it names the result directory)",
    )
    .describe("names the result directory"),
  description: z.string().default("").describe("free text saying what the scenario is for"),
  seed: count("seed of every random stream", 0, 2 ** 32 - 1).default(1),
  plugins: z
    .array(z.string())
    .default([])
    .describe("modules to import for CC plugins (npm package names or paths)"),
  topology: namedPart("kind", "topology"),
  flowControl: oneOf(["credit", "pfc"], "link-level flow control").default("credit"),
  switch: switchSchema
    .prefault({})
    .describe('settings every switch of the fabric uses (docs/model.md, "Through a switch")'),
  host: hostSchema
    .prefault({})
    .describe('settings every host adapter uses (docs/model.md, "Hosts")'),
  cc: ccSchema
    .optional()
    .describe(
      "congestion control: the plugins the switches and each group of hosts run; none if left out",
    ),
  traffic: z
    .array(namedPart("pattern", "traffic pattern"), { error: "must be a list of traffic entries" })
    .min(1, "must list at least one traffic entry")
    .describe("the traffic: one entry per pattern, all running at once"),
  run: runSchema.describe("how long to simulate: durationUs, or until every message is delivered"),
  metrics: metricsSchema
    .prefault({})
    .describe("what is recorded besides the summary: time series, flow and message tables"),
});

export type ScenarioTop = z.output<typeof scenarioSchema>;
