import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, DocumentError, plain } from "./decimal.ts";
import { computeTotals, lineTotal, TAX_CODES, type TaxCode, type TotalsLine, toBase, toBaseTotals } from "./totals.ts";

const line = (qty: string, unit_price: string, tax_code: TaxCode = "SR", discount_percent?: string): TotalsLine => ({
  qty,
  unit_price,
  tax_code,
  discount_percent,
});
const figures = (t: ReturnType<typeof computeTotals>) => ({
  subtotal: t.subtotal,
  discount_amount: t.discount_amount,
  net_total: t.net_total,
  tax_total: t.tax_total,
  total: t.total,
});

describe("line totals (issue 10 §1)", () => {
  it("is qty × unit price less the line discount, rounded half-up to cents once", () => {
    expect(lineTotal(line("2", "10"))).toBe("20.00");
    expect(lineTotal(line("1", "0.005"))).toBe("0.01");
    expect(lineTotal(line("3", "0.335"))).toBe("1.01"); // 1.005
    expect(lineTotal(line("1", "0.01", "SR", "50"))).toBe("0.01"); // 0.005
    expect(lineTotal(line("1", "0.0149"))).toBe("0.01"); // no double rounding through 0.015
  });

  it("takes quantities with three decimals", () => {
    expect(lineTotal(line("2.125", "3.99"))).toBe("8.48"); // 8.47875
    expect(lineTotal(line("2.125", "3.99", "SR", "12.5"))).toBe("7.42"); // 7.41890625
  });

  it("gives 0.00 for a 100% line discount", () => {
    expect(lineTotal(line("7", "19.99", "SR", "100"))).toBe("0.00");
  });

  it("refuses what a clerk mistyped, naming the line", () => {
    expect(() => lineTotal(line("1", "10", "SR", "101"), 1)).toThrow(
      "The discount on line 2 must be between 0 and 100%",
    );
    expect(() => lineTotal(line("1", "10", "SR", "-1"))).toThrow(DocumentError);
    expect(() => lineTotal(line("1e3", "10"))).toThrow('The quantity on line 1 must be a number, not "1e3"');
    expect(() => lineTotal(line("1", "ten"), 2)).toThrow('The unit price on line 3 must be a number, not "ten"');
    expect(lineTotal(line("1", "10", "SR", ""))).toBe("10.00");
  });
});

