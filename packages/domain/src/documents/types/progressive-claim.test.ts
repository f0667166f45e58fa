import { describe, expect, it } from "vitest";
import { transitionMatrix } from "../machine.ts";
import { invoicePaymentStatus } from "../quantities.ts";
import {
  type ClaimFigures,
  type ClaimLineInput,
  type ClaimPrevious,
  claimFigures,
  claimStatus,
  PROGRESSIVE_CLAIM,
  releasable,
  sopDates,
} from "./progressive-claim.ts";

// The claim's figures (issue 12): the anchor, the cap across random sequences, rounding, releases, SOP dates.

type Step = { percents: string[] };

// A run of claims on one contract, each continuing the one before as the server chains them.
function run(contract: string[], steps: Step[], terms = { retention_percent: "5", retention_cap_percent: "5" }) {
  const out: ClaimFigures[] = [];
  let prev: { percent: string; amount: string }[] = contract.map(() => ({ percent: "0", amount: "0" }));
  let previous: { gross_to_date: string; retention_to_date: string } | null = null;
  for (const s of steps) {
    const f = claimFigures({
      kind: "progress",
      ...terms,
      previous,
      lines: contract.map((c, i) => ({
        contract_amount: c,
        cumulative_percent: s.percents[i],
        prev_percent: prev[i].percent,
        prev_amount: prev[i].amount,
        tax_code: "SR",
      })),
    });
    out.push(f);
    prev = f.lines.map((l, i) => ({ percent: s.percents[i], amount: l.amount_to_date }));
    previous = { gross_to_date: f.gross_to_date, retention_to_date: f.retention_to_date };
  }
  return out;
}

describe("claimFigures", () => {
  it("the anchor: 100,000 at 5% capped at 5%, 30% → 70% → 100%", () => {
    const [a, b, c] = run(["100000"], [{ percents: ["30"] }, { percents: ["70"] }, { percents: ["100"] }]);
    expect([a, b, c].map((f) => [f.retention_to_date, f.retention_this_claim])).toEqual([
      ["1500.00", "1500.00"],
      ["3500.00", "2000.00"],
      ["5000.00", "1500.00"],
    ]);
    expect(a).toMatchObject({
      this_claim_gross: "30000.00",
      subtotal: "28500.00",
      tax_total: "2565.00",
      total: "31065.00",
    });
  });

  it("never holds more than the cap, whatever the sequence (random runs)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let trial = 0; trial < 100; trial++) {
      const contract = [String((random() * 90000 + 10).toFixed(2)), String((random() * 5000 + 1).toFixed(2))];
      const steps: Step[] = [];
      let p = [0, 0];
      const n = 1 + Math.floor(random() * 12);
      for (let i = 0; i < n; i++) {
        p = p.map((x) => Math.min(100, Math.round((x + random() * 30) * 1000) / 1000));
        steps.push({ percents: p.map(String) });
      }
      const retention = String(Math.floor(random() * 10) + 1);
      const cap = String(Math.floor(random() * 10) + 1);
      const runs = run(contract, steps, { retention_percent: retention, retention_cap_percent: cap });
      const capAmount = Number(runs[0].retention_cap);
      let held = 0;
      for (const f of runs) {
        held += Math.round(Number(f.retention_this_claim) * 100);
        expect(Number(f.retention_this_claim)).toBeGreaterThanOrEqual(0);
        expect(held).toBe(Math.round(Number(f.retention_to_date) * 100));
        expect(held).toBeLessThanOrEqual(Math.round(capAmount * 100));
        // Σ this claim = work done to date; total = subtotal + GST.
        expect(Math.round(Number(f.total) * 100)).toBe(
          Math.round(Number(f.subtotal) * 100) + Math.round(Number(f.tax_total) * 100),
        );
      }
    }
  });

  it("refuses a percentage going down, naming the line", () => {
    expect(() =>
      claimFigures({
        kind: "progress",
        retention_percent: "5",
        retention_cap_percent: "5",
        previous: { gross_to_date: "500", retention_to_date: "25" },
        lines: [
          {
            description: "Piling",
            contract_amount: "1000",
            cumulative_percent: "40",
            prev_percent: "50",
            prev_amount: "500",
          },
        ],
      }),
    ).toThrow("Line 1 (Piling): the work done to date cannot go down to 40%; 50% was claimed before");
  });

  it("a line measured in quantity: 340 of 500 m² is 68%, this claim is to date less before, the percentage derived", () => {
    const line = { description: "Tiling", unit: "m²", contract_amount: "50000", contract_qty: "500", tax_code: "SR" };
    // The tiling claimed at `qty` done to date, after `previous` with what its line had before (`prior`).
    const measure = (qty: string, previous: ClaimPrevious, prior: Partial<ClaimLineInput> = {}) =>
      claimFigures({
        kind: "progress",
        retention_percent: "5",
        retention_cap_percent: "5",
        previous,
        lines: [{ ...line, ...prior, cumulative_percent: "", cumulative_qty: qty }],
      });
    const first = measure("340", null);
    expect(first.lines).toEqual([
      { cumulative_percent: "68.0000", amount_to_date: "34000.00", line_total: "34000.00" },
    ]);
    expect(first).toMatchObject({ this_claim_gross: "34000.00", retention_this_claim: "1700.00" });
    const previous = { gross_to_date: first.gross_to_date, retention_to_date: first.retention_to_date };
    const before = { prev_percent: "68", prev_amount: "34000", prev_qty: "340" };
    // A third of the rest: the percentage has more places than it keeps, the amount is exact from the quantity.
    expect(measure("400.5", previous, before).lines[0]).toEqual({
      cumulative_percent: "80.1000",
      amount_to_date: "40050.00",
      line_total: "6050.00",
    });
    // Everything done is the whole contract amount, the cap of the retention holds.
    expect(measure("500", previous, before)).toMatchObject({
      gross_to_date: "50000.00",
      this_claim_gross: "16000.00",
      retention_to_date: "2500.00",
    });
    // Unchanged: what it had to date, whatever the rounding.
    expect(measure("340", previous, before).lines[0]).toEqual({
      cumulative_percent: "68.0000",
      amount_to_date: "34000.00",
      line_total: "0.00",
    });
    // A previous claim by percentage: its quantity is that share of the contract quantity.
    expect(() => measure("340", previous, { prev_percent: "70", prev_amount: "35000" })).toThrow(
      "Line 1 (Tiling): the quantity done to date cannot go down to 340 m²; 350 m² was claimed before",
    );
    expect(() => measure("500.5", null)).toThrow(
      "Line 1 (Tiling): the quantity done to date cannot be more than the contract's 500 m²",
    );
    expect(() => measure("300", previous, before)).toThrow(
      "Line 1 (Tiling): the quantity done to date cannot go down to 300 m²; 340 m² was claimed before",
    );
    expect(() => measure("3", null, { contract_qty: null })).toThrow(
      "Line 1 (Tiling) has no contract quantity to measure against: give its work done to date as a percentage",
    );
  });

  it("a release bills retention with GST and holds nothing new", () => {
    const f = claimFigures({
      kind: "release",
      retention_percent: "5",
      retention_cap_percent: "5",
      previous: { gross_to_date: "100000", retention_to_date: "5000" },
      lines: [{ contract_amount: "2500", cumulative_percent: "0", tax_code: "SR" }],
    });
    expect(f).toMatchObject({
      retention_this_claim: "-2500.00",
      this_claim_gross: "0.00",
      subtotal: "2500.00",
      tax_total: "225.00",
    });
    expect(releasable("practical_completion", { retained: "5000", released: "0", share_percent: "50" })).toBe(
      "2500.00",
    );
    expect(releasable("practical_completion", { retained: "5000", released: "2500", share_percent: "50" })).toBe(
      "0.00",
    );
    expect(releasable("final", { retained: "5000", released: "2500", share_percent: "50" })).toBe("2500.00");
  });
});

