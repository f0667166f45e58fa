import { describe, expect, it } from "vitest";
import { type DraftLine, toSend, totals } from "./lines.ts";

const line = (account_code: string, debit: string, credit: string): DraftLine => ({
  key: Math.random(),
  account_code,
  debit,
  credit,
  memo: "",
});

describe("the New journal form's totals", () => {
  it("says by how much the entry is out and is ready only when balanced with two good lines", () => {
    expect(totals([line("6100", "110", ""), line("1010", "", "100.00")])).toEqual({
      debit: "110.00",
      credit: "100.00",
      difference: "10.00",
      balanced: false,
      ready: false,
    });
    expect(totals([line("6100", "1,250.50", ""), line("1010", "", "1250.5"), line("", "", "")]).ready).toBe(true);
    expect(totals([line("6100", "10", "10"), line("1010", "", "0")]).ready).toBe(false);
    expect(totals([line("6100", "10", ""), line("", "", "10")]).ready).toBe(false);
  });

  it("sends the typed lines without the blank ones", () => {
    expect(toSend([line("6100", "10", ""), line("", "", ""), line("1010", "", "10")])).toEqual([
      { account_code: "6100", debit: "10", credit: null, memo: null },
      { account_code: "1010", debit: null, credit: "10", memo: null },
    ]);
  });
});
