import { describe, expect, it } from "vitest";
import { PAYABLE, paidBy, paymentOffer, showsPayments } from "./payments.ts";

describe("the payment a document's page offers", () => {
  it("is a receipt on an invoice, a debit note or a progressive claim that still owes something", () => {
    expect(paymentOffer("invoice", "partly_paid", "120.50")).toBe(PAYABLE.invoice);
    expect(paymentOffer("debit_note", "overdue", "10.00")).toBe(PAYABLE.debit_note);
    expect(paymentOffer("progressive_claim", "claimed", "28500.00")).toBe(PAYABLE.progressive_claim);
    expect(paymentOffer("progressive_claim", "certified", "0.01")?.payment).toBe("receipt");
  });

  it("is nothing for a draft, a paid or cancelled document, nothing outstanding, or a type no receipt pays", () => {
    expect(paymentOffer("invoice", "draft", "100.00")).toBeNull();
    expect(paymentOffer("invoice", "paid", "0.00")).toBeNull();
    expect(paymentOffer("invoice", "unpaid", "0.00")).toBeNull();
    expect(paymentOffer("debit_note", "cancelled", "10.00")).toBeNull();
    expect(paymentOffer("progressive_claim", "draft", "100.00")).toBeNull();
    expect(paymentOffer("invoice", "unpaid", null)).toBeNull();
    expect(paymentOffer("credit_note", "unpaid", "10.00")).toBeNull();
    expect(paymentOffer("sales_order", "to_bill", "10.00")).toBeNull();
  });
});

describe("what paid a document (its Payments panel)", () => {
  it("is shown on every payable type once submitted: invoice, debit note, progressive claim", () => {
    expect(["invoice", "debit_note", "progressive_claim"].map((t) => showsPayments(t, "paid", "draft"))).toEqual([
      true,
      true,
      true,
    ]);
    expect(showsPayments("debit_note", "draft", "draft")).toBe(false);
    expect(showsPayments("sales_order", "completed", "draft")).toBe(false);
  });

  it("names each allocation's receipt or credit note, in the allocations' order", () => {
    const rct = { id: 42, number: "RCT-2026-00042", doc_date: "2026-06-01", method: "paynow", reference: "X1" };
    const cn = { id: 3, number: "CN-2026-00003", doc_date: "2026-05-20" };
    const rows = paidBy(
      [
        { id: 1, payment_type: "credit_note", payment_id: 3, amount: "10.00" },
        { id: 2, payment_type: "receipt", payment_id: 42, amount: "82.65" },
        { id: 3, payment_type: "supplier_payment", payment_id: 42, amount: "1.00" },
      ],
      { receipt: [rct], credit_note: [cn] },
    );
    expect(rows).toEqual([
      { id: 1, kind: "credit_note", payer: cn, amount: "10.00" },
      { id: 2, kind: "receipt", payer: rct, amount: "82.65" },
    ]);
  });
});
