import { describe, expect, it } from "vitest";
import { DocumentError, dec, money, plain, sum } from "./decimal.ts";

describe("document decimals", () => {
  it("reads plain decimal strings only", () => {
    expect(dec(" 12.50 ").toFixed()).toBe("12.5");
    expect(dec(".5").toFixed()).toBe("0.5");
    expect(dec("-3.").toFixed()).toBe("-3");
    for (const bad of ["", "1e3", "0x10", "Infinity", "NaN", "1,000", "abc"]) {
      expect(() => dec(bad, "The quantity")).toThrow(DocumentError);
    }
    expect(() => dec("1e3", "The quantity")).toThrow('The quantity must be a number, not "1e3"');
  });

  it("keeps 40 significant digits", () => {
    expect(dec("123456789012345678.123").times("98765.4321").toFixed()).toBe("12193263112482853134385.6119483");
  });

  it("writes money with two decimals and quantities without trailing zeros", () => {
    expect(money("0.005")).toBe("0.01");
    expect(money("-0.005")).toBe("-0.01");
    expect(plain("4.000")).toBe("4");
    expect(plain("-0.000")).toBe("0");
    expect(plain("0.0000001")).toBe("0.0000001");
    expect(sum(["0.1", "0.2", "-0.3"]).isZero()).toBe(true);
  });
});
