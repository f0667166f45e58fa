import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { act, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { supplier, supplierInvoice } from "./payables-helpers.ts";
import { signedIn } from "./storage-helpers.ts";

// Issue 11: the payables reports — ap_ageing (0–30 / 31–60 / 61–90 / 90+ days past due, at every boundary; not due,
// overdue and due this week; one supplier's invoices; what a later payment paid counts as owed on an earlier
// as-of date), the three-way check queue (outcomes, reasons, filters, the drill-down, release), and the receipts'
// attachments. Who may read each.

const ADMIN = "admin@demo.test";
const FINANCE = "finance@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
let server: TestServer;
let company = 0;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  company = await supplier(ADMIN, 2); // a supplier of its own, so other files' invoices do not mix in
}, 120_000);
afterAll(() => server?.close());

type Report = {
  columns: Array<{ key: string }>;
  rows: Array<Record<string, string | number | null>>;
  totals: Record<string, string | number>;
};
const report = async (email: string, args: Record<string, unknown>) => {
  const res = await rpc(email, "report", args);
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
};
const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe("ap_ageing", () => {
  it("ages by days past the due date at each bucket's edge, not due in 0–30, due this week apart", async () => {
    const inv = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "100" });
    const due = String(inv.due_date);
    const mine = (r: Report) => r.rows.find((row) => Number(row.company_id) === company);
    const cases: Array<[number, string]> = [
      [0, "days_0_30"],
      [30, "days_0_30"],
      [31, "days_31_60"],
      [60, "days_31_60"],
      [61, "days_61_90"],
      [90, "days_61_90"],
      [91, "days_over_90"],
      [400, "days_over_90"],
    ];
    for (const [days, bucket] of cases) {
      const r = await report(FINANCE, { name: "ap_ageing", as_of: addDays(due, days) });
      const row = mine(r);
      expect(row?.[bucket], `${days} days past due`).toBe("109.00");
      for (const other of ["days_0_30", "days_31_60", "days_61_90", "days_over_90"].filter((b) => b !== bucket)) {
        expect(row?.[other], `${days} days past due, ${other}`).toBe("0.00");
      }
      expect(row?.total).toBe("109.00");
      expect(row?.overdue).toBe(days > 0 ? "109.00" : "0.00");
    }
    // Due on the as-of date: due this week, not yet overdue; a day later overdue and no longer due this week.
    const today = mine(await report(FINANCE, { name: "ap_ageing", as_of: due }));
    expect(today).toMatchObject({ not_due: "109.00", due_this_week: "109.00", overdue: "0.00" });
    const late = mine(await report(FINANCE, { name: "ap_ageing", as_of: addDays(due, 1) }));
    expect(late).toMatchObject({ not_due: "0.00", due_this_week: "0.00", overdue: "109.00" });
    // Before the invoice's own date it is not owed at all.
    const before = await report(FINANCE, { name: "ap_ageing", as_of: addDays(String(inv.doc_date), -1) });
    expect(mine(before)).toBeUndefined();

    // One supplier's invoices, and every invoice due this week.
    const drill = await report(FINANCE, { name: "ap_ageing", as_of: due, company_id: company });
    expect(drill.rows).toEqual([
      expect.objectContaining({
        id: inv.id,
        number: inv.number,
        days_past_due: 0,
        days_0_30: "109.00",
        total: "109.00",
      }),
    ]);
    expect(drill.totals).toMatchObject({ total: "109.00", count: 1 });
    const week = await report(FINANCE, { name: "ap_ageing", as_of: due, due: "this_week" });
    expect(week.rows.map((r) => r.id)).toContain(inv.id);
    expect(week.columns.map((c) => c.key)).toContain("company");

    // Paid in part after the as-of date: still owed in full on it, only the rest today.
    const paid = await rpc(FINANCE, "record_payment", {
      type: "supplier_payment",
      company_id: company,
      amount: "9",
      date: addDays(due, 5),
      method: "bank_transfer",
      allocations: [{ document_type: "supplier_invoice", document_id: inv.id, amount: "9" }],
    });
    expect(paid.status, paid.text).toBe(200);
    expect(mine(await report(FINANCE, { name: "ap_ageing", as_of: due }))?.total).toBe("109.00");
    expect(mine(await report(FINANCE, { name: "ap_ageing", as_of: addDays(due, 5) }))?.total).toBe("100.00");
  });

  it("is for who reads accounts payable", async () => {
    const res = await rpc(SALES, "report", { name: "ap_ageing" });
    expect(res.status).toBe(403);
    expect((res.body as { message: string }).message).toMatch(/accounts payable/);
  });
});

