import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { DataProvider, ListParams } from "../data-access/provider.ts";
import {
  autoMap,
  cellToForm,
  checkKeys,
  checkRow,
  existingKeys,
  missingRequired,
  type RowCheck,
  resolveReferences,
  toImportRows,
} from "./csvImport.ts";

const fields: FieldDef[] = [
  { name: "sku", label: "SKU", kind: "text", required: true },
  { name: "name", label: "Name", kind: "text", required: true },
  { name: "category_id", label: "Category", kind: "reference", reference: { resource: "category", display: "name" } },
  { name: "price", label: "Price", kind: "money" },
  { name: "is_stock_tracked", label: "Stock tracked", kind: "boolean" },
  { name: "image_urls", label: "Images", kind: "tags" },
];

const def = {
  name: "product",
  naturalKey: "sku",
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
  it("reads clear yes/no values in any case, leaves a blank to the default and anything else as text", () => {
    const bool = fields[4];
    for (const yes of ["Yes", "y", "TRUE", "1"]) expect(cellToForm(bool, yes)).toBe(true);
    for (const no of ["no", "N", "False", "0"]) expect(cellToForm(bool, no)).toBe(false);
    expect(cellToForm(bool, " ")).toBeUndefined();
    for (const unclear of ["maybe", "on", "x", "t"]) expect(cellToForm(bool, unclear)).toBe(unclear);
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
    ["A-4", "Washer", "fasteners", "-1"],
  ];
  const mapping = autoMap(rows[0], fields);
  const imported = toImportRows(rows, mapping, fields);
  const refs = new Map([
    [
      "category_id",
      new Map([
        ["fasteners", 1001],
        ["1001", 1001],
      ]),
    ],
  ]);

  it("numbers records by their spreadsheet line", () => {
    expect(imported.map((r) => r.line)).toEqual([2, 3, 4, 5]);
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
      category_id: "Category 'Nope' does not exist",
      name: "Required",
      price: "Price must be a number",
    });
  });

  it("reports an id no record has, and a yes/no nobody can read", () => {
    const [row] = toImportRows(
      [
        ["SKU", "Name", "Category", "Stock tracked"],
        ["A-5", "Pin", "1002", "maybe"],
      ],
      ["sku", "name", "category_id", "is_stock_tracked"],
      fields,
    );
    expect(checkRow(def, fields, row, refs).errors).toEqual({
      category_id: "Category #1002 does not exist",
      is_stock_tracked: "Stock tracked must be yes or no",
    });
  });

  it("leaves a blank yes/no out, so the column's default applies", () => {
    const [row] = toImportRows(
      [
        ["SKU", "Name", "Stock tracked"],
        ["A-6", "Pin", ""],
      ],
      autoMap(["SKU", "Name", "Stock tracked"], fields),
      fields,
    );
    expect(checkRow(def, fields, row, refs)).toMatchObject({ values: { sku: "A-6", name: "Pin" }, errors: {} });
  });
});

describe("natural keys", () => {
  const check = (line: number, sku: string, errors: Record<string, string> = {}): RowCheck => ({
    line,
    values: { sku },
    cells: { sku },
    errors,
  });
  const checks = [check(2, "BN-1"), check(3, "BN-2"), check(4, "BN-2"), check(5, "BN-3", { sku: "SKU is required" })];
  const existing = new Set(["BN-1", "BN-3"]);

  it("flags a key another record has and a key an earlier line has", () => {
    const out = checkKeys(checks, def, fields, existing, { offered: true, ticked: false });
    expect(out.map((c) => c.errors)).toEqual([
      { sku: 'SKU BN-1 already exists — tick "Update existing" to update it' },
      {},
      { sku: "SKU BN-2 is also on line 3" },
      { sku: "SKU is required" },
    ]);
    expect(checkKeys(checks, def, fields, existing, { offered: false, ticked: false })[0].errors).toEqual({
      sku: "SKU BN-1 already exists",
    });
  });

  it("lets updates through when Update existing is ticked", () => {
    const out = checkKeys(checks, def, fields, existing, { offered: true, ticked: true });
    expect(out.map((c) => c.errors)).toEqual([{}, {}, {}, { sku: "SKU is required" }]);
  });
});

describe("lookups", () => {
  // A provider that records each request and answers from `rows`.
  function fake(rows: Record<string, Record<string, unknown>[]>) {
    const calls: { resource: string; params: ListParams }[] = [];
    const data = {
      async getList(resource: string, params: ListParams) {
        calls.push({ resource, params });
        return { data: rows[resource] ?? [], total: null };
      },
    } as unknown as DataProvider;
    return { data, calls };
  }

  it("finds labels case-insensitively and ids exactly, a hundred at a time", async () => {
    const { data, calls } = fake({ category: [{ id: 7, name: "Screws" }] });
    const labels = Array.from({ length: 150 }, (_, i) => `Label ${i}`);
    const rows = toImportRows(
      [["Category"], ["screws"], ["100%_off"], ["7"], ...labels.map((l) => [l])],
      ["category_id"],
      fields,
    );
    const refs = await resolveReferences(data, rows, fields);
    expect(refs.get("category_id")?.get("screws")).toBe(7);
    expect(calls.map((c) => c.params.filters?.[0] && "op" in c.params.filters[0] && c.params.filters[0].op)).toEqual([
      "ilike(any)",
      "ilike(any)",
      "in",
    ]);
    const first = calls[0].params.filters?.[0];
    expect(first && "value" in first && first.value.startsWith('{screws,"100\\\\%\\\\_off",')).toBe(true);
    expect(calls[2].params.filters?.[0]).toEqual({ column: "id", op: "in", value: "(7)" });
  });

  it("asks which of the file's keys exist", async () => {
    const { data, calls } = fake({ product: [{ id: 1, sku: "BN-1" }] });
    const rows = toImportRows([["SKU"], ["BN-1"], ["BN-2"], ["BN-1"], [""]], ["sku"], fields);
    expect(await existingKeys(data, def, rows)).toEqual(new Set(["BN-1"]));
    expect(calls).toEqual([
      { resource: "product", params: { select: "sku", filters: [{ column: "sku", op: "in", value: "(BN-1,BN-2)" }] } },
    ]);
  });
});
