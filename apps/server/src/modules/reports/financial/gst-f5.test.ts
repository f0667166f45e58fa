import { describe, expect, it } from "vitest";
import { day as dayText } from "../../documents/pdf/format.ts";
import { asFiled } from "./gst-f5.report.ts";
import { shiftDay } from "./ledger-sql.ts";

describe("the GST F5 as filed", () => {
  it("drops the cents of the value boxes (not rounding them), box 4 being the sum of what 1–3 say; tax keeps cents", () => {
    const boxes = {
      box1: "950.99",
      box2: "500.50",
      box3: "200.01",
      box4: "1651.50",
      box5: "-12.75",
      box6: "85.59",
      box7: "36.01",
      box8: "49.58",
    };
    expect(asFiled(boxes)).toEqual({
      box1: "950.00",
      box2: "500.00",
      box3: "200.00",
      box4: "1650.00",
      box5: "-12.00",
      box6: "85.59",
      box7: "36.01",
      box8: "49.58",
    });
  });
});

describe("dates", () => {
  it("names a day as a clerk reads it and steps across month and year ends", () => {
    expect(dayText("2031-03-31")).toBe("31 Mar 2031");
    expect(dayText("2025-07-01")).toBe("1 Jul 2025");
    expect(shiftDay("2030-12-31", 1)).toBe("2031-01-01");
    expect(shiftDay("2032-03-01", -1)).toBe("2032-02-29");
  });
});
