import { describe, expect, it } from "vitest";
import { PAYABLE, paymentOffer } from "./payments.ts";

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
