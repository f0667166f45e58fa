import { describe, expect, it } from "vitest";
import { decideTransition, transitionMatrix } from "../machine.ts";
import { PURCHASE_ORDER, purchaseOrderStatus } from "./purchase-order.ts";
import type { DocSnapshot } from "./snapshot.ts";
import { SUPPLIER_DELIVERY_ORDER } from "./supplier-delivery-order.ts";
import { SUPPLIER_INVOICE } from "./supplier-invoice.ts";

// Issue 11: the buying types' transition matrices, every (status, action) pair spelled out, and the purchase order's
// status from its quantities and its approval threshold.

const doc = (
  status: string,
  header: Record<string, unknown> = {},
  lines: Record<string, unknown>[] = [{ id: 1, qty: "2" }],
  settings?: Record<string, unknown>,
): DocSnapshot => ({ status, today: "2026-06-01", header, lines, settings });

const row = (
  article: string,
  words: string,
  title: string,
  past: Record<string, string>,
  allowed: Record<string, string>,
) =>
  Object.fromEntries(
    Object.entries(past).map(([action, p]) => [
      action,
      allowed[action] ?? `${article} ${words} ${title} cannot be ${p}`,
    ]),
  );

describe("the purchase order matrix", () => {
  const past = {
    submit: "submitted",
    approve: "approved",
    reject: "sent back",
    close: "closed",
    reopen: "reopened",
    cancel: "cancelled",
  };
  const po = (a: string, w: string, allowed: Record<string, string> = {}) => row(a, w, "purchase order", past, allowed);
  it("below the approval threshold", () => {
    expect(transitionMatrix(PURCHASE_ORDER, { doc: (s) => doc(s, { base_total: "500" }) })).toEqual({
      draft: po("A", "draft", { submit: "→ to_receive_and_bill", cancel: "→ cancelled" }),
      pending_approval: po("A", "pending", {
        approve: "→ to_receive_and_bill",
        reject: "→ draft",
        cancel: "→ cancelled",
      }),
      to_receive_and_bill: po("An", "open", { close: "→ closed", cancel: "→ cancelled" }),
      to_receive: po("An", "open", { close: "→ closed", cancel: "→ cancelled" }),
      to_bill: po("An", "open", { close: "→ closed", cancel: "→ cancelled" }),
      completed: po("A", "completed"),
      closed: po("A", "closed", { reopen: "→ to_receive_and_bill" }),
      cancelled: po("A", "cancelled"),
    });
  });

  it("submits above the threshold to Pending approval; at the threshold straight to the open status", () => {
    const settings = { po_approval_threshold: "500" };
    const above = decideTransition(
      PURCHASE_ORDER,
      doc("draft", { base_total: "500.01" }, undefined, settings),
      "submit",
      {
        kind: "member",
        permissions: ["*"],
        features: ["erp"],
      },
    );
    expect(above).toMatchObject({ allowed: true, to: "pending_approval" });
    const at = decideTransition(PURCHASE_ORDER, doc("draft", { base_total: "500" }, undefined, settings), "submit", {
      kind: "member",
      permissions: ["*"],
      features: ["erp"],
    });
    expect(at).toMatchObject({ allowed: true, to: "to_receive_and_bill" });
    // Approving lands on the figures whatever the total.
    const approved = decideTransition(
      PURCHASE_ORDER,
      doc("pending_approval", { base_total: "9000" }, [{ id: 1, qty: "2", qty_received: "2" }], settings),
      "approve",
      { kind: "member", permissions: ["purchase_order.approve"], features: ["erp"] },
    );
    expect(approved).toMatchObject({ allowed: true, to: "to_bill" });
    const buyer = decideTransition(PURCHASE_ORDER, doc("pending_approval"), "approve", {
      kind: "member",
      permissions: ["purchase_order.submit"],
      features: ["erp"],
    });
    expect(buyer).toMatchObject({ allowed: false, message: expect.stringContaining("approve this purchase order") });
  });

  it("cancel waits for nothing received or billed", () => {
    const d = doc("to_receive_and_bill", {}, [{ id: 1, qty: "2", qty_received: "1" }]);
    expect(transitionMatrix(PURCHASE_ORDER, { doc: () => d }).to_receive_and_bill.cancel).toBe(
      "Part of this purchase order is received or billed: cancel those documents first, or close the order",
    );
  });

  it("status follows received and billed quantities; services are only billed", () => {
    const l = (qty: string, received: string, billed: string, receivable = true) => ({
      id: "1",
      qty,
      qty_received: received,
      qty_billed: billed,
      receivable,
    });
    expect(purchaseOrderStatus([l("10", "0", "0")])).toBe("to_receive_and_bill");
    expect(purchaseOrderStatus([l("10", "4", "10")])).toBe("to_receive");
    expect(purchaseOrderStatus([l("10", "10", "4")])).toBe("to_bill");
    expect(purchaseOrderStatus([l("10", "10", "10"), l("1", "0", "1", false)])).toBe("completed");
    expect(purchaseOrderStatus([l("10", "10", "10"), l("1", "0", "0", false)])).toBe("to_bill");
  });
});

