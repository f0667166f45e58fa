import { describe, expect, it } from "vitest";
import { emptyLine, isBlank, lineFromRow, lineToSave, lineValue, liveTotals, trimZeros } from "./lines.ts";

describe("the lines grid's model", () => {
  it("totals as the server does: GST per document, half-up to cents, document discount", () => {
    const a = { ...emptyLine(), product_id: 1, qty: "3", unit_price: "0.05" };
    const b = { ...emptyLine(), product_id: 2, qty: "2", unit_price: "10", discount_percent: "100" };
    const c = { ...emptyLine(), product_id: 3, qty: "1", unit_price: "20", tax_code: "ZR" as const };
    const { totals, error } = liveTotals([a, b, c, emptyLine()], "");
    expect(error).toBeNull();
    expect(totals?.subtotal).toBe("20.15");
    expect(totals?.tax_total).toBe("0.01");
    expect(totals?.total).toBe("20.16");
    expect(liveTotals([a, c], "10").totals?.net_total).toBe("18.13");
  });

  it("names the line whose value is not a number yet", () => {
    const bad = { ...emptyLine(), product_id: 1, qty: "2x", unit_price: "5" };
    expect(liveTotals([emptyLine(), bad], "").error).toBe('The quantity on line 1 must be a number, not "2x"');
    expect(liveTotals([], "120").error).toMatch(/between 0 and 100/);
  });

  it("sends what the clerk gave; a line with no price takes the product's on the server", () => {
    const l = { ...emptyLine(), product_id: 5, qty: "2", description: "Bolt", source_line_id: 9 };
    expect(lineToSave(l)).toEqual({
      product_id: 5,
      description: "Bolt",
      qty: "2",
      tax_code: "SR",
      source_line_id: 9,
    });
    expect(isBlank(emptyLine())).toBe(true);
    expect(isBlank(l)).toBe(false);
  });

  it("leaves a buying line's picked price to the server until the clerk types over it (issue 21 §1)", () => {
    const picked = { ...emptyLine(), product_id: 5, qty: "3", unit_price: "4.5", auto_price: "4.5" };
    expect(lineToSave({ ...picked, discount_percent: "10", auto_discount: "10" })).toEqual({
      product_id: 5,
      qty: "3",
      tax_code: "SR",
    });
    expect(lineToSave({ ...picked, unit_price: "4" })).toMatchObject({ unit_price: "4" });
    expect(lineToSave({ ...picked, discount_percent: "5", auto_discount: "0" })).toMatchObject({
      discount_percent: "5",
    });
  });

  it("reads a stored line back as typed text", () => {
    const l = lineFromRow(
      { product_id: "4", qty: "2.000", unit_price: "15.5000", discount_percent: "0", tax_code: "ZR", location_id: 3 },
      [{ name: "location_id", label: "Location", kind: "reference" }],
    );
    expect([l.product_id, l.qty, l.unit_price, l.discount_percent, l.tax_code, l.extra]).toEqual([
      4,
      "2",
      "15.5",
      "",
      "ZR",
      { location_id: 3 },
    ]);
    expect(trimZeros("10.000")).toBe("10");
  });
});

describe("a line's field the header also carries", () => {
  it("shows the header's location when the line names none, and the line's own otherwise", () => {
    const none = { ...emptyLine(), extra: { location_id: null } };
    const own = { ...emptyLine(), extra: { location_id: 7 } };
    expect(lineValue(none, "location_id", { location_id: 3 })).toBe(3);
    expect(lineValue(own, "location_id", { location_id: 3 })).toBe(7);
    expect(lineValue(none, "location_id")).toBeNull();
  });
});
