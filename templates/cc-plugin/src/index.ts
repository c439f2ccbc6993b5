import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type Params, params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { SCHEME } from "./scheme.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export { type Params, params } from "./params.js";
export { createReceiverPart, receiverPartFactory } from "./receiver-part.js";
export { ECHO_KIND, MARK_COLUMN, SCHEME } from "./scheme.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/** The whole scheme, from validated parameters. */
export function scheme(p: Params): CcScheme {
  return {
    specVersion: "^3.0.0",
    name: SCHEME,
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactory,
    senderPart: senderPartFactory(p),
  };
}

/** What a scenario names: `cc: { hosts: [{ plugin: echo-cc, params: { ... } }] }`. */
export const plugin = {
  name: SCHEME,
  description:
    "marks data packets at switch inputs over a threshold, echoes marks to the source, which cuts its rate and raises it step by step",
  specVersion: "^3.0.0",
  params,
  create: scheme,
} satisfies CcPlugin<typeof params>;

// A scenario's `plugins:` list imports the package and registers what it exports here.
export const ccPlugins = [plugin];
export default plugin;
