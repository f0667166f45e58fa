import { describe, expect, it } from "vitest";
import { readReport } from "./importApi.ts";

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
