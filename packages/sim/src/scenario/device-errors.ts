import type { ScenarioIssue } from "./issues.js";

// Device and topology validation errors start with the field they are about
// ("switch.pfc.xonBytes (…) must …"); the network calls the host's thresholds `hostPfc`.
const LEADING_PATH = /^((?:switch|host|hostPfc|cables\[\d+\])(?:\.[A-Za-z]+|\[\d+\])*)[:\s]/;

/** A scenario issue from an error thrown while building the network. */
export function issueFromError(error: Error): ScenarioIssue {
  const match = LEADING_PATH.exec(error.message);
  if (match === null) {
    const section = /\bPFC headroom\b/.test(error.message) ? "switch.buffer" : "topology";
    return { path: section, message: error.message };
  }
  const path = match[1]!.replace(/^hostPfc/, "host.pfc").replace(/^cables/, "topology.cables");
  return { path, message: error.message.slice(match[1]!.length).replace(/^[:\s]+/, "") };
}
