import type { FieldDef } from "@workmetrics/domain/resources/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normaliseNumber, ruleErrors, toFormValues, toLocalInput, toWire, toWireValue, validate } from "./convert.ts";

const f = (name: string, kind: FieldDef["kind"], extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label: name,
  kind,
  ...extra,
});

const fields = [
  f("name", "text", { required: true }),
  f("price", "money"),
  f("stock", "integer"),
  f("active", "boolean"),
  f("category_id", "reference", { reference: { resource: "category", display: "name" } }),
  f("released_on", "date"),
  f("tags", "tags"),
];

describe("toWireValue", () => {
  it("leaves blanks out on create and clears them on edit", () => {
    expect(toWireValue(f("x", "text"), "  ", "create")).toBeUndefined();
    expect(toWireValue(f("x", "text"), "", "edit")).toBeNull();
    expect(toWireValue(f("x", "reference"), null, "edit")).toBeNull();
  });
  it("converts by kind", () => {
    expect(toWireValue(f("x", "money"), " 1,234.50 ", "create")).toBe("1234.50");
    expect(toWireValue(f("x", "integer"), "42", "create")).toBe(42);
    expect(toWireValue(f("x", "integer"), "4x", "create")).toBe("4x");
    expect(toWireValue(f("x", "reference"), "1001", "create")).toBe(1001);
    expect(toWireValue(f("x", "boolean"), "", "create")).toBe(false);
    expect(toWireValue(f("x", "textarea"), " keep \n", "create")).toBe(" keep \n");
    expect(toWireValue(f("x", "datetime"), "2026-03-05T10:30", "create")).toBe(
      new Date(2026, 2, 5, 10, 30).toISOString(),
    );
  });
});

describe("toFormValues / toWire", () => {
  it("round-trips a row", () => {
    const row = {
      name: "Bolt",
      price: "1.50",
      stock: 3,
      active: true,
      category_id: 1001,
      released_on: "2026-01-02",
      tags: ["a"],
    };
    const form = toFormValues(fields, row);
    expect(form).toEqual({ ...row, stock: "3" });
    expect(toWire(fields, form, "edit")).toEqual(row);
    expect(toWire(fields, form, "edit", new Set(["price"]))).toEqual({ price: "1.50" });
  });
  it("shows a timestamp in local time", () => {
    expect(toLocalInput(new Date(2026, 0, 2, 3, 4).toISOString())).toBe("2026-01-02T03:04");
    // A year typed so far (18 on the way to 1899) keeps four digits, as the date-time picker reads it.
    const early = new Date(2000, 0, 2, 3, 4);
    early.setFullYear(18);
    expect(toLocalInput(early.toISOString())).toBe("0018-01-02T03:04");
  });
  it("drops grouping from numbers", () => {
    expect(normaliseNumber("1 234,5")).toBe("12345");
  });
});

describe("validate", () => {
  const schema = z.object({
    name: z.string().min(1, "Name is required"),
    price: z.string().regex(/^\d+(\.\d{1,2})?$/, "A price like 12.50"),
    stock: z.number().int().optional(),
    weight: z.number().optional(),
    released_at: z.date().optional(),
  });

  it("passes valid values and reports each field's first message", () => {
    expect(validate(schema, { name: "Bolt", price: "1.50" })).toEqual({
      ok: true,
      data: { name: "Bolt", price: "1.50" },
    });
    expect(validate(schema, { name: "", price: "abc" })).toEqual({
      ok: false,
      errors: { name: "Name is required", price: "A price like 12.50" },
    });
  });

  it("says Required for a missing value", () => {
    const r = validate(schema, { price: "1" });
    expect(r.ok ? null : r.errors.name).toBe("Required");
  });

  it("converts a number or a date the schema spells differently", () => {
    const r = validate(schema, { name: "Bolt", price: 2, weight: "0.5", released_at: "2026-01-02T00:00:00Z" });
    expect(r).toEqual({
      ok: true,
      data: { name: "Bolt", price: "2", weight: 0.5, released_at: new Date("2026-01-02T00:00:00Z") },
    });
    const bad = validate(schema, { name: "Bolt", price: "1", weight: "heavy" });
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual(["weight"]);
  });
});

describe("ruleErrors", () => {
  const rules = [
    {
      fields: ["start_date", "end_date"],
      check: (v: Readonly<Record<string, unknown>>) => String(v.end_date) >= String(v.start_date),
      field: "end_date",
      message: "End must be on or after Start",
    },
  ];
  it("judges the whole record, so an edit of End alone is compared with the unchanged Start", () => {
    const record = { start_date: "2026-05-01", end_date: "2026-04-30" };
    expect(ruleErrors(rules, record, {})).toEqual({ end_date: "End must be on or after Start" });
    expect(ruleErrors(rules, { ...record, end_date: "2026-05-01" }, {})).toEqual({});
    expect(ruleErrors(rules, { ...record, start_date: null }, {})).toEqual({});
  });
  it("leaves a rule alone when one of its fields already has a message, and keeps the others", () => {
    const record = { start_date: "2026-05-01", end_date: "2026-04-30" };
    expect(ruleErrors(rules, record, { start_date: "Start must be a valid date" })).toEqual({
      start_date: "Start must be a valid date",
    });
    expect(ruleErrors(rules, record, { name: "Required" })).toEqual({
      name: "Required",
      end_date: "End must be on or after Start",
    });
  });
});
