/** `rateGbps` → `rate (Gb/s)`: CC variables carry their unit in their name. */
export function variableTitle(variable: string): string {
  const units: [string, string][] = [
    ["Gbps", "Gb/s"],
    ["Mbps", "Mb/s"],
    ["Us", "µs"],
    ["Ns", "ns"],
    ["Ps", "ps"],
    ["Bytes", "B"],
  ];
  for (const [suffix, unit] of units) {
    if (variable.endsWith(suffix) && variable.length > suffix.length) {
      return `${variable.slice(0, -suffix.length)} (${unit})`;
    }
  }
  return variable === "ccti" ? "CCTI (index into the CCT)" : variable;
}
