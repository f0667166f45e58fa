import { describe, expect, it } from "vitest";
import { asTyped, measureOf, percentOfQty, qtyOfPercent, switchMeasure, withUnit } from "./measure.ts";

describe("a claim line's measure", () => {
  it("is a quantity when one is given, else a percentage", () => {
    expect(measureOf("340.000")).toBe("qty");
    expect(measureOf(null)).toBe("percent");
    expect(measureOf("")).toBe("percent");
  });
  it("derives one from the other against the contract quantity", () => {
    expect(qtyOfPercent("500.000", "68")).toBe("340");
    expect(percentOfQty("500", "400.5")).toBe("80.1");
    expect(percentOfQty("3", "1")).toBe("33.3333");
    expect(percentOfQty(null, "1")).toBe("");
    expect(qtyOfPercent("500", "abc")).toBe("");
    expect(withUnit("340.000", "m²")).toBe("340 m²");
    expect(withUnit("2.5", null)).toBe("2.5");
  });
  it("shows a stored figure without its stored places, a typed one as typed", () => {
    expect(asTyped("90.0000", "90.0000")).toBe("90");
    expect(asTyped("0.0000", "0.0000")).toBe("0");
    expect(asTyped("12.5000", "12.5000")).toBe("12.5");
    expect(asTyped("340.000", "340.000")).toBe("340");
    expect(asTyped("90.0", "90.0000")).toBe("90.0");
    expect(asTyped("90.", "90.0000")).toBe("90.");
    expect(asTyped("", null)).toBe("");
    expect(asTyped(null, null)).toBe("");
  });
  it("switches keeping the work done", () => {
    expect(switchMeasure("qty", { contractQty: "500", percent: "68", qty: null })).toEqual({ cumulative_qty: "340" });
    expect(switchMeasure("percent", { contractQty: "500", percent: "0", qty: "340" })).toEqual({
      cumulative_qty: null,
      cumulative_percent: "68",
    });
    expect(switchMeasure("qty", { contractQty: "500", percent: "", qty: null })).toEqual({ cumulative_qty: "0" });
  });
});
