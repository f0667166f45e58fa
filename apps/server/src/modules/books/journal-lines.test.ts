import { describe, expect, it } from "vitest";
import { checkLines } from "./journal-lines.ts";

describe("checkLines", () => {
  it("takes a balanced entry, amounts to cents, blank memos as null", () => {
    expect(
      checkLines([
        { account_code: "6100", debit: "1,250.5", memo: " " },
        { account_code: "1010", credit: 1250.5, memo: "DBS" },
      ]),
    ).toEqual({
      lines: [
        { account_code: "6100", debit: "1250.50", credit: "0.00", memo: null },
        { account_code: "1010", debit: "0.00", credit: "1250.50", memo: "DBS" },
      ],
      total: "1250.50",
      problems: [],
    });
  });

  it("says what is wrong with each line, and by how much the whole is out", () => {
    const messages = (lines: Parameters<typeof checkLines>[0]) => checkLines(lines).problems.map((p) => p.message);
    expect(messages([{ account_code: "6100", debit: "10" }])).toEqual(["A journal entry needs at least two lines"]);
    expect(
      messages([
        { account_code: "", debit: "10" },
        { account_code: "1010", debit: "5", credit: "5" },
        { account_code: "1000", debit: "-3" },
        { account_code: "1000" },
      ]),
    ).toEqual([
      "Line 1: choose an account",
      "Line 2: give a debit or a credit, not both",
      "Line 3: the debit is not an amount (like 1250.00)",
      "Line 4: give a debit or a credit amount",
    ]);
    expect(
      messages([
        { account_code: "6100", debit: "110" },
        { account_code: "1010", credit: "100.01" },
      ]),
    ).toEqual(["The entry does not balance: debits 110.00 and credits 100.01 differ by 9.99"]);
  });
});
