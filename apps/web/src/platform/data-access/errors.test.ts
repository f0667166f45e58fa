import { describe, expect, it } from "vitest";
import { fieldErrors, toDataError } from "./errors.ts";

describe("fieldErrors", () => {
  it("reads a 422's list of field issues", () => {
    expect(
      fieldErrors("validation_failed", "sku: SKU is required", [
        { field: "sku", message: "SKU is required" },
        { field: "price", message: "Price must be a number" },
        { field: "sku", message: "second message is ignored" },
      ]),
    ).toEqual({ sku: "SKU is required", price: "Price must be a number" });
  });

  it("blames the conflicting column of a unique violation, never the workspace", () => {
    expect(
      fieldErrors("23505", "Another record already has this sku", "Key (workspace_id, sku)=(…) already exists."),
    ).toEqual({
      sku: "Another record already has this sku",
    });
  });

  it("names a missing reference and a null column", () => {
    expect(
      fieldErrors("23503", "violates foreign key", "Key (workspace_id, category_id)=(x, 9) is not present"),
    ).toEqual({
      category_id: "Does not exist (or is still in use)",
    });
    expect(fieldErrors("23502", 'null value in column "name" violates not-null constraint', null)).toEqual({
      name: "Required",
    });
  });

  it("finds nothing in an error about no field", () => {
    expect(fieldErrors("42501", "permission denied", null)).toEqual({});
  });
});

describe("toDataError", () => {
  it("keeps the status, code and message, and parses JSON details", () => {
    const e = toDataError({ code: "validation_failed", message: "bad", details: '[{"field":"x","message":"m"}]' }, 422);
    expect([e.status, e.code, e.message, e.fields]).toEqual([422, "validation_failed", "bad", { x: "m" }]);
  });
  it("says the server cannot be reached when the fetch failed", () => {
    expect(toDataError({ message: "TypeError: Failed to fetch" }, 0).message).toMatch(/Cannot reach the server/);
  });
});

describe("a refusal's facts", () => {
  it("are not read as fields: a 409's {reason, source} blames no field, so the form shows the message", () => {
    expect(fieldErrors("P0001", "Only 15 of 25 are left to receive on line 1", { reason: "draw", source: 12 })).toEqual(
      {},
    );
  });
  it("name the field they say is at fault, with the refusal's message", () => {
    const said = "SINV-2026-00003 already has the supplier's number INV-778";
    const details = { reason: "duplicate_supplier_invoice_number", id: 3, field: "supplier_invoice_number" };
    expect(fieldErrors("P0001", said, details)).toEqual({ supplier_invoice_number: said });
  });
});
