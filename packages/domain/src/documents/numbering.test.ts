import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amendedNumber,
  DEFAULT_PREFIXES,
  formatNumber,
  isNumberedType,
  NUMBERED_TYPES,
  normalizePrefix,
  numberYear,
  parseNumber,
  prefixConflict,
  prefixError,
  prefixFor,
} from "./numbering.ts";

describe("document numbers (DESIGN §2.3.1)", () => {
  it("spells PFX-YYYY-##### and grows past 99999", () => {
    expect(formatNumber("QT", 2026, 1)).toBe("QT-2026-00001");
    expect(formatNumber("INV", 2026, 99_999)).toBe("INV-2026-99999");
    expect(formatNumber("INV", 2026, 100_000)).toBe("INV-2026-100000");
    expect(formatNumber("SINV", 2027, 42)).toBe("SINV-2027-00042");
  });

  it("refuses what no counter gives", () => {
    expect(() => formatNumber("QT", 2026, 0)).toThrow("A document number counts from 1, not 0");
    expect(() => formatNumber("QT", 2026, 1.5)).toThrow(RangeError);
    expect(() => formatNumber("QT", 26, 1)).toThrow("Not a four-digit year: 26");
    expect(() => formatNumber("qt", 2026, 1)).toThrow("A prefix has only capital letters and digits, like INV or INV2");
  });

  it("reads back only what it writes", () => {
    expect(parseNumber("QT-2026-00001")).toEqual({ prefix: "QT", year: 2026, n: 1 });
    expect(parseNumber(" INV-2026-100000 ")).toEqual({ prefix: "INV", year: 2026, n: 100_000 });
    expect(parseNumber("INV2-2026-00007")).toEqual({ prefix: "INV2", year: 2026, n: 7 });
    for (const text of [
      "QT-2026-0001",
      "QT-2026-012345",
      "QT-2026-00000",
      "qt-2026-00001",
      "QT-26-00001",
      "QT2026-00001",
      "ABCDEFGHI-2026-00001",
      "2026-2026-00001",
      "acme ltd",
      "",
    ]) {
      expect(parseNumber(text)).toBeNull();
    }
  });

  it("round-trips any number", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(DEFAULT_PREFIXES)),
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (prefix, year, n) => {
          expect(parseNumber(formatNumber(prefix, year, n))).toEqual({ prefix, year, n });
        },
      ),
    );
  });

  it("takes the year from the document date", () => {
    expect(numberYear("2025-12-31")).toBe(2025);
    expect(numberYear("2026-01-02T08:00:00+08:00")).toBe(2026);
    expect(() => numberYear("31/12/2025")).toThrow("Not an ISO date: 31/12/2025");
  });
});

describe("default prefixes", () => {
  it("has one per numbered table, all distinct and valid", () => {
    expect(DEFAULT_PREFIXES).toEqual({
      quotation: "QT",
      sales_order: "SO",
      delivery_instruction: "DI",
      delivery_order: "DO",
      invoice: "INV",
      receipt: "RCT",
      credit_note: "CN",
      debit_note: "DN",
      goods_return_note: "GRN",
      customer_order: "ORD",
      purchase_order: "PO",
      supplier_delivery_order: "SDO",
      supplier_invoice: "SINV",
      supplier_payment: "PAY",
      goods_transfer_form: "GTF",
      loan_form: "LN",
      progressive_claim: "PC",
      journal_entry: "JE",
      pick_list: "PL",
      stock_count: "SC",
      expense_claim: "EXP",
    });
    expect(NUMBERED_TYPES).toHaveLength(21);
    for (const type of NUMBERED_TYPES) expect(prefixError(DEFAULT_PREFIXES[type])).toBeNull();
    expect(prefixConflict({})).toBeNull();
    expect(isNumberedType("invoice")).toBe(true);
    expect(isNumberedType("order_form")).toBe(false);
    expect(isNumberedType("toString")).toBe(false);
  });
});

describe("the workspace's prefix", () => {
  it("is 1–8 capital letters or digits, starting with a letter", () => {
    expect(normalizePrefix(" inv ")).toBe("INV");
    expect(prefixError("INV")).toBeNull();
    expect(prefixError("I")).toBeNull();
    expect(prefixError("ABCDEFG8")).toBeNull();
    expect(prefixError("")).toBe("Give a prefix, like INV");
    expect(prefixError("ABCDEFGHI")).toBe("A prefix has at most 8 characters");
    expect(prefixError("IN-V")).toBe("A prefix has only capital letters and digits, like INV or INV2");
    expect(prefixError("inv")).toBe("A prefix has only capital letters and digits, like INV or INV2");
    expect(prefixError("ÄB")).toBe("A prefix has only capital letters and digits, like INV or INV2");
    expect(prefixError("2026")).toBe("A prefix starts with a letter, like INV");
  });

  it("overrides the default and may not repeat another type's", () => {
    expect(prefixFor("invoice", { invoice: "TI" })).toBe("TI");
    expect(prefixFor("quotation", { invoice: "TI" })).toBe("QT");
    expect(prefixConflict({ invoice: "TI", credit_note: "TCN" })).toBeNull();
    expect(prefixConflict({ invoice: "SO" }, { sales_order: "sales orders", invoice: "invoices" })).toBe(
      "SO is already the prefix of sales orders; choose another for invoices",
    );
    expect(prefixConflict({ debit_note: "DO" })).toBe(
      "DO is already the prefix of delivery order; choose another for debit note",
    );
  });
});

describe("amendedNumber", () => {
  it("adds -1 to a number, and counts on from an amendment", () => {
    expect(amendedNumber("QT-2026-00001")).toBe("QT-2026-00001-1");
    expect(amendedNumber("QT-2026-00001-1")).toBe("QT-2026-00001-2");
    expect(amendedNumber("INV2-2026-123456-9")).toBe("INV2-2026-123456-10");
    expect(() => amendedNumber("draft")).toThrow("Not a document number");
  });
});
