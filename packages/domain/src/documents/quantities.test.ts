import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec } from "./decimal.ts";
import {
  checkOverflow,
  invoicePaymentStatus,
  outstandingAmount,
  percentDone,
  progress,
  recomputeQuantities,
  remaining,
  type SourceLine,
  salesOrderStatus,
} from "./quantities.ts";

const order: SourceLine[] = [
  { id: "a", qty: "10.000", qty_delivered: "6.000" },
  { id: "b", qty: "5", qty_delivered: "0" },
  { id: "c", qty: "2.5" },
];

describe("recomputing quantities from the submitted targets (STYLE: never incrementing)", () => {
  const deliveries = [
    { source_line_id: "a", qty: "4" },
    { source_line_id: "a", qty: "2.5" },
    { source_line_id: "c", qty: "2.500" },
    { source_line_id: "elsewhere", qty: "9" }, // another order's line
    { source_line_id: null, qty: "1" }, // a free line on the delivery
  ];

  it("sets each source line's field to the sum of the lines that link to it", () => {
    const lines = recomputeQuantities(order, deliveries, "qty_delivered");
    expect(lines.map((l) => [l.id, l.qty_delivered])).toEqual([
      ["a", "6.5"],
      ["b", "0"],
      ["c", "2.5"],
    ]);
    expect(lines[0]).toMatchObject({ id: "a", qty: "10.000" });
  });

  it("is harmless to run again, and a cancelled target simply stops counting", () => {
    const once = recomputeQuantities(order, deliveries, "qty_delivered");
    expect(recomputeQuantities(once, deliveries, "qty_delivered")).toEqual(once);
    const afterCancel = recomputeQuantities(once, deliveries.slice(1), "qty_delivered");
    expect(afterCancel[0].qty_delivered).toBe("2.5");
    expect(recomputeQuantities(once, [], "qty_delivered").map((l) => l.qty_delivered)).toEqual(["0", "0", "0"]);
  });

  it("touches only the field it is asked about", () => {
    const lines = recomputeQuantities(order, [{ source_line_id: "b", qty: "5" }], "qty_billed");
    expect(lines[1]).toEqual({ id: "b", qty: "5", qty_delivered: "0", qty_billed: "5" });
  });
});

describe("percent and Not/Partly/Fully", () => {
  it("caps each line so an over-delivered line cannot hide a short one", () => {
    const lines: SourceLine[] = [
      { id: "a", qty: "10", qty_delivered: "15" },
      { id: "b", qty: "10", qty_delivered: "0" },
    ];
    expect(percentDone(lines, "qty_delivered")).toBe("50");
    expect(progress(lines, "qty_delivered")).toBe("partly");
  });

  it("rounds the percent down, so nearly done never shows 100", () => {
    expect(percentDone([{ id: "a", qty: "3", qty_delivered: "2" }], "qty_delivered")).toBe("66.66");
    expect(percentDone([{ id: "a", qty: "100000", qty_delivered: "99999.999" }], "qty_delivered")).toBe("99.99");
    expect(percentDone([{ id: "a", qty: "4", qty_delivered: "4.000" }], "qty_delivered")).toBe("100");
    expect(percentDone([], "qty_delivered")).toBe("100");
  });

  it("says not, partly or fully", () => {
    expect(progress(order, "qty_billed")).toBe("not");
    expect(progress(order, "qty_delivered")).toBe("partly");
    expect(progress([{ id: "a", qty: "2", qty_delivered: "2" }], "qty_delivered")).toBe("fully");
    expect(progress([{ id: "a", qty: "-2", qty_returned: "-2" }], "qty_returned")).toBe("fully");
  });
});

