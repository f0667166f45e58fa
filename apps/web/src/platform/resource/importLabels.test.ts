import { describe, expect, it } from "vitest";
import { countLabel, plural } from "./counts.ts";
import { blockedHint, importButtonLabel, importedToast, previewSummary, reportSummary } from "./importLabels.ts";

const product = { title: "Product", plural: "Products" };
const category = { title: "Category", plural: "Categories" };

describe("counted words agree in number (issue 9 §2)", () => {
  it("counts with the resource's own nouns", () => {
    expect(countLabel(product, 1)).toBe("1 product");
    expect(countLabel(product, 0)).toBe("0 products");
    expect(countLabel(category, 2)).toBe("2 categories");
    expect(plural(1_000, "row")).toBe("1,000 rows");
  });

  it("labels the import button by what it will send", () => {
    expect(importButtonLabel(2, 1, true)).toBe("Import 1 good row");
    expect(importButtonLabel(4, 2, true)).toBe("Import 2 good rows");
    expect(importButtonLabel(1, 0, false)).toBe("Import 1 row");
    expect(importButtonLabel(4, 2, false)).toBe("Import 4 rows");
    expect(importButtonLabel(3, 0, true)).toBe("Import 3 rows");
  });

  it("sums up the preview and what holds the import back", () => {
    expect(previewSummary(1, 0)).toBe("1 row: 1 ready.");
    expect(previewSummary(4, 2)).toBe("4 rows: 2 ready, 2 with problems.");
    expect(blockedHint(1)).toBe("Fix the 1 row with problems or tick Skip bad rows");
    expect(blockedHint(3)).toBe("Fix the 3 rows with problems or tick Skip bad rows");
  });

  it("reports what was imported and skipped", () => {
    expect(reportSummary(product, { imported: 1, skipped: 0 }, false)).toBe("Imported 1 product.");
    expect(reportSummary(product, { imported: 1, skipped: 1 }, false)).toBe("Imported 1 product; skipped 1 bad row.");
    expect(reportSummary(category, { imported: 2, skipped: 2 }, false)).toBe(
      "Imported 2 categories; skipped 2 bad rows.",
    );
    expect(reportSummary(product, { imported: 0, skipped: 1 }, true)).toMatch(
      /^Nothing was imported: 1 row has problems/,
    );
    expect(reportSummary(product, { imported: 0, skipped: 3 }, true)).toMatch(/^Nothing was imported: 3 rows have/);
    expect(importedToast(product, 1)).toBe("Imported 1 product");
  });
});
