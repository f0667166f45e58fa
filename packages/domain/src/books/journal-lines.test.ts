import { describe, expect, it } from "vitest";
import { checkLines } from "./journal-lines.ts";

const messages = (lines: Parameters<typeof checkLines>[0], opts?: { skipBlank?: boolean }) =>
  checkLines(lines, opts).problems.map((p) => p.message);

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
      debit: "1250.50",
      credit: "1250.50",
      difference: "0.00",
      problems: [],
    });
  });

  it("says what is wrong with each line, and by how much the whole is out", () => {
    expect(messages([{ account_code: "6100", debit: "10" }])).toEqual(["A journal entry needs at least two lines"]);
    expect(
      messages([
        { account_code: "", debit: "10" },
        { account_code: "1010", debit: "5", credit: "5" },
        { account_code: "1000", debit: "-3" },
        { account_code: "1000" },
        { account_code: "1000", credit: "0.001" },
      ]),
    ).toEqual([
      "Line 1: choose an account",
      "Line 2: give a debit or a credit, not both",
      "Line 3: the debit is not an amount (like 1250.00)",
      "Line 4: give a debit or a credit amount",
      "Line 5: the credit is not an amount (like 1250.00)",
    ]);
    const out = checkLines([
      { account_code: "6100", debit: "110" },
      { account_code: "1010", credit: "100.01" },
    ]);
    expect(out.problems.map((p) => p.message)).toEqual([
      "The entry does not balance: debits 110.00 and credits 100.01 differ by 9.99",
    ]);
    expect([out.debit, out.credit, out.difference]).toEqual(["110.00", "100.01", "9.99"]);
  });

  it("adds in cents exactly, where binary floats would not", () => {
    const out = checkLines([
      { account_code: "6100", debit: "0.10" },
      { account_code: "6100", debit: "0.20" },
      { account_code: "1010", credit: "0.30" },
    ]);
    expect(out.problems).toEqual([]);
    expect(out.debit).toBe("0.30");
  });

  it("leaves the form's spare rows out when asked, numbering lines by their row", () => {
    const rows = [
      { account_code: "6100", debit: "10" },
      { account_code: "", debit: "", credit: "" },
      { account_code: "1010", credit: "" },
    ];
    expect(messages(rows, { skipBlank: true })).toEqual(["Line 3: give a debit or a credit amount"]);
    expect(messages(rows)).toEqual([
      "Line 2: choose an account",
      "Line 2: give a debit or a credit amount",
      "Line 3: give a debit or a credit amount",
    ]);
    expect(messages([{ account_code: "6100", debit: "10" }, { account_code: "" }], { skipBlank: true })).toEqual([
      "A journal entry needs at least two lines",
    ]);
  });
});
