import { describe, expect, it } from "vitest";
import { act, customer, draft, ok, rpc } from "./documents-helpers.ts";

// Issue 21 §2, what the probe found: dates outside 1900–2099 posted to the ledger (JE-9999-00001) or answered 500
// (0001-01-01); "NaN", "Infinity", "1e3" and 1e20 as amounts and quantities answered 500 or the database's overflow
// message; a quantity finer than the column keeps was rounded to 0. Each is a 422 naming the field, and changes
// nothing.
const FINANCE = "finance@demo.test";
const OWNER = "owner@demo.test";

type Issue = { field: string; message: string };
const field = (body: unknown, name: string) =>
  ((body as { details?: Issue[] }).details ?? []).find((i) => i.field === name)?.message;

describe("command inputs are checked before anything runs", () => {
  it("refuses journal and payment dates outside 1900–2099, naming the field", async () => {
    for (const date of ["1899-12-31", "2100-01-01", "9999-12-31", "0001-01-01"]) {
      const journal = await rpc(FINANCE, "journal_post", {
        date,
        memo: "Out of range",
        lines: [
          { account_code: "6100", debit: "1.00", credit: "0" },
          { account_code: "1010", debit: "0", credit: "1.00" },
        ],
      });
      expect(journal.status, `${date}: ${journal.text}`).toBe(422);
      expect(field(journal.body, "date")).toBe("The date must be between 1900 and 2099");
      const payment = await rpc(FINANCE, "record_payment", {
        type: "receipt",
        company_id: await customer(FINANCE),
        amount: "10.00",
        date,
        method: "bank_transfer",
      });
      expect(payment.status, `${date}: ${payment.text}`).toBe(422);
      expect(field(payment.body, "date")).toBe("The date must be between 1900 and 2099");
    }
  });

  it("refuses amounts that are not plain numbers or do not fit, naming the field", async () => {
    const company_id = await customer(FINANCE);
    const cases: Array<[unknown, string]> = [
      ["NaN", "The amount must be a number like 12.50"],
      ["Infinity", "The amount must be a number like 12.50"],
      ["1e3", "The amount must be a number like 12.50"],
      [1e20, "The amount is too large"],
      ["100000000000000000000", "The amount is too large"],
      ["10.005", "The amount 10.005 has more than 2 decimals"],
    ];
    for (const [amount, message] of cases) {
      const res = await rpc(FINANCE, "record_payment", {
        type: "receipt",
        company_id,
        amount,
        date: "2026-11-02",
        method: "bank_transfer",
      });
      expect(res.status, `${amount}: ${res.text}`).toBe(422);
      expect(field(res.body, "amount"), String(amount)).toBe(message);
      expect(res.text).not.toMatch(/22003|overflow|stack/);
    }
  });

  it("refuses a converted quantity that is not a number or finer than a quantity keeps", async () => {
    const order = await draft(OWNER, "sales_order");
    expect((await act(OWNER, "sales_order", order.id, "submit")).status).toBe(200);
    const line = order.lines[0] as { id: number };
    for (const [qty, message] of [
      ["NaN", "The quantity must be a number like 12.50"],
      ["0.000000001", "The quantity can have at most 3 decimals"],
    ]) {
      const res = await rpc(OWNER, "document_convert", {
        type: "sales_order",
        id: order.id,
        to: "delivery_order",
        lines: [{ line_id: line.id, qty }],
      });
      expect(res.status, `${qty}: ${res.text}`).toBe(422);
      expect(field(res.body, "lines.0.qty")).toBe(message);
    }
    // A quantity that fits still converts.
    const made = await ok(OWNER, "document_convert", {
      type: "sales_order",
      id: order.id,
      to: "delivery_order",
      lines: [{ line_id: line.id, qty: "1.5" }],
    });
    expect((made.lines as Array<{ qty: string }>)[0].qty).toMatch(/^1\.50*$/);
  });
});
