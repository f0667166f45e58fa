import { describe, expect, it } from "vitest";
import type { Member } from "../../access.ts";
import { decideTransition, settleStatus, transitionMatrix } from "../machine.ts";
import { DELIVERY_ORDER } from "./delivery-order.ts";
import { INVOICE } from "./invoice.ts";
import { QUOTATION } from "./quotation.ts";
import { SALES_ORDER } from "./sales-order.ts";
import type { DocSnapshot } from "./snapshot.ts";

// Each type's transition matrix, every (status, action) pair spelled out (STYLE "Transitions validated at load and
// tested as a matrix"); the API tests check the server answers the same.

const doc = (status: string, header: Record<string, unknown> = {}, lines = [{ id: 1, qty: "2" }]): DocSnapshot => ({
  status,
  today: "2026-06-01",
  header,
  lines,
});

describe("the quotation matrix", () => {
  it("a quotation with a line, past its valid-until date", () => {
    expect(transitionMatrix(QUOTATION, { doc: (s) => doc(s, { valid_until: "2026-05-31" }) })).toEqual({
      draft: {
        submit: "→ sent",
        mark_won: "A draft quotation cannot be marked won",
        mark_lost: "A draft quotation cannot be marked lost",
        expire: "A draft quotation cannot be expired",
        cancel: "→ cancelled",
      },
      sent: {
        submit: "A sent quotation cannot be marked as sent",
        mark_won: "→ won",
        mark_lost: "→ lost",
        expire: "→ expired",
        cancel: "→ cancelled",
      },
      won: {
        submit: "A won quotation cannot be marked as sent",
        mark_won: "A won quotation cannot be marked won",
        mark_lost: "A won quotation cannot be marked lost",
        expire: "A won quotation cannot be expired",
        cancel: "A won quotation cannot be cancelled",
      },
      lost: {
        submit: "A lost quotation cannot be marked as sent",
        mark_won: "A lost quotation cannot be marked won",
        mark_lost: "A lost quotation cannot be marked lost",
        expire: "A lost quotation cannot be expired",
        cancel: "A lost quotation cannot be cancelled",
      },
      expired: {
        submit: "An expired quotation cannot be marked as sent",
        mark_won: "An expired quotation cannot be marked won",
        mark_lost: "→ lost",
        expire: "An expired quotation cannot be expired",
        cancel: "An expired quotation cannot be cancelled",
      },
      cancelled: {
        submit: "A cancelled quotation cannot be marked as sent",
        mark_won: "A cancelled quotation cannot be marked won",
        mark_lost: "A cancelled quotation cannot be marked lost",
        expire: "A cancelled quotation cannot be expired",
        cancel: "A cancelled quotation cannot be cancelled",
      },
    });
  });

  it("guards: no lines, still valid, no date; a reason to lose it", () => {
    const m = transitionMatrix(QUOTATION, { doc: (s) => doc(s, { valid_until: "2026-06-01" }, []), reason: null });
    expect(m.draft.submit).toBe("Add a line before sending the quotation");
    expect(m.sent.expire).toBe("This quotation is valid until 2026-06-01");
    expect(m.sent.mark_lost).toBe("Give a reason to mark it lost");
    expect(transitionMatrix(QUOTATION, { doc: (s) => doc(s) }).sent.expire).toBe(
      "This quotation has no valid-until date, so it does not expire",
    );
  });
});

describe("the sales order matrix", () => {
  it("an order with nothing delivered or billed", () => {
    const m = transitionMatrix(SALES_ORDER, { doc: (s) => doc(s) });
    expect(m.draft).toEqual({
      submit: "→ to_deliver_and_bill",
      hold: "A draft sales order cannot be put on hold",
      resume: "A draft sales order cannot be resumed",
      close: "A draft sales order cannot be closed",
      reopen: "A draft sales order cannot be reopened",
      cancel: "→ cancelled",
    });
    expect(m.to_deliver_and_bill).toEqual({
      submit: "An open sales order cannot be submitted",
      hold: "→ on_hold",
      resume: "An open sales order cannot be resumed",
      close: "→ closed",
      reopen: "An open sales order cannot be reopened",
      cancel: "→ cancelled",
    });
    expect(m.on_hold).toEqual({
      submit: "An on hold sales order cannot be submitted",
      hold: "An on hold sales order cannot be put on hold",
      resume: "→ to_deliver_and_bill",
      close: "→ closed",
      reopen: "An on hold sales order cannot be reopened",
      cancel: "→ cancelled",
    });
    expect(m.closed).toEqual({
      submit: "A closed sales order cannot be submitted",
      hold: "A closed sales order cannot be put on hold",
      resume: "A closed sales order cannot be resumed",
      close: "A closed sales order cannot be closed",
      reopen: "→ to_deliver_and_bill",
      cancel: "A closed sales order cannot be cancelled",
    });
    for (const s of ["completed", "cancelled"]) {
      expect(
        Object.values(m[s as "completed"]).every((v) => !v.startsWith("→")),
        s,
      ).toBe(true);
    }
  });

  it("settles open statuses from the quantities; cancel waits for deliveries and invoices", () => {
    const delivered = [{ id: 1, qty: "2", qty_delivered: "2", qty_billed: "0" }];
    const m = transitionMatrix(SALES_ORDER, { doc: (s) => doc(s, {}, delivered) });
    expect(m.on_hold.resume).toBe("→ to_bill");
    expect(m.to_bill.cancel).toBe(
      "Part of this sales order is delivered or billed: cancel those documents first, or close the order",
    );
    const services = [{ id: 1, qty: "1", service_id: 5, qty_billed: "0" }];
    expect(transitionMatrix(SALES_ORDER, { doc: (s) => doc(s, {}, services) }).draft.submit).toBe("→ to_bill");
  });
});