describe("document totals (DOCUMENTS.md §3: GST per tax code on the total, half-up)", () => {
  it("adds GST at 9% on standard-rated lines", () => {
    const t = computeTotals({ lines: [line("2", "10"), line("1", "5.5")] });
    expect(figures(t)).toEqual({
      subtotal: "25.50",
      discount_amount: "0.00",
      net_total: "25.50",
      tax_total: "2.30", // 2.295
      total: "27.80",
    });
    expect(t.taxes).toEqual([{ tax_code: "SR", rate: "0.09", net: "25.50", tax: "2.30" }]);
    expect(t.lines.map((l) => l.line_total)).toEqual(["20.00", "5.50"]);
  });

  it("rounds 0.005 of tax up", () => {
    expect(computeTotals({ lines: [line("1", "0.50")] }).tax_total).toBe("0.05"); // 0.045
    expect(computeTotals({ lines: [line("1", "10.50")] }).tax_total).toBe("0.95"); // 0.945
    expect(computeTotals({ lines: [line("1", "5.50")] }).tax_total).toBe("0.50"); // 0.495
  });

  it("rounds tax once per tax code, not per line", () => {
    // Per line 0.0945 → 0.09 ten times would be 0.90; on the total 10.50 × 9% = 0.945 → 0.95.
    const t = computeTotals({ lines: Array.from({ length: 10 }, () => line("1", "1.05")) });
    expect(t.tax_total).toBe("0.95");
    // Three lines of 0.05: nothing each, 0.0135 → 0.01 together.
    expect(computeTotals({ lines: [line("1", "0.05"), line("1", "0.05"), line("1", "0.05")] }).tax_total).toBe("0.01");
  });

  it("sums rounded line totals, as the clerk sees them", () => {
    const t = computeTotals({ lines: [line("1", "0.335"), line("1", "0.335")] });
    expect(t.lines.map((l) => l.line_total)).toEqual(["0.34", "0.34"]);
    expect(t.subtotal).toBe("0.68"); // rounding 0.67 once would disagree with the lines shown
    expect(t.tax_total).toBe("0.06"); // 0.0612
  });

  it("taxes zero-rated, exempt and out-of-scope lines at 0 and keeps them apart", () => {
    const t = computeTotals({
      lines: [line("1", "100", "ZR"), line("1", "100", "SR"), line("1", "40", "OS"), line("2", "15", "ES")],
    });
    expect(figures(t)).toMatchObject({ subtotal: "270.00", tax_total: "9.00", total: "279.00" });
    expect(t.taxes).toEqual([
      { tax_code: "SR", rate: "0.09", net: "100.00", tax: "9.00" },
      { tax_code: "ZR", rate: "0", net: "100.00", tax: "0.00" },
      { tax_code: "ES", rate: "0", net: "30.00", tax: "0.00" },
      { tax_code: "OS", rate: "0", net: "40.00", tax: "0.00" },
    ]);
  });

  it("taxes the amount after a document discount in percent", () => {
    const t = computeTotals({ lines: [line("1", "100", "SR"), line("1", "50", "ZR")], discount: { percent: "10" } });
    expect(figures(t)).toEqual({
      subtotal: "150.00",
      discount_amount: "15.00",
      net_total: "135.00",
      tax_total: "8.10",
      total: "143.10",
    });
    expect(t.lines.map((l) => l.net_amount)).toEqual(["90.00", "45.00"]);
  });

  it("spreads a discount amount so the shares add up to the cent", () => {
    const t = computeTotals({
      lines: [line("1", "10", "SR"), line("1", "10", "ZR"), line("1", "10", "ES")],
      discount: { amount: "10" },
    });
    // 3.33 each leaves a cent, which goes to the largest line (the first of equals).
    expect(t.lines.map((l) => l.net_amount)).toEqual(["6.66", "6.67", "6.67"]);
    expect(t.taxes.map((x) => [x.tax_code, x.net, x.tax])).toEqual([
      ["SR", "6.66", "0.60"],
      ["ZR", "6.67", "0.00"],
      ["ES", "6.67", "0.00"],
    ]);
    expect(figures(t)).toEqual({
      subtotal: "30.00",
      discount_amount: "10.00",
      net_total: "20.00",
      tax_total: "0.60",
      total: "20.60",
    });
  });

  it("allows a 100% discount and a discount equal to the subtotal, never more", () => {
    const all = computeTotals({ lines: [line("2", "25")], discount: { percent: "100" } });
    expect(figures(all)).toEqual({
      subtotal: "50.00",
      discount_amount: "50.00",
      net_total: "0.00",
      tax_total: "0.00",
      total: "0.00",
    });
    expect(computeTotals({ lines: [line("2", "25")], discount: { amount: "50.00" } }).total).toBe("0.00");
    expect(() => computeTotals({ lines: [line("2", "25")], discount: { amount: "50.01" } })).toThrow(
      "The discount cannot be more than the subtotal of 50.00",
    );
    expect(() => computeTotals({ lines: [line("2", "25")], discount: { amount: "-1" } })).toThrow(
      "The discount cannot be negative",
    );
    expect(() => computeTotals({ lines: [line("2", "25")], discount: { percent: "100.5" } })).toThrow(
      "The discount must be between 0 and 100%",
    );
    expect(() => computeTotals({ lines: [], discount: { amount: "1" } })).toThrow(DocumentError);
  });

  it("handles negative lines (credit notes) symmetrically", () => {
    const t = computeTotals({ lines: [line("-2", "10")] });
    expect(figures(t)).toMatchObject({ subtotal: "-20.00", tax_total: "-1.80", total: "-21.80" });
    expect(computeTotals({ lines: [line("-1", "0.50")] }).tax_total).toBe("-0.05"); // half away from zero
    const mixed = computeTotals({ lines: [line("1", "100"), line("-1", "30")] });
    expect(figures(mixed)).toMatchObject({ subtotal: "70.00", tax_total: "6.30", total: "76.30" });
    // A discount amount is typed positive and shrinks the document whatever its sign.
    const off = computeTotals({ lines: [line("-1", "100")], discount: { amount: "10" } });
    expect(figures(off)).toEqual({
      subtotal: "-100.00",
      discount_amount: "-10.00",
      net_total: "-90.00",
      tax_total: "-8.10",
      total: "-98.10",
    });
  });

  it("keeps every digit of large values", () => {
    const t = computeTotals({ lines: [line("1000000", "99999999.99")] });
    expect(figures(t)).toMatchObject({
      subtotal: "99999999990000.00",
      tax_total: "8999999999100.00",
      total: "108999999989100.00",
    });
    const odd = computeTotals({ lines: [line("123456.789", "98765432.10")] });
    expect(figures(odd)).toMatchObject({
      subtotal: "12193263111263.53",
      tax_total: "1097393680013.72",
      total: "13290656791277.25",
    });
  });

  it("keeps the caller's line fields and takes another rate", () => {
    const t = computeTotals({ lines: [{ id: "a", ...line("1", "100") }] }, { SR: "0.08", ZR: "0", ES: "0", OS: "0" });
    expect(t.lines[0]).toMatchObject({ id: "a", line_total: "100.00", net_amount: "100.00" });
    expect(t.tax_total).toBe("8.00");
  });

  it("refuses an unknown tax code and gives zeros for no lines", () => {
    expect(() => computeTotals({ lines: [line("1", "1", "XX" as TaxCode)] })).toThrow(
      'Line 1 has an unknown tax code "XX"',
    );
    expect(figures(computeTotals({ lines: [] }))).toEqual({
      subtotal: "0.00",
      discount_amount: "0.00",
      net_total: "0.00",
      tax_total: "0.00",
      total: "0.00",
    });
  });
});

