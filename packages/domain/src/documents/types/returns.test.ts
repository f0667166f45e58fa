import { describe, expect, it } from "vitest";
import { settleStatus, transitionMatrix } from "../machine.ts";
import { CREDIT_NOTE } from "./credit-note.ts";
import { DEBIT_NOTE } from "./debit-note.ts";
import { GOODS_RETURN_NOTE } from "./goods-return-note.ts";
import { INVOICE } from "./invoice.ts";
import type { DocSnapshot } from "./snapshot.ts";

// The returns' matrices, every (status, action) pair spelled out; the API tests check the server answers the same.
const doc = (status: string, header: Record<string, unknown> = {}, lines: object[] = [{ id: 1, qty: "2" }]) =>
  ({ status, today: "2026-06-01", header, lines }) as DocSnapshot;

describe("the credit note matrix", () => {
  it("issues from draft; cancel from draft or issued; an invoice is needed", () => {
    expect(transitionMatrix(CREDIT_NOTE, { doc: (s) => doc(s, { invoice_id: 7 }) })).toEqual({
      draft: { submit: "→ issued", cancel: "→ cancelled" },
      issued: { submit: "An issued credit note cannot be issued", cancel: "→ cancelled" },
      cancelled: {
        submit: "A cancelled credit note cannot be issued",
        cancel: "A cancelled credit note cannot be cancelled",
      },
    });
    const m = transitionMatrix(CREDIT_NOTE, { doc: (s) => doc(s) });
    expect(m.draft.submit).toBe("Choose the invoice this credit note credits");
    expect(transitionMatrix(CREDIT_NOTE, { doc: (s) => doc(s, { invoice_id: 7 }, []) }).draft.submit).toBe(
      "Add a line before issuing the credit note",
    );
  });
});

describe("the debit note matrix", () => {
  it("follows its own outstanding like an invoice", () => {
    const m = transitionMatrix(DEBIT_NOTE, { doc: (s) => doc(s, { total: "10.00", outstanding: "10.00" }) });
    expect(m.draft).toEqual({ submit: "→ unpaid", cancel: "→ cancelled" });
    expect(m.partly_paid).toEqual({ submit: "A partly paid debit note cannot be submitted", cancel: "→ cancelled" });
    expect(m.cancelled.cancel).toBe("A cancelled debit note cannot be cancelled");
    const paid = transitionMatrix(DEBIT_NOTE, { doc: (s) => doc(s, { total: "92.65", outstanding: "0.00" }) });
    expect(paid.paid.cancel).toBe("92.65 of 92.65 is paid: a debit note with a payment allocated cannot be cancelled");
    const at = (outstanding: string) =>
      settleStatus(DEBIT_NOTE, doc("unpaid", { total: "10.00", outstanding, due_date: "2026-06-30" }), "unpaid");
    expect([at("10.00"), at("4.00"), at("0.00")]).toEqual(["unpaid", "partly_paid", "paid"]);
  });
});

describe("the goods return note matrix", () => {
  it("made from a delivery order, to a customer; To Credit until a credit note takes every line", () => {
    const made = { source_type: "delivery_order", direction: "customer" };
    expect(transitionMatrix(GOODS_RETURN_NOTE, { doc: (s) => doc(s, made) })).toEqual({
      draft: { submit: "→ to_credit", cancel: "→ cancelled" },
      to_credit: { submit: "A submitted goods return note cannot be submitted", cancel: "→ cancelled" },
      credited: { submit: "A credited goods return note cannot be submitted", cancel: "→ cancelled" },
      returned: { submit: "A returned goods return note cannot be submitted", cancel: "→ cancelled" },
      cancelled: {
        submit: "A cancelled goods return note cannot be submitted",
        cancel: "A cancelled goods return note cannot be cancelled",
      },
    });
    expect(transitionMatrix(GOODS_RETURN_NOTE, { doc: (s) => doc(s) }).draft.submit).toBe(
      "A goods return note is made from a delivery order",
    );
    expect(
      transitionMatrix(GOODS_RETURN_NOTE, { doc: (s) => doc(s, { ...made, direction: "supplier" }) }).draft.submit,
    ).toBe("A goods return note to a supplier is made from a supplier delivery order");
    const credited = doc("to_credit", made, [{ id: 1, qty: "2", qty_credited: "2" }]);
    expect(settleStatus(GOODS_RETURN_NOTE, credited, "to_credit")).toBe("credited");
  });
});

describe("a goods return note to a supplier", () => {
  it("is made from a supplier delivery order and is Returned to Supplier once submitted", () => {
    const made = { source_type: "supplier_delivery_order", direction: "supplier" };
    const m = transitionMatrix(GOODS_RETURN_NOTE, { doc: (s) => doc(s, made, [{ id: 1, qty: "2" }]) });
    expect(m.draft).toEqual({ submit: "→ returned", cancel: "→ cancelled" });
    expect(m.returned).toEqual({ submit: "A returned goods return note cannot be submitted", cancel: "→ cancelled" });
    expect(
      transitionMatrix(GOODS_RETURN_NOTE, { doc: (s) => doc(s, { ...made, direction: "customer" }) }).draft.submit,
    ).toBe("A goods return note is made from a delivery order");
  });
});

describe("an invoice credited", () => {
  it("shows Credit note issued once nothing is owed and a credit note settled it", () => {
    const at = (outstanding: string, credited: string) =>
      settleStatus(INVOICE, doc("unpaid", { total: "10.00", outstanding, credited }), "unpaid");
    // Credit is not payment: 6.00 credited and nothing paid leaves it unpaid on 4.00; 1.00 paid makes it partly paid.
    expect([at("0.00", "10.00"), at("0.00", "0"), at("4.00", "6.00"), at("3.00", "6.00")]).toEqual([
      "credit_note_issued",
      "paid",
      "unpaid",
      "partly_paid",
    ]);
  });
});
