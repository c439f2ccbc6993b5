import type { ScenarioIssue } from "./issues.js";

// Device and topology validation errors start with the field they are about
// ("switch.pfc.xonBytes (…) must …"); the network calls the host's thresholds `hostPfc`. The
// CC composition checks give one "cc: …" line per problem.
const LEADING_PATH = /^((?:switch|host|hostPfc|cc|cables\[\d+\])(?:\.[A-Za-z]+|\[\d+\])*)[:\s]/;

/** The scenario issues of an error thrown while building the network (one per "cc:" line). */
export function issuesFromError(error: Error): ScenarioIssue[] {
  const lines = error.message.split("\n");
  if (lines.length > 1 && lines.every((line) => line.startsWith("cc: "))) {
    return lines.map((line) => issueFromMessage(line));
  }
  return [issueFromMessage(error.message)];
}

// A CC part or scheme the network refuses (`switch part "x" supports …`, `cc scheme "y" …`):
// not the `switch` or `cc` field, though its first word is one. The scenario's check reports
// contract versions at the plugin's assignment first; this is what a part can still hit.
const CC_PART = /^(?:(?:switch|queueing|sender|receiver) part|cc scheme) "/;

function issueFromMessage(message: string): ScenarioIssue {
  if (CC_PART.test(message)) return { path: "cc", message };
  const match = LEADING_PATH.exec(message);
  if (match === null) {
    const section = /\bPFC headroom\b/.test(message) ? "switch.buffer" : "topology";
    return { path: section, message };
  }
  const path = match[1]!.replace(/^hostPfc/, "host.pfc").replace(/^cables/, "topology.cables");
  return { path, message: message.slice(match[1]!.length).replace(/^[:\s]+/, "") };
}
