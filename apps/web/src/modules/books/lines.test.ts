import { describe, expect, it } from "vitest";
import { checkForm, type DraftLine, toSend } from "./lines.ts";

const line = (account_code: string, debit: string, credit: string): DraftLine => ({
  key: Math.random(),
  account_code,
  debit,
  credit,
  memo: "",
});

const form = (lines: DraftLine[], memo = "Rent") => checkForm({ date: "2026-11-23", memo, lines });

describe("the New journal form's check", () => {
  it("keeps running totals and says by how much the entry is out, and Post waits for it", () => {
    const out = form([line("6100", "110", ""), line("1010", "", "100.00"), line("", "", "")]);
    expect([out.debit, out.credit, out.difference]).toEqual(["110.00", "100.00", "10.00"]);
    expect(out.blocker).toBe("The entry does not balance: debits 110.00 and credits 100.00 differ by 10.00");
  });

  it("offers Post once two good lines balance, whatever spare rows remain", () => {
    const out = form([line("6100", "1,250.50", ""), line("", "", ""), line("1010", "", "1250.5"), line("", "", "")]);
    expect(out.blocker).toBeNull();
    expect(out.debit).toBe("1250.50");
  });

  it("names the row that is wrong, by the number the clerk sees, and the field it is in", () => {
    const out = form([line("6100", "10", "10"), line("", "", ""), line("1010", "", "1x")]);
    expect(out.blocker).toBe("Line 1: give a debit or a credit, not both");
    expect(out.byField.get("lines.0.credit")).toBe("Line 1: give a debit or a credit, not both");
    expect(out.byField.get("lines.2.credit")).toBe("Line 3: the credit is not an amount (like 1250.00)");
    expect(form([line("6100", "10", ""), line("", "", "10")]).blocker).toBe("Line 2: choose an account");
  });

  it("asks for the memo and the date before the lines", () => {
    const balanced = [line("6100", "10", ""), line("1010", "", "10")];
    expect(form(balanced, " ").blocker).toBe("Say what the entry is for in the memo");
    expect(checkForm({ date: "", memo: "Rent", lines: balanced }).blocker).toBe("Give the entry's date");
  });

  it("sends the typed lines without the blank ones", () => {
    expect(toSend([line("6100", "10", ""), line("", "", ""), line("1010", "", "10")])).toEqual([
      { account_code: "6100", debit: "10", credit: null, memo: null },
      { account_code: "1010", debit: null, credit: "10", memo: null },
    ]);
  });
});
