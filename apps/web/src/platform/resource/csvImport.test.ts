import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { autoMap, cellToForm, checkRow, missingRequired, toImportRows } from "./csvImport.ts";

const fields: FieldDef[] = [
  { name: "sku", label: "SKU", kind: "text", required: true },
  { name: "name", label: "Name", kind: "text", required: true },
  { name: "category_id", label: "Category", kind: "reference", reference: { resource: "category", display: "name" } },
  { name: "price", label: "Price", kind: "money" },
  { name: "is_stock_tracked", label: "Stock tracked", kind: "boolean" },
  { name: "image_urls", label: "Images", kind: "tags" },
];

const def = {
  insert: z.object({
    sku: z.string().trim().min(1, "SKU is required"),
    name: z.string().trim().min(1, "Name is required"),
    category_id: z.number().nullable().optional(),
    price: z
      .string()
      .regex(/^\d+(\.\d+)?$/, "Price must be a number")
      .optional(),
    is_stock_tracked: z.boolean().optional(),
    image_urls: z.array(z.string()).optional(),
  }),
} as unknown as ResourceDef;

describe("autoMap", () => {
  it("matches headers to column names or labels, once each, ignoring case and punctuation", () => {
    expect(autoMap(["sku", "Name", "CATEGORY", "stock_tracked", "price", "Price", "notes"], fields)).toEqual([
      "sku",
      "name",
      "category_id",
      "is_stock_tracked",
      "price",
      null,
      null,
    ]);
  });
  it("names required fields no column fills", () => {
    expect(missingRequired(fields, ["sku", null]).map((f) => f.name)).toEqual(["name"]);
  });
});

describe("cellToForm", () => {
  it("reads booleans and lists the way people type them", () => {
    const bool = fields[4];
    expect(cellToForm(bool, "Yes")).toBe(true);
    expect(cellToForm(bool, "0")).toBe(false);
    expect(cellToForm(bool, "")).toBe(false);
    expect(cellToForm(bool, "maybe")).toBe("maybe");
    expect(cellToForm(fields[5], "a.png; b.png,")).toEqual(["a.png", "b.png"]);
    expect(cellToForm(fields[2], " ")).toBeNull();
  });
});

describe("rows and checks", () => {
  const rows = [
    ["SKU", "Name", "Category", "Price"],
    ["A-1", "Bolt", "Fasteners", "1.50"],
    ["A-2", "", "Nope", "cheap"],
    ["A-3", "Nut", "1001", ""],
  ];
  const mapping = autoMap(rows[0], fields);
  const imported = toImportRows(rows, mapping, fields);
  const refs = new Map([["category_id", new Map([["fasteners", 1001]])]]);

  it("numbers records by their spreadsheet line", () => {
    expect(imported.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(imported[0].values).toEqual({ sku: "A-1", name: "Bolt", category_id: "Fasteners", price: "1.50" });
  });

  it("swaps labels for ids and passes a good row", () => {
    expect(checkRow(def, fields, imported[0], refs)).toEqual({
      line: 2,
      values: { sku: "A-1", name: "Bolt", category_id: 1001, price: "1.50" },
      cells: { sku: "A-1", name: "Bolt", category_id: "Fasteners", price: "1.50" },
      errors: {},
    });
    expect(checkRow(def, fields, imported[2], refs).errors).toEqual({});
  });

  it("reports every bad cell of a bad row", () => {
    expect(checkRow(def, fields, imported[1], refs).errors).toEqual({
      category_id: 'No category named "Nope"',
      name: "Required",
      price: "Price must be a number",
    });
  });
});
