import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rest } from "./rest-helpers.ts";

// csv_import's report in the file author's words: every problem of every bad row, never zod's own text.

const ADMIN = "admin@demo.test";
const tag = `CI${Date.now().toString(36).toUpperCase()}`;
type Report = {
  committed: boolean;
  imported: number;
  skipped: number;
  errors: { row: number; field: string | null; message: string }[];
};

beforeAll(async () => {
  const db = await rest(ADMIN);
  expect((await db.from("category").insert({ name: `${tag} Screws` })).error).toBeNull();
});
afterAll(async () => {
  const db = await rest(ADMIN);
  await db.from("product").delete().like("sku", `${tag}-*`);
  await db.from("category").delete().like("name", `${tag}*`);
});

describe("csv_import's report", () => {
  const rows = [
    { SKU: `${tag}-1`, Name: "One", Category: `${tag} screws`, Price: "1", Active: "maybe" },
    { SKU: `${tag}-2`, Name: "Two", Category: "Xyz", Price: "2" },
    { SKU: `${tag}-3`, Name: "Three", Category: `${tag} Screws`, Price: "-5" },
    { SKU: `${tag}-4`, Name: "Four", Category: "Xyz", Price: "-5" },
    { SKU: `${tag}-5`, Name: "Five", Price: "abc", "Tax code": "XX", Active: "NO" },
    { SKU: `${tag}-6`, Name: "Six", Category: `${tag} Screws`, Active: "Y" },
  ];
  const expected = [
    { row: 1, field: "active", message: "Active must be yes or no" },
    { row: 2, field: "category_id", message: "Category 'Xyz' does not exist" },
    { row: 3, field: "price", message: "Price cannot be less than 0" },
    { row: 4, field: "category_id", message: "Category 'Xyz' does not exist" },
    { row: 4, field: "price", message: "Price cannot be less than 0" },
    { row: 5, field: "price", message: "Price must be a number" },
    { row: 5, field: "tax_code", message: "Tax code must be one of SR, ZR, ES, OS" },
  ];

  it("names every problem of every bad row, a bad reference not hiding the row's other problems", async () => {
    const db = await rest(ADMIN);
    const res = await db.rpc("csv_import", { resource: "product", rows });
    expect(res.error).toBeNull();
    expect(res.data).toMatchObject({ committed: false, imported: 0, skipped: 5, total: 6 });
    expect((res.data as Report).errors).toEqual(expected);
    expect((await db.from("product").select("sku").like("sku", `${tag}-*`)).data).toEqual([]);
  });

  it("imports only the good rows with skip_bad_rows, reading yes/no in any case", async () => {
    const db = await rest(ADMIN);
    const res = await db.rpc("csv_import", { resource: "product", rows, skip_bad_rows: true });
    expect(res.data).toMatchObject({ committed: true, imported: 1, skipped: 5 });
    expect((res.data as Report).errors).toEqual(expected);
    const six = await db.from("product").select("sku, active, category(name)").like("sku", `${tag}-*`);
    expect(six.data).toEqual([{ sku: `${tag}-6`, active: true, category: { name: `${tag} Screws` } }]);
  });

  it("never answers with zod's own words for a value of the wrong type", async () => {
    const db = await rest(ADMIN);
    const res = await db.rpc("csv_import", {
      resource: "product",
      rows: [
        { sku: `${tag}-7`, name: "Seven", active: "t", is_stock_tracked: "on", image_urls: "[not json" },
        { sku: `${tag}-8`, name: "Eight", active: 5, category_id: true },
      ],
    });
    const errors = (res.data as Report).errors;
    expect(errors).toEqual([
      { row: 1, field: "active", message: "Active must be yes or no" },
      { row: 1, field: "is_stock_tracked", message: "Stock tracked must be yes or no" },
      { row: 1, field: "image_urls", message: "Images must be a list separated by ; or a JSON array" },
      { row: 2, field: "category_id", message: "Category must be a whole number" },
      { row: 2, field: "active", message: "Active must be yes or no" },
    ]);
    expect(errors.some((e) => /Invalid input|expected/.test(e.message))).toBe(false);
  });
});
