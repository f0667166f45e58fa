import { describe, expect, it } from "vitest";
import { ok } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 21 §1 "Homes by role": dashboard_summary brings each member the figures of their work — a salesperson's
// quotations running out, a storekeeper's receipts, transfers and deliveries, finance's money due this week and the
// cash — and none of what their role may not read (the one access rule). Read-only on the suite's demo data.

type Figures = Record<string, { count: number; amount?: string; late?: number }>;
const figuresOf = async (email: string) => (await ok(email, "dashboard_summary", {})).figures as Figures;

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

describe("each role's home shows its work", () => {
  it("a salesperson: quotations expiring, no payables, no cash", async () => {
    const f = await figuresOf("sales@demo.test");
    expect(Object.keys(f)).toEqual(expect.arrayContaining(["quotations_expiring", "open_quotations"]));
    // Nor what the buyers and the warehouse receive: a salesperson reads no purchase order (least privilege).
    for (const k of ["payables_due_week", "cash_at_hand", "receivables_due_week", "receipts_due"]) {
      expect(f).not.toHaveProperty(k);
    }
    expect((await restFetch("sales@demo.test", "purchase_order?select=id&limit=1")).status).toBe(403);
    expect((await restFetch("sales@demo.test", "supplier_invoice?select=id&limit=1")).status).toBe(403);
    // Their own sent quotations valid for a week or less, as the list counts them.
    const list = await restFetch(
      "sales@demo.test",
      `quotation?select=id&status=eq.sent&valid_until=gte.${day(0)}&valid_until=lte.${day(7)}`,
    );
    expect(f.quotations_expiring.count).toBe((list.body as unknown[]).length);
  });

  it("a storekeeper: receipts due, transfers on the road, deliveries to ship — and no money", async () => {
    const f = await figuresOf("warehouse@demo.test");
    expect(Object.keys(f)).toEqual(expect.arrayContaining(["receipts_due", "transfers_in_transit"]));
    for (const k of ["sales_this_month", "receivables_due_week", "payables_due_week", "cash_at_hand"]) {
      expect(f).not.toHaveProperty(k);
    }
    const transfers = await restFetch("warehouse@demo.test", "goods_transfer_form?select=id&status=eq.in_transit");
    expect(f.transfers_in_transit.count).toBe((transfers.body as unknown[]).length);
  });

  it("finance: due in this week (every receivable type), bills to pay, cash and bank", async () => {
    const f = await figuresOf("finance@demo.test");
    expect(Object.keys(f)).toEqual(
      expect.arrayContaining(["receivables_due_week", "payables_due_week", "cash_at_hand", "overdue_receivables"]),
    );
    let expected = 0;
    let count = 0;
    for (const t of ["invoice", "debit_note", "progressive_claim"]) {
      const res = await restFetch(
        "finance@demo.test",
        `${t}?select=outstanding,rate&outstanding=gt.0&status=not.in.(draft,cancelled,overdue)&due_date=gte.${day(0)}&due_date=lte.${day(7)}`,
      );
      expect(res.status).toBe(200);
      for (const r of res.body as Array<{ outstanding: string; rate: string }>) {
        expected += Math.round(Number(r.outstanding) * Number(r.rate) * 100);
        count++;
      }
    }
    expect(f.receivables_due_week.count).toBe(count);
    expect(Math.round(Number(f.receivables_due_week.amount) * 100)).toBe(expected);
    expect(f.cash_at_hand.count).toBeGreaterThanOrEqual(2); // Cash 1000 and Bank SGD 1010 at least
  });

  it("a driver gets no figures at all: no money, nor the warehouse's shipping", async () => {
    // They read only the deliveries given to them; their day is the driver app's trip.
    expect(await figuresOf("driver@demo.test")).toEqual({});
  });
});
