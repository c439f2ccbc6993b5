import { describe, expect, it } from "vitest";
import { drain, testContext } from "../test/context.js";
import { parseFlowTrace, trace } from "./trace.js";

const replay = (text: string, raw: object = {}, endPs?: number) =>
  drain(
    trace.create(
      trace.params.parse({ path: "flows.csv", ...raw }),
      testContext({
        hostCount: 8,
        files: { "flows.csv": text },
        ...(endPs === undefined ? {} : { endPs }),
      }),
    ),
  );

describe("trace", () => {
  it("replays one message per row", () => {
    const messages = replay("src,dst,bytes,startNs\n0,1,100,0\n2,3,200,1.5\n\n# note\n3,2,300,7\n");
    expect(messages).toEqual([
      { srcHost: 0, dstHost: 1, bytes: 100, startPs: 0 },
      { srcHost: 2, dstHost: 3, bytes: 200, startPs: 1500 },
      { srcHost: 3, dstHost: 2, bytes: 300, startPs: 7000 },
    ]);
    expect(trace.finite).toBe(true);
  });

  it("reads columns in any order, with optional sl and group, and shifts by shiftNs", () => {
    const messages = replay("startNs,bytes,dst,src,group,sl\r\n5,10,1,0,hot,1\r\n6,10,0,1,,0\r\n", {
      shiftNs: 1000,
    });
    expect(messages).toEqual([
      { srcHost: 0, dstHost: 1, bytes: 10, startPs: 1_005_000, sl: 1, group: "hot" },
      { srcHost: 1, dstHost: 0, bytes: 10, startPs: 1_006_000, sl: 0 },
    ]);
  });

  it("sorts rows out of time order, keeping file order for equal times", () => {
    const messages = replay("src,dst,bytes,startNs\n0,1,1,5\n1,2,2,3\n2,3,3,5\n3,4,4,3\n");
    expect(messages.map((m) => m.bytes)).toEqual([2, 4, 1, 3]);
  });

  it("stops at the run's end", () => {
    expect(replay("src,dst,bytes,startNs\n0,1,1,1\n0,1,1,2\n", {}, 2000)).toHaveLength(1);
  });

  it("reports bad rows with their line numbers", () => {
    const text = [
      "src,dst,bytes,startNs",
      "0,1,100,0",
      "0,8,100,0",
      "1,1,100,0",
      "2,3,0,0",
      "2,3,1.5,-1",
      "2,3,100",
      "2,3,100,1e16",
    ].join("\n");
    expect(() => parseFlowTrace(text, 8, "flows.csv")).toThrow(
      new RangeError(
        [
          "flows.csv:3: dst = 8 is not a host (0..7)",
          "flows.csv:4: src and dst are both host 1",
          "flows.csv:5: bytes = 0 is not a whole number ≥ 1",
          "flows.csv:6: bytes = 1.5 is not a whole number ≥ 1",
          "flows.csv:6: startNs = -1 is not a time ≥ 0 in ns",
          "flows.csv:7: 3 fields, the header has 4",
          "flows.csv:8: startNs = 1e16 is past the largest time (2^53 − 1 ps)",
        ].join("\n"),
      ),
    );
  });

  it("checks the rows before the run where it can read the file, service levels included", () => {
    const params = trace.params.parse({ path: "flows.csv" });
    const text = "src,dst,bytes,startNs,sl\n0,1,100,0,1\n0,9,100,0,0\n1,2,100,0,2\n";
    const readFile = (path: string) => {
      if (path !== "flows.csv") throw new Error(`ENOENT: ${path}`);
      return text;
    };
    expect(trace.check(params, { hostCount: 8, slCount: 2, readFile })).toEqual([
      [
        "flows.csv:3: dst = 9 is not a host (0..7)",
        "flows.csv:4: sl = 2 is not a service level of this fabric (0..1; switch.vlCount sets how many)",
      ].join("\n"),
    ]);
    expect(
      trace.check(trace.params.parse({ path: "gone.csv" }), { hostCount: 8, readFile }),
    ).toEqual(["path: cannot read gone.csv (ENOENT: gone.csv)"]);
    // Without a way to read the file, the rows are checked when the source is built.
    expect(trace.check(params, { hostCount: 8, slCount: 2 })).toEqual([]);
    expect(() => replay(text)).toThrow("flows.csv:3: dst = 9 is not a host");
  });

  it("reports a bad header, and stops listing after ten problems", () => {
    expect(() => parseFlowTrace("src,dst,size,startNs\n0,1,1,0\n", 8, "t")).toThrow(
      "t:1: unknown column size (known: src, dst, bytes, startNs, sl, group)\nt:1: header lacks column bytes (want src,dst,bytes,startNs)",
    );
    expect(() => parseFlowTrace("", 8, "t")).toThrow("t:1: empty trace");
    const many = `src,dst,bytes,startNs\n${"0,0,1,0\n".repeat(50)}`;
    expect(() => parseFlowTrace(many, 8)).toThrow(
      /trace:11: src and dst are both host 0\n… and more$/,
    );
  });
});
