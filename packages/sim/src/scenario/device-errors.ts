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

function issueFromMessage(message: string): ScenarioIssue {
  const match = LEADING_PATH.exec(message);
  if (match === null) {
    const section = /\bPFC headroom\b/.test(message) ? "switch.buffer" : "topology";
    return { path: section, message };
  }
  const path = match[1]!.replace(/^hostPfc/, "host.pfc").replace(/^cables/, "topology.cables");
  return { path, message: message.slice(match[1]!.length).replace(/^[:\s]+/, "") };
}
