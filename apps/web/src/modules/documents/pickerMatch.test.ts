import { describe, expect, it } from "vitest";
import { matchingOptions } from "./pickerMatch.ts";

const rows = [
  { id: 1, name: "Acme Pte Ltd" },
  { id: 2, name: "Marina Bay Sands", sku: "MB-1" },
  { id: 3, name: "Bolt", sku: "marina-9" },
];
const label = (r: Record<string, unknown>) => String(r.name);

describe("the picker's options for the typed text", () => {
  it("keeps only rows matching the text while the answer is an older search's (stale list, Enter at once)", () => {
    expect(matchingOptions(rows, "Marina", false, ["name"], label).map((r) => r.id)).toEqual([2]);
    expect(matchingOptions(rows, " marina ", false, ["name", "sku"], label).map((r) => r.id)).toEqual([2, 3]);
    expect(matchingOptions(rows, "zzz", false, ["name"], label)).toEqual([]);
  });

  it("shows the server's answer for this very text as it came, and everything for no text", () => {
    expect(matchingOptions(rows, "Marina", true, ["name"], label)).toHaveLength(3);
    expect(matchingOptions(rows, "", false, ["name"], label)).toHaveLength(3);
  });
});
