import { describe, expect, it } from "vitest";
import { emptyLine, type LineDraft } from "../documents/lines.ts";
import { claimBlocked } from "./figures.ts";

// The draft of the walk (finding 7): 500 m² of tiling at 50,000 and preliminaries at 10,000, saved with nothing done.
const doc = {
  id: 7,
  kind: "progress",
  status: "draft",
  retention_percent: "5.00",
  retention_cap_percent: "5.00",
  previous_gross: "0.00",
  previous_retention: "0.00",
  total: "0.00",
  this_claim_gross: "0.00",
  lines: [
    { id: 1, source_line_id: 11, contract_amount: "50000.00", contract_qty: "500.000", cumulative_percent: "0.0000" },
    { id: 2, source_line_id: 12, contract_amount: "10000.00", contract_qty: "1.000", cumulative_percent: "0.0000" },
  ],
};

const line = (source: number, description: string, unit: string, extra: Record<string, unknown>): LineDraft => ({
  ...emptyLine(),
  description,
  unit,
  source_line_id: source,
  extra,
});

const form = (tiling: Record<string, unknown>, prelims: Record<string, unknown> = { cumulative_percent: "0.0000" }) => [
  line(11, "Floor tiling, level 2", "m²", { contract_amount: "50000.00", contract_qty: "500.000", ...tiling }),
  line(12, "Preliminaries", "", { contract_amount: "10000.00", contract_qty: "1.000", ...prelims }),
];

describe("whether the unsaved claim can be claimed", () => {
  it("says why not from the form's figures, not the saved draft's", () => {
    // As saved: nothing done — the Claim guard's own words.
    expect(claimBlocked(doc, {}, form({ cumulative_percent: "0.0000" }))).toBe(
      "Nothing is claimed: raise the work done to date on at least one line",
    );
    // 600 of 500 m² typed: the figures panel's refusal, not "Nothing is claimed".
    expect(claimBlocked(doc, {}, form({ cumulative_percent: "0.0000", cumulative_qty: "600" }))).toBe(
      "Line 1 (Floor tiling, level 2): the quantity done to date cannot be more than the contract's 500 m²",
    );
    expect(claimBlocked(doc, {}, form({ cumulative_percent: "0", cumulative_qty: "340" }))).toBeNull();
    expect(claimBlocked(doc, {}, form({ cumulative_percent: "0" }, { cumulative_percent: "101" }))).toBe(
      "Line 2 (Preliminaries): the work done to date cannot be more than 100%",
    );
    expect(claimBlocked(doc, {}, form({ cumulative_percent: "0" }, { cumulative_percent: "50" }))).toBeNull();
  });
  it("reads a release claim's amounts", () => {
    const release = { ...doc, kind: "release", lines: [{ id: 3, contract_amount: "2000.00" }] };
    const one = (amount: string) =>
      [line(0, "Release", "", { contract_amount: amount })].map((l) => ({ ...l, source_line_id: null }));
    expect(claimBlocked(release, {}, one("2000"))).toBeNull();
    expect(claimBlocked(release, {}, one("0"))).toBe("Line 1 (Release): the amount released must be more than 0");
  });
});