describe("the supplier delivery order matrix", () => {
  it("made from a purchase order", () => {
    const past = { submit: "submitted", cancel: "cancelled" };
    const sdo = (a: string, w: string, allowed: Record<string, string> = {}) =>
      row(a, w, "supplier delivery order", past, allowed);
    expect(
      transitionMatrix(SUPPLIER_DELIVERY_ORDER, { doc: (s) => doc(s, { source_type: "purchase_order" }) }),
    ).toEqual({
      draft: sdo("A", "draft", { submit: "→ to_bill", cancel: "→ cancelled" }),
      to_bill: sdo("A", "submitted", { cancel: "→ cancelled" }),
      completed: sdo("A", "completed", { cancel: "→ cancelled" }),
      cancelled: sdo("A", "cancelled"),
    });
    expect(transitionMatrix(SUPPLIER_DELIVERY_ORDER, { doc: (s) => doc(s) }).draft.submit).toBe(
      "A supplier delivery order is made from a purchase order: receive the goods from their order",
    );
  });
});

describe("the supplier invoice matrix", () => {
  const past = { submit: "submitted", release: "released to pay", cancel: "cancelled" };
  const sinv = (a: string, w: string, allowed: Record<string, string> = {}) =>
    row(a, w, "supplier invoice", past, allowed);
  const header = { supplier_invoice_number: "INV-1", match_status: "exception", total: "10", outstanding: "10" };
  it("with an exception waiting for release", () => {
    const open = { release: "→ unpaid", cancel: "→ cancelled" };
    expect(transitionMatrix(SUPPLIER_INVOICE, { doc: (s) => doc(s, header) })).toEqual({
      draft: sinv("A", "draft", { submit: "→ unpaid", cancel: "→ cancelled" }),
      unpaid: sinv("An", "unpaid", open),
      partly_paid: sinv("A", "partly paid", open),
      paid: sinv("A", "paid", open),
      overdue: sinv("An", "overdue", open),
      cancelled: sinv("A", "cancelled"),
    });
  });

  it("needs the supplier's number to submit, a reason to release, and an exception to release", () => {
    const m = (h: Record<string, unknown>, reason: string | null = "A reason") =>
      transitionMatrix(SUPPLIER_INVOICE, { doc: (s) => doc(s, { ...header, ...h }), reason });
    expect(m({ supplier_invoice_number: " " }).draft.submit).toBe(
      "Give the supplier's invoice number before submitting",
    );
    expect(m({}, null).unpaid.release).toBe("Give a reason to release it to pay despite its exceptions");
    expect(m({ match_status: "matched" }).unpaid.release).toBe(
      "This supplier invoice passed the three-way check: it needs no release",
    );
    expect(m({ match_status: "released" }).unpaid.release).toBe("This supplier invoice is already released to pay");
  });
});
