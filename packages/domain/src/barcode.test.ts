import { describe, expect, it } from "vitest";
import { ean13, gtinCheckDigit, validGtin } from "./barcode.ts";

describe("GS1 check digits", () => {
  it("matches published codes", () => {
    expect(validGtin("4006381333931")).toBe(true); // EAN-13 from GS1's own example
    expect(validGtin("036000291452")).toBe(true); // UPC-A
    expect(validGtin("96385074")).toBe(true); // EAN-8
    expect(gtinCheckDigit("400638133393")).toBe(1);
  });
  it("refuses a wrong digit, letters and odd lengths", () => {
    expect(validGtin("4006381333932")).toBe(false);
    expect(validGtin("40063813339A1")).toBe(false);
    expect(validGtin("12345")).toBe(false);
  });
  it("makes EAN-13s that check", () => {
    for (const base of ["888123400001", "888000000000", "999999999999"]) expect(validGtin(ean13(base))).toBe(true);
    expect(() => ean13("12")).toThrow(/12 digits/);
  });
});