describe("SOP Act dates", () => {
  it("s11: the contract's days up to 21, 14 when silent; s8: up to 35 after, 14 when silent", () => {
    expect(sopDates("2026-03-31", {})).toEqual({ response_due: "2026-04-14", payment_due: "2026-04-28" });
    expect(sopDates("2026-03-31", { response_days: 30, payment_days: 60 })).toEqual({
      response_due: "2026-04-21",
      payment_due: "2026-05-26",
    });
    expect(sopDates("2026-03-31", { response_days: 7, payment_days: 10 })).toEqual({
      response_due: "2026-04-07",
      payment_due: "2026-04-17",
    });
  });
});

describe("the claim's statuses", () => {
  const doc = (header: Record<string, unknown>, status = "claimed") => ({
    status,
    today: "2026-06-01",
    header,
    lines: [],
  });
  it("follow what is owed, the payment due date and the response", () => {
    expect(claimStatus(doc({ total: "100", outstanding: "100", due_date: "2026-07-01" }))).toBe("claimed");
    expect(claimStatus(doc({ total: "100", outstanding: "100", due_date: "2026-07-01", certified_amount: "90" }))).toBe(
      "certified",
    );
    expect(claimStatus(doc({ total: "100", outstanding: "40", due_date: "2026-07-01" }))).toBe("partly_paid");
    expect(claimStatus(doc({ total: "100", outstanding: "100", due_date: "2026-05-01" }))).toBe("overdue");
    expect(claimStatus(doc({ total: "100", outstanding: "0" }))).toBe("paid");
  });
  it("an overdue claim partly paid reads Overdue, as an invoice does (and as the overdue sweep marks it)", () => {
    const past = { total: "100", outstanding: "40", due_date: "2026-05-01" };
    expect(claimStatus(doc(past))).toBe("overdue");
    expect(invoicePaymentStatus(past, "2026-06-01")).toBe("overdue");
    expect(claimStatus(doc({ ...past, outstanding: "0" }))).toBe("paid");
    // On the due date itself it is not yet overdue.
    expect(claimStatus(doc({ ...past, due_date: "2026-06-01" }))).toBe("partly_paid");
  });
  it("has one answer for every status and action", () => {
    const m = transitionMatrix(PROGRESSIVE_CLAIM, {
      doc: (status) => ({ status, today: "2026-06-01", header: { total: "100", outstanding: "100" }, lines: [{}] }),
    });
    expect(m.draft.submit).toBe("→ claimed");
    expect(m.paid.cancel).toBe("A paid progressive claim cannot be cancelled");
    expect(m.claimed.certify).toBe("→ certified");
  });
});