const EVERYONE: Member = { kind: "member", permissions: ["*"], features: ["erp"] };

describe("the delivery order matrix", () => {
  it("submits to To Bill, Completed once billed; cancel from any status but cancelled", () => {
    const m = transitionMatrix(DELIVERY_ORDER, {
      doc: (s) => doc(s, {}, [{ id: 1, qty: "2", qty_billed: "0" } as never]),
    });
    // complete and assign_driver ask for their inputs; the status stays what billing makes it.
    const received = "Give the name of the person who received the goods";
    const driver = "Choose the driver to assign";
    expect(m).toEqual({
      draft: {
        submit: "→ to_bill",
        complete: "A draft delivery order cannot be marked delivered",
        assign_driver: "A draft delivery order cannot be given a driver",
        cancel: "→ cancelled",
      },
      to_bill: {
        submit: "A submitted delivery order cannot be submitted",
        complete: received,
        assign_driver: driver,
        cancel: "→ cancelled",
      },
      completed: {
        submit: "A completed delivery order cannot be submitted",
        complete: received,
        assign_driver: driver,
        cancel: "→ cancelled",
      },
      cancelled: {
        submit: "A cancelled delivery order cannot be submitted",
        complete: "A cancelled delivery order cannot be marked delivered",
        assign_driver: "A cancelled delivery order cannot be given a driver",
        cancel: "A cancelled delivery order cannot be cancelled",
      },
    });
    const handed = doc("completed", { received_by: "Tan", received_at: "2026-11-20T01:30:00Z" }, []);
    expect(
      decideTransition(DELIVERY_ORDER, handed, "complete", EVERYONE, { values: { received_by: "X" } }),
    ).toMatchObject({
      allowed: false,
      message: "This delivery order was received by Tan on 2026-11-20",
    });
    const open = doc("completed", {}, [{ id: 1, qty: "2", qty_billed: "2" } as never]);
    expect(
      decideTransition(DELIVERY_ORDER, open, "complete", EVERYONE, {
        values: { received_by: " Tan ", received_at: "2026-11-20T09:30:00+08:00" },
      }),
    ).toMatchObject({
      allowed: true,
      to: "completed",
      values: { received_by: "Tan", received_at: "2026-11-20T01:30:00.000Z" },
    });
    const billed = doc("to_bill", {}, [{ id: 1, qty: "2", qty_billed: "2" } as never]);
    expect(settleStatus(DELIVERY_ORDER, billed, "to_bill")).toBe("completed");
  });
});

describe("the invoice matrix", () => {
  it("a submitted invoice owes its total; its status follows outstanding and the due date", () => {
    const m = transitionMatrix(INVOICE, { doc: (s) => doc(s, { total: "10.00", outstanding: "0.00" }) });
    expect(m.draft).toEqual({ submit: "→ unpaid", cancel: "→ cancelled" });
    expect(m.paid).toEqual({
      submit: "A paid invoice cannot be submitted",
      cancel: "10.00 of 10.00 is paid: an invoice with a payment allocated cannot be cancelled",
    });
    expect(m.cancelled.cancel).toBe("A cancelled invoice cannot be cancelled");
    const at = (outstanding: string, due: string) =>
      settleStatus(INVOICE, doc("unpaid", { total: "10.00", outstanding, due_date: due }), "unpaid");
    expect([
      at("10.00", "2026-06-01"),
      at("4.00", "2026-06-01"),
      at("0.00", "2026-05-01"),
      at("4.00", "2026-05-31"),
    ]).toEqual(["unpaid", "partly_paid", "paid", "overdue"]);
  });
});

describe("cancelling an invoice (finding 3: no Cancel that only leads to a refusal)", () => {
  const cancel = (status: string, header: Record<string, unknown>) =>
    decideTransition(INVOICE, doc(status, header), "cancel", EVERYONE);

  it("is refused while a receipt or a credit note's credit pays any of it, with how much", () => {
    expect(cancel("partly_paid", { total: "100.00", outstanding: "60.00" })).toMatchObject({
      allowed: false,
      reason: "guard",
      message: "40.00 of 100.00 is paid: an invoice with a payment allocated cannot be cancelled",
    });
    expect(cancel("unpaid", { total: "100.00", outstanding: "100.00" }).allowed).toBe(true);
    expect(cancel("draft", { total: "100.00", outstanding: null }).allowed).toBe(true);
    expect(cancel("paid", { total: "100.00", outstanding: "0.00", credited: "30.00" })).toMatchObject({
      message: "30.00 of this invoice is credited: cancel the credit note against it first",
    });
  });
});

describe("whose a document is (issue 10 §3)", () => {
  it("the machine's owner is the column the access rule reads own rows by, for the header and its lines", async () => {
    const { CATALOG } = await import("../../resources/catalog.ts");
    for (const type of [QUOTATION, SALES_ORDER, DELIVERY_ORDER]) {
      const header = CATALOG[type.type as keyof typeof CATALOG] as { ownerColumn?: string };
      const lines = CATALOG[`${type.type}_line` as keyof typeof CATALOG] as {
        ownerColumn?: string;
        ownerParent?: { table: string };
      };
      expect([header.ownerColumn, lines.ownerColumn, lines.ownerParent?.table]).toEqual([
        type.owner?.column,
        type.owner?.column,
        type.type,
      ]);
    }
  });
});
