import { describe, expect, it } from "vitest";
import { readReport, withPreviewIssues } from "./importApi.ts";

describe("readReport", () => {
  it("maps the server's 1-based rows to the file's lines", () => {
    expect(
      readReport(
        {
          committed: false,
          imported: 0,
          skipped: 1,
          errors: [{ row: 2, field: "price", message: "Price must be a number" }],
        },
        [2, 5, 6],
      ),
    ).toEqual({
      committed: false,
      imported: 0,
      skipped: 1,
      issues: [{ line: 5, field: "price", message: "Price must be a number" }],
    });
  });
  it("reads a clean import", () => {
    expect(readReport({ committed: true, imported: 3, skipped: 0, errors: [] }, [2, 3, 4])).toEqual({
      committed: true,
      imported: 3,
      skipped: 0,
      issues: [],
    });
  });
});

describe("withPreviewIssues", () => {
  it("lists every bad line the preview or the server found, once per cell, by file line", () => {
    const server = readReport(
      {
        committed: false,
        imported: 0,
        skipped: 2,
        errors: [
          { row: 1, field: "category_id", message: "Category 'Xyz' does not exist" },
          { row: 3, field: "sku", message: "sku is already used by another record" },
        ],
      },
      [2, 4, 6],
    );
    const preview: { line: number; errors: Record<string, string> }[] = [
      { line: 2, errors: { category_id: "Category 'Xyz' does not exist" } },
      { line: 4, errors: { price: "Price cannot be less than 0" } },
      { line: 5, errors: { active: "Active must be yes or no", "": "Invalid values" } },
      { line: 6, errors: {} },
    ];
    expect(withPreviewIssues(server, preview)).toEqual({
      committed: false,
      imported: 0,
      skipped: 4,
      issues: [
        { line: 2, field: "category_id", message: "Category 'Xyz' does not exist" },
        { line: 4, field: "price", message: "Price cannot be less than 0" },
        { line: 5, field: "active", message: "Active must be yes or no" },
        { line: 5, field: null, message: "Invalid values" },
        { line: 6, field: "sku", message: "sku is already used by another record" },
      ],
    });
  });
});