describe("currency conversion", () => {
  it("converts amounts × rate to base cents, half-up", () => {
    expect(toBase("100.00", "1.35")).toBe("135.00");
    expect(toBase("0.01", "0.5")).toBe("0.01");
    expect(toBase("-0.01", "0.5")).toBe("-0.01");
    expect(toBase("1234.56", "0.000123")).toBe("0.15"); // 0.15185…
    expect(() => toBase("1", "0")).toThrow("The exchange rate must be more than 0");
    expect(() => toBase("1", "-1.2")).toThrow(DocumentError);
  });

  it("keeps base figures adding up the way the document's do", () => {
    const t = computeTotals({ lines: [line("1", "0.11")] }); // net 0.11, tax 0.0099 → 0.01, total 0.12
    const b = toBaseTotals(t, "0.5");
    expect(b).toEqual({
      base_subtotal: "0.06",
      base_discount_amount: "0.00",
      base_net_total: "0.06",
      base_tax_total: "0.01",
      base_total: "0.07", // converting 0.12 alone would give 0.06 and unbalance the journal
      base_taxes: [{ tax_code: "SR", net: "0.06", tax: "0.01" }],
    });
    const same = computeTotals({ lines: [line("3", "33.33"), line("1", "5", "ZR")], discount: { percent: "5" } });
    expect(toBaseTotals(same, "1")).toMatchObject({
      base_subtotal: same.subtotal,
      base_discount_amount: same.discount_amount,
      base_net_total: same.net_total,
      base_tax_total: same.tax_total,
      base_total: same.total,
    });
  });
});

// ---- properties ------------------------------------------------------------------------------------------------

const scaled = (digits: number, max: number) =>
  fc.integer({ min: 0, max }).map((n) => plain(new Dec(n).dividedBy(10 ** digits)));
const arbLine = fc.record({
  qty: scaled(3, 10_000_000), // up to 10,000 with 3 decimals
  unit_price: scaled(2, 100_000_000), // up to 1,000,000.00
  discount_percent: fc.option(scaled(2, 10_000), { nil: undefined }),
  tax_code: fc.constantFrom(...TAX_CODES),
});
const arbDiscount = fc.oneof(
  fc.constant(null),
  scaled(2, 10_000).map((percent) => ({ percent })),
  fc.integer({ min: 0, max: 1000 }).map((permille) => ({ permille })), // an amount: this share of the subtotal
);

describe("totals properties", () => {
  it("total = subtotal − discount + tax, tax ≥ 0, and every part adds up, for non-negative inputs", () => {
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 25 }), arbDiscount, (lines, d) => {
        let discount: { percent: string } | { amount: string } | null = null;
        if (d && "percent" in d) discount = d;
        if (d && "permille" in d) {
          const subtotal = computeTotals({ lines }).subtotal;
          discount = { amount: new Dec(subtotal).times(d.permille).dividedBy(1000).toFixed(2, Dec.ROUND_DOWN) };
        }
        const t = computeTotals({ lines, discount });
        const D = (s: string) => new Dec(s);
        const add = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new Dec(0));
        expect(D(t.total).equals(D(t.subtotal).minus(t.discount_amount).plus(t.tax_total))).toBe(true);
        expect(D(t.tax_total).isNegative()).toBe(false);
        expect(D(t.discount_amount).lessThanOrEqualTo(t.subtotal)).toBe(true);
        expect(add(t.lines.map((l) => l.line_total)).equals(t.subtotal)).toBe(true);
        expect(add(t.lines.map((l) => l.net_amount)).equals(t.net_total)).toBe(true);
        expect(add(t.taxes.map((x) => x.net)).equals(t.net_total)).toBe(true);
        expect(add(t.taxes.map((x) => x.tax)).equals(t.tax_total)).toBe(true);
        for (const x of t.taxes) expect(x.tax).toBe(new Dec(x.net).times(x.rate).toFixed(2, Dec.ROUND_HALF_UP));
      }),
      { numRuns: 150 },
    );
  });

  it("a negated document has the negated totals", () => {
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 10 }), (lines) => {
        const t = computeTotals({ lines });
        const neg = computeTotals({ lines: lines.map((l) => ({ ...l, qty: plain(new Dec(l.qty).negated()) })) });
        expect(new Dec(neg.total).equals(new Dec(t.total).negated())).toBe(true);
        expect(new Dec(neg.tax_total).equals(new Dec(t.tax_total).negated())).toBe(true);
      }),
    );
  });
});
