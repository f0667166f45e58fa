import { describe, expect, it } from "vitest";
import { quickTenders, settle } from "./pay.ts";

describe("POS payments", () => {
  it("leaves the rest due until the payments cover the total", () => {
    expect(settle("53.81", [{ method: "card", amount: "5" }])).toMatchObject({
      remaining: "48.81",
      covered: false,
      change: "0.00",
    });
  });

  it("gives change only out of the cash", () => {
    const split = settle("53.81", [
      { method: "card", amount: "5.00" },
      { method: "cash", amount: "100" },
    ]);
    expect(split).toMatchObject({ covered: true, change: "51.19", changeOk: true });
    expect(settle("20", [{ method: "card", amount: "25" }])).toMatchObject({ change: "5.00", changeOk: false });
    expect(settle("20", [{ method: "paynow", amount: "20" }])).toMatchObject({ change: "0.00", changeOk: true });
  });

  it("counts no malformed amount", () => {
    const s = settle("10", [{ method: "cash", amount: "1e3" }]);
    expect(s).toMatchObject({ covered: false, allValid: false, remaining: "10.00" });
  });

  it("offers the exact amount and the next notes up", () => {
    expect(quickTenders("48.81")).toEqual(["48.81", "50.00", "100.00"]);
    expect(quickTenders("12.30")).toEqual(["12.30", "15.00", "20.00", "50.00"]);
    expect(quickTenders("0")).toEqual([]);
  });
});
