import { describe, expect, it } from "vitest";
import { decideTransition, settleStatus, transitionMatrix } from "../machine.ts";
import { remaining } from "../quantities.ts";
import { LOAN_FORM, stillOut } from "./loan-form.ts";
import type { DocSnapshot } from "./snapshot.ts";

// Issue 11: the loan form's matrix, its statuses from the lines (returned, sold, past due) and what is left to sell.

const everyone = { kind: "member" as const, permissions: ["*"], features: ["erp"] };
const line = (returned = "0", sold = "0") => ({
  id: 1,
  qty: "5",
  product_id: 3,
  qty_returned: returned,
  qty_sold: sold,
});
const doc = (status: string, lines: object[] = [line()], due = "2026-06-30", today = "2026-06-01") =>
  ({ status, today, header: { doc_date: "2026-05-01", due_date: due }, lines }) as DocSnapshot;

describe("the loan form matrix", () => {
  it("lends a draft, takes goods back while out, cancels only while nothing came back or was sold", () => {
    const m = transitionMatrix(LOAN_FORM, { doc: (s) => doc(s) });
    expect(m.draft).toEqual({ submit: "→ out", return: "A draft loan form cannot be returned", cancel: "→ cancelled" });
    expect(m.out).toEqual({ submit: "A lent loan form cannot be lent", return: "→ returned", cancel: "→ cancelled" });
    expect(m.returned.return).toBe("A returned loan form cannot be returned");
    expect(m.converted.cancel).toBe("A sold loan form cannot be cancelled");
    const partly = transitionMatrix(LOAN_FORM, { doc: (s) => doc(s, [line("2")]) });
    expect(partly.partly_returned).toMatchObject({
      return: "→ returned",
      cancel: "A partly returned loan form cannot be cancelled",
    });
    expect(partly.out.cancel).toBe("Goods of this loan were returned or sold; it cannot be cancelled");
  });

  it("settles from its lines: out, partly returned, overdue, returned, converted to sale", () => {
    const at = (l: object[], today = "2026-06-01") =>
      settleStatus(LOAN_FORM, doc("out", l, "2026-06-30", today), "out");
    expect(at([line()])).toBe("out");
    expect(at([line("2")])).toBe("partly_returned");
    expect(at([line("2")], "2026-07-01")).toBe("overdue");
    expect(at([line("5")], "2026-07-01")).toBe("returned");
    expect(at([line("2", "3")])).toBe("converted");
    expect(stillOut(line("2", "1"))).toBe("2");
  });

  it("returns at most what is still out, and asks for at least one", () => {
    const out = doc("partly_returned", [line("2", "1")]);
    const ret = (qty: string) =>
      decideTransition(LOAN_FORM, out, "return", everyone, { values: { qty_returned: [{ line_id: 1, qty }] } });
    expect(ret("3")).toMatchObject({ message: "Line 1: at most 2 can be returned, not 3" });
    expect(ret("0")).toMatchObject({ message: "Give the quantity returned on at least one line" });
    expect(ret("2")).toMatchObject({ allowed: true, to: "converted" }); // 3 back, 1 sold: all settled, some sold
    expect(ret("1")).toMatchObject({ allowed: true, to: "partly_returned" });
  });

  it("leaves to sell what is neither returned nor sold", () => {
    expect(remaining({ id: "1", qty: "5", qty_returned: "2", qty_sold: "1" }, "qty_sold")).toBe("2");
    expect(remaining({ id: "1", qty: "5", qty_returned: "5" }, "qty_sold")).toBe("0");
  });
});