describe("what is left", () => {
  it("is qty plus the allowance less what is done, never below 0", () => {
    expect(remaining(order[0], "qty_delivered")).toBe("4");
    expect(remaining(order[0], "qty_delivered", "10")).toBe("5");
    expect(remaining(order[2], "qty_delivered")).toBe("2.5");
    expect(remaining({ id: "x", qty: "10", qty_delivered: "12" }, "qty_delivered")).toBe("0");
    expect(() => remaining(order[0], "qty_delivered", "-5")).toThrow("The allowance cannot be negative");
  });

  it("refuses an over-delivery naming the line and what is left", () => {
    expect(checkOverflow(order, [{ source_line_id: "a", qty: "5" }], "qty_delivered")).toBe(
      "Only 4 of 10 are left to deliver on line 1",
    );
    expect(checkOverflow(order, [{ source_line_id: "a", qty: "4" }], "qty_delivered")).toBeNull();
    expect(checkOverflow(order, [{ source_line_id: "c", qty: "2.501" }], "qty_delivered")).toBe(
      "Only 2.5 are left to deliver on line 3, not 2.501",
    );
  });

  it("adds up requested lines that draw on the same source line", () => {
    const split = [
      { source_line_id: "a", qty: "2" },
      { source_line_id: "a", qty: "2.5" },
    ];
    expect(checkOverflow(order, split, "qty_delivered")).toBe("Only 4 of 10 are left to deliver on line 1");
  });

  it("speaks of one, of nothing, and of the allowance", () => {
    const one: SourceLine[] = [{ id: "a", qty: "3", qty_billed: "2" }];
    expect(checkOverflow(one, [{ source_line_id: "a", qty: "2" }], "qty_billed")).toBe(
      "Only 1 of 3 is left to bill on line 1",
    );
    const none: SourceLine[] = [{ id: "a", qty: "10", qty_delivered: "10.000" }];
    expect(checkOverflow(none, [{ source_line_id: "a", qty: "1" }], "qty_delivered")).toBe(
      "Nothing is left to deliver on line 1: 10 of 10 delivered",
    );
    expect(checkOverflow(order, [{ source_line_id: "a", qty: "6" }], "qty_delivered", "10.0")).toBe(
      "Only 5 of 10 are left to deliver on line 1, with the 10% allowance",
    );
    expect(checkOverflow(order, [{ source_line_id: "a", qty: "5" }], "qty_delivered", "10")).toBeNull();
    const returns: SourceLine[] = [{ id: "d", qty: "8", qty_returned: "5" }];
    expect(checkOverflow(returns, [{ source_line_id: "d", qty: "4" }], "qty_returned")).toBe(
      "Only 3 of 8 are left to return on line 1",
    );
  });

  it("refuses a line that is not on the source and ignores free lines", () => {
    expect(checkOverflow(order, [{ source_line_id: null, qty: "99" }], "qty_delivered")).toBeNull();
    expect(
      checkOverflow(
        order,
        [
          { source_line_id: "a", qty: "1" },
          { source_line_id: "zz", qty: "1" },
        ],
        "qty_delivered",
      ),
    ).toBe("Line 2 is not on the source document");
  });

  it("never lets an accepted request pass the cap (property)", () => {
    const qty = fc.integer({ min: 0, max: 100_000 }).map((n) => new Dec(n).dividedBy(1000).toFixed());
    fc.assert(
      fc.property(qty, qty, fc.array(qty, { maxLength: 6 }), fc.constantFrom("0", "5", "10"), (q, d, asks, a) => {
        let lines: SourceLine[] = [{ id: "a", qty: q, qty_delivered: d }];
        const taken = [{ source_line_id: "a", qty: d }];
        for (const ask of asks) {
          if (checkOverflow(lines, [{ source_line_id: "a", qty: ask }], "qty_delivered", a) !== null) continue;
          taken.push({ source_line_id: "a", qty: ask });
          lines = recomputeQuantities(lines, taken, "qty_delivered");
        }
        const cap = new Dec(q).times(new Dec(a).plus(100)).dividedBy(100);
        const total = new Dec(lines[0].qty_delivered ?? "0");
        expect(total.lessThanOrEqualTo(Dec.max(cap, d))).toBe(true);
      }),
    );
  });
});

describe("sales order status from its lines (issue 10 §2)", () => {
  const line = (qty: string, qty_delivered: string, qty_billed: string, deliverable?: boolean) => ({
    id: qty + qty_delivered + qty_billed,
    qty,
    qty_delivered,
    qty_billed,
    deliverable,
  });

  it("follows delivered and billed quantities", () => {
    expect(salesOrderStatus([line("10", "0", "0")])).toBe("to_deliver_and_bill");
    expect(salesOrderStatus([line("10", "4", "4")])).toBe("to_deliver_and_bill");
    expect(salesOrderStatus([line("10", "10", "4")])).toBe("to_bill");
    expect(salesOrderStatus([line("10", "4", "10")])).toBe("to_deliver");
    expect(salesOrderStatus([line("10", "10", "10"), line("2", "3", "2")])).toBe("completed");
  });

  it("does not wait for a service to be delivered", () => {
    expect(salesOrderStatus([line("10", "10", "0"), line("1", "0", "0", false)])).toBe("to_bill");
    expect(salesOrderStatus([line("1", "0", "1", false)])).toBe("completed");
  });
});

describe("invoice payment status (issue 10 §2)", () => {
  const inv = (
    total: string,
    outstanding: string,
    due_date: string | null = "2026-03-31",
    credited: string | null = null,
  ) => ({
    total,
    outstanding,
    due_date,
    credited,
  });

  it("comes from outstanding, the due date and today", () => {
    expect(invoicePaymentStatus(inv("109.00", "109.00"), "2026-03-01")).toBe("unpaid");
    expect(invoicePaymentStatus(inv("109.00", "50.00"), "2026-03-31")).toBe("partly_paid"); // due today: not late
    expect(invoicePaymentStatus(inv("109.00", "50.00"), "2026-04-01")).toBe("overdue");
    expect(invoicePaymentStatus(inv("109.00", "109.00"), "2026-04-01T09:00:00+08:00")).toBe("overdue");
    expect(invoicePaymentStatus(inv("109.00", "0.00"), "2026-05-01")).toBe("paid");
    expect(invoicePaymentStatus(inv("109.00", "-10.00"), "2026-05-01")).toBe("paid"); // overpaid
    expect(invoicePaymentStatus(inv("0.00", "0.00"), "2026-05-01")).toBe("paid");
    expect(invoicePaymentStatus(inv("109.00", "0.00", "2026-03-31", "109.00"), "2026-05-01")).toBe(
      "credit_note_issued",
    );
    expect(invoicePaymentStatus(inv("109.00", "109.00", null), "2030-01-01")).toBe("unpaid");
    // Credited in part, nothing paid: still unpaid on the rest; paid in part after the credit: partly paid.
    expect(invoicePaymentStatus(inv("103.33", "16.32", null, "87.01"), "2026-05-01")).toBe("unpaid");
    expect(invoicePaymentStatus(inv("103.33", "10.00", null, "87.01"), "2026-05-01")).toBe("partly_paid");
    expect(() => invoicePaymentStatus(inv("1", "1", "31/03/2026"), "2026-04-01")).toThrow("Not an ISO date");
  });

  it("recomputes outstanding from payments, credit and debit notes", () => {
    expect(outstandingAmount("109.00")).toBe("109.00");
    expect(outstandingAmount("109.00", { allocated: ["50", "9.5"] })).toBe("49.50");
    expect(outstandingAmount("109.00", { allocated: ["50"], credited: ["59"], debited: ["10.90"] })).toBe("10.90");
    expect(outstandingAmount("109.00", { allocated: ["120"] })).toBe("-11.00");
  });
});
