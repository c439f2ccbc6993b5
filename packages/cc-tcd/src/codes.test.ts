import { expect, it } from "vitest";
import { TcdCode, withMark } from "./codes.js";

it("CE overwrites anything; UE overwrites anything but CE; no mark keeps the code", () => {
  for (const code of [TcdCode.None, TcdCode.Capable, TcdCode.Undetermined, TcdCode.Congestion]) {
    expect(withMark(code, TcdCode.Congestion)).toBe(TcdCode.Congestion);
    expect(withMark(code, TcdCode.Undetermined)).toBe(
      code === TcdCode.Congestion ? TcdCode.Congestion : TcdCode.Undetermined,
    );
    expect(withMark(code, TcdCode.None)).toBe(code);
  }
});