describe("three_way_check", () => {
  it("queues the exceptions with their reasons, filters them, drills into one invoice, and moves it on release", async () => {
    const before = (await report(FINANCE, { name: "three_way_check", company_id: company })).totals;
    const held = await supplierInvoice(ADMIN, { companyId: company, ordered: "4", poPrice: "100", price: "108" });
    const passed = await supplierInvoice(ADMIN, { companyId: company, ordered: "2", poPrice: "50" });
    expect([held.match_status, passed.match_status]).toEqual(["exception", "matched"]);
    const queue = await report(FINANCE, { name: "three_way_check", company_id: company });
    expect(queue.rows).toEqual([
      expect.objectContaining({
        invoice_id: held.id,
        outcome: "exception",
        qty_ordered: "4.000",
        qty_received: "4.000",
        qty_invoiced: "4.000",
        po_price: "100.0000",
        invoice_price: "108.0000",
        price_difference_percent: "8.0",
        reasons: expect.stringMatching(/^Price 108\.00 is above the order's 100\.00/),
      }),
    ]);
    expect(queue.totals).toMatchObject({
      count: 1,
      outcome_exception: 1,
      outcome_passed: Number(before.outcome_passed) + 1,
      reason_price: 1,
    });
    expect(queue.totals.reason_no_po_line).toBe(0);
    const byReason = await report(FINANCE, { name: "three_way_check", company_id: company, reason: "no_po_line" });
    expect(byReason.rows).toEqual([]);
    expect(byReason.totals).toMatchObject({ count: 0, outcome_exception: 1, reason_price: 1 });
    const ok2 = await report(FINANCE, { name: "three_way_check", company_id: company, status: "passed" });
    expect(ok2.rows.map((r) => r.invoice_id)).toContain(passed.id);
    expect(ok2.rows.map((r) => r.invoice_id)).not.toContain(held.id);
    // The drill-down: the invoice's lines beside their order and receipt.
    const side = await report(FINANCE, { name: "three_way_check", invoice_id: held.id });
    expect(side.rows[0]).toMatchObject({
      invoice: held.number,
      purchase_order: expect.stringMatching(/^PO-/),
      receipt: expect.stringMatching(/^SDO-/),
      qty_accepted: "4.000",
    });
    // Released with a reason: it leaves the queue and shows as released, why kept.
    const released = await act(FINANCE, "supplier_invoice", held.id, "release", "Supplier's new price list");
    expect(released.status, released.text).toBe(200);
    const after = await report(FINANCE, { name: "three_way_check", company_id: company });
    expect(after.rows).toEqual([]);
    const gone = await report(FINANCE, { name: "three_way_check", company_id: company, status: "released" });
    expect(gone.rows[0]).toMatchObject({ invoice_id: held.id, release_reason: "Supplier's new price list" });
  });

  it("pages the queue", async () => {
    const first = await report(FINANCE, { name: "three_way_check", status: "all", limit: 1 });
    const second = await report(FINANCE, { name: "three_way_check", status: "all", limit: 1, offset: 1 });
    expect(first.rows.length).toBe(1);
    expect(Number(first.totals.count)).toBeGreaterThan(1);
    expect(second.rows[0]?.line_id).not.toBe(first.rows[0]?.line_id);
  });

  it("is for who reads supplier invoices", async () => {
    expect((await rpc(DRIVER, "report", { name: "three_way_check" })).status).toBe(403);
  });
});

describe("supplier_receipt_files", () => {
  it("lists the files attached to receipts, by supplier and purchase order", async () => {
    const inv = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "10" });
    const side = await report(FINANCE, { name: "three_way_check", invoice_id: inv.id });
    const receiptId = Number(side.rows[0].receipt_id);
    const poId = Number(side.rows[0].purchase_order_id);
    const { storage } = await signedIn(ADMIN);
    const made = await storage.createBucket("files", { public: false });
    expect(made.error === null || made.error.message.includes("exists")).toBe(true);
    const up = await storage
      .from("files")
      .upload(
        `documents/supplier_delivery_order/${receiptId}/supplier-do.pdf`,
        new Blob(["%PDF-1.4"], { type: "application/pdf" }),
        {
          contentType: "application/pdf",
        },
      );
    expect(up.error).toBeNull();
    const all = await report(FINANCE, { name: "supplier_receipt_files", company_id: company });
    expect(all.rows).toEqual([
      expect.objectContaining({
        file_name: "supplier-do.pdf",
        path: `documents/supplier_delivery_order/${receiptId}/supplier-do.pdf`,
        mime_type: "application/pdf",
        receipt_id: receiptId,
        purchase_order_id: poId,
      }),
    ]);
    expect(all.totals.count).toBe(1);
    const otherPo = await report(FINANCE, { name: "supplier_receipt_files", purchase_order_id: poId + 100000 });
    expect(otherPo.rows).toEqual([]);
    expect((await rpc(DRIVER, "report", { name: "supplier_receipt_files" })).status).toBe(403);
  });
});
