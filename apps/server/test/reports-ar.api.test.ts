import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, ok, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { report } from "./reports-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §2 "Accounts receivable" and DESIGN §2.3.1 `report`: the ageing buckets at their boundaries, totals that
// are the sum of what is outstanding, the as-of date (a later payment is added back), the drill-down to one
// customer's invoices, the customer statement, the dashboard's selling figures, another workspace's invoices
// never counted, and who may read it. A server of its own, so no other test's invoices change the sums.

const LITE = "owner@lite.test"; // Lite: accounting is on every tier
const DEMO = "admin@demo.test";
const AS_OF = "2030-06-30";
let server: TestServer;
let customerId = 0;
const byDays = new Map<number, Doc>();

const BUCKETS = ["current", "days_1_30", "days_31_60", "days_61_90", "days_over_90"];

const shift = (iso: string, days: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

// A submitted invoice of one zero-rated line, so its total is `amount`.
async function invoice(email: string, company: number, amount: string, header: Record<string, unknown>) {
  const doc = await ok(email, "document_save", {
    type: "invoice",
    header: { company_id: company, ...header },
    lines: [{ description: "Consulting", qty: "1", unit_price: amount, tax_code: "ZR" }],
  });
  const res = await act(email, "invoice", doc.id, "submit");
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
}

async function newCustomer(email: string, name: string): Promise<number> {
  const res = await restFetch(email, "company", {
    method: "POST",
    body: JSON.stringify({ name, is_customer: true }),
    headers: { prefer: "return=representation" },
  });
  expect(res.status, res.text).toBe(201);
  return (res.body as Array<{ id: number }>)[0].id;
}

// The days past due each boundary invoice has on AS_OF, and its amount (distinct, so a wrong bucket shows).
const DAYS = [-1, 0, 1, 30, 31, 60, 61, 90, 91];
const amountOf = (days: number) => money(dec("1000").plus(days));

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  customerId = await newCustomer(LITE, "Ageing Boundaries Pte Ltd");
  for (const days of DAYS) {
    const due = shift(AS_OF, -days);
    byDays.set(
      days,
      await invoice(LITE, customerId, amountOf(days), {
        doc_date: shift(due, -30) < AS_OF ? shift(due, -30) : AS_OF,
        due_date: due,
      }),
    );
  }
}, 180_000);
afterAll(() => server?.close());

describe("ar_ageing", () => {
  it("puts each invoice in its bucket on the boundary days (0 is current, 30/31, 60/61, 90/91)", async () => {
    const detail = await report(LITE, { name: "ar_ageing", as_of: AS_OF, company_id: customerId });
    expect(detail.rows).toHaveLength(DAYS.length);
    const expected: Record<number, string> = {
      [-1]: "current",
      0: "current",
      1: "days_1_30",
      30: "days_1_30",
      31: "days_31_60",
      60: "days_31_60",
      61: "days_61_90",
      90: "days_61_90",
      91: "days_over_90",
    };
    for (const days of DAYS) {
      const row = detail.rows.find((r) => r.id === byDays.get(days)?.id);
      expect(row, `invoice ${days} days past due`).toBeDefined();
      expect(row?.days_past_due).toBe(Math.max(days, 0));
      for (const b of BUCKETS)
        expect(row?.[b], `${days} days in ${b}`).toBe(b === expected[days] ? amountOf(days) : "0.00");
      expect(row?.total).toBe(amountOf(days));
    }
    const grand = money(sum(DAYS.map(amountOf)));
    expect(detail.totals.total).toBe(grand);
    expect(detail.columns.map((c) => c.key)).toEqual(expect.arrayContaining([...BUCKETS, "total", "number"]));

    const summary = await report(LITE, { name: "ar_ageing", as_of: AS_OF });
    const mine = summary.rows.find((r) => r.company_id === customerId);
    expect(mine).toMatchObject({
      company: "Ageing Boundaries Pte Ltd",
      invoices: DAYS.length,
      current: money(sum([amountOf(-1), amountOf(0)])),
      days_1_30: money(sum([amountOf(1), amountOf(30)])),
      days_31_60: money(sum([amountOf(31), amountOf(60)])),
      days_61_90: money(sum([amountOf(61), amountOf(90)])),
      days_over_90: amountOf(91),
      total: grand,
    });
  });

  it("totals are the sum of what every open invoice of the workspace owes, bucket by bucket", async () => {
    const summary = await report(LITE, { name: "ar_ageing", as_of: AS_OF });
    for (const key of [...BUCKETS, "total"]) {
      expect(summary.totals[key], key).toBe(money(sum(summary.rows.map((r) => String(r[key])))));
    }
    // The same figure from /rest/v1: every submitted, uncancelled receivable dated by AS_OF, in base currency —
    // invoices and debit notes here (Lite has no progressive claims; claims-receivables.api.test.ts adds them).
    const owed: string[] = [];
    for (const type of ["invoice", "debit_note"]) {
      const res = await restFetch(
        LITE,
        `${type}?select=outstanding,rate&status=not.in.(draft,cancelled)&doc_date=lte.${AS_OF}&outstanding=gt.0`,
      );
      expect(res.status, res.text).toBe(200);
      for (const i of res.body as Array<{ outstanding: string; rate: string }>) {
        owed.push(money(dec(i.outstanding).times(dec(i.rate))));
      }
    }
    expect(summary.totals.total).toBe(money(sum(owed)));
    expect(Number(summary.totals.count)).toBe(summary.rows.length);
  });

  it("as of a date, a payment received later is still owed; afterwards it is not", async () => {
    const zero = byDays.get(0) as Doc;
    const paid = await rpc(LITE, "record_payment", {
      type: "receipt",
      company_id: customerId,
      amount: "400",
      date: shift(AS_OF, 5),
      method: "bank_transfer",
      allocations: [{ document_type: "invoice", document_id: zero.id, amount: "400" }],
    });
    expect(paid.status, paid.text).toBe(200);
    const before = await report(LITE, { name: "ar_ageing", as_of: AS_OF, company_id: customerId });
    expect(before.rows.find((r) => r.id === zero.id)?.total).toBe(amountOf(0));
    const after = await report(LITE, { name: "ar_ageing", as_of: shift(AS_OF, 10), company_id: customerId });
    expect(after.rows.find((r) => r.id === zero.id)).toMatchObject({
      total: money(dec(amountOf(0)).minus(400)),
      days_1_30: money(dec(amountOf(0)).minus(400)),
    });
    // Before an invoice's date it is not owed at all.
    const early = await report(LITE, { name: "ar_ageing", as_of: "2000-01-01", company_id: customerId });
    expect(early.rows).toEqual([]);
    expect(early.totals.total).toBe("0.00");
  });

  it("never shows another workspace's invoices", async () => {
    const theirs = await newCustomer(DEMO, "Other Workspace Debtor");
    const inv = await invoice(DEMO, theirs, "987654.32", { doc_date: "2030-01-01", due_date: "2030-01-31" });
    const summary = await report(LITE, { name: "ar_ageing", as_of: AS_OF });
    expect(summary.rows.some((r) => r.company === "Other Workspace Debtor")).toBe(false);
    expect(JSON.stringify(summary)).not.toContain("987654.32");
    const detail = await report(LITE, { name: "ar_ageing", as_of: AS_OF, company_id: theirs });
    expect(detail.rows).toEqual([]);
    const own = await report(DEMO, { name: "ar_ageing", as_of: AS_OF, company_id: theirs });
    expect(own.rows.map((r) => r.number)).toEqual([inv.number]);
  });
});

describe("who may read receivables", () => {
  it("refuses a salesperson with the access rule's message; a lite owner and finance read them", async () => {
    const sales = await rpc("sales@demo.test", "report", { name: "ar_ageing" });
    expect(sales.status).toBe(403);
    expect(sales.body).toMatchObject({ message: "You do not have permission to read accounts receivable" });
    const driver = await rpc("driver@lite.test", "report", { name: "ar_ageing" });
    expect(driver.status).toBe(403);
    for (const email of ["finance@demo.test", "accounts@demo.test", "manager@demo.test", "admin@lite.test"]) {
      expect((await rpc(email, "report", { name: "ar_ageing" })).status, email).toBe(200);
    }
  });

  it("names the known reports for an unknown one, and refuses bad parameters with 422", async () => {
    const unknown = await rpc(LITE, "report", { name: "ar_ageeing" });
    expect(unknown.status).toBe(400);
    // Issue 12 registers more reports between these two: the message names each known one.
    for (const known of ["ar_ageing", "customer_statement"]) {
      expect((unknown.body as { message: string }).message).toContain(known);
    }
    const bad = await rpc(LITE, "report", { name: "ar_ageing", as_of: "last tuesday" });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ details: [expect.objectContaining({ field: "as_of" })] });
  });
});

describe("customer_statement", () => {
  it("brings the balance forward, lists charges and payments with a running balance, and closes", async () => {
    const from = shift(AS_OF, -60); // the invoices due 30 days or less before AS_OF are dated from here on
    const s = await report(LITE, { name: "customer_statement", company_id: customerId, from, to: shift(AS_OF, 30) });
    const total = sum(DAYS.map(amountOf));
    const inPeriod = s.rows.filter((r) => r.type === "invoice");
    const before = DAYS.filter((d) => !inPeriod.some((r) => r.id === byDays.get(d)?.id)).map(amountOf);
    expect(s.totals.opening).toBe(money(sum(before)));
    expect(s.rows.find((r) => r.type === "receipt")).toMatchObject({ credit: "400.00", debit: "0.00" });
    expect(s.totals.closing).toBe(money(total.minus(400)));
    expect(s.rows[s.rows.length - 1]?.balance).toBe(s.totals.closing);
    let running = dec(s.totals.opening as string);
    for (const r of s.rows) {
      running = running.plus(dec(r.debit as string)).minus(dec(r.credit as string));
      expect(r.balance).toBe(money(running));
    }
    const missing = await rpc(LITE, "report", { name: "customer_statement", company_id: 999999, from, to: AS_OF });
    expect(missing.status).toBe(404);
    const backwards = await rpc(LITE, "report", {
      name: "customer_statement",
      company_id: customerId,
      from: AS_OF,
      to: from,
    });
    expect(backwards.status).toBe(422);
  });
});

describe("the dashboard's selling figures", () => {
  it("are the workspace's own sums, shown to those who read invoices and orders", async () => {
    const res = await rpc(LITE, "dashboard_summary", {});
    expect(res.status).toBe(200);
    const figures = (res.body as { figures: Record<string, { amount?: string; count: number }> }).figures;
    // Every document the customer owes on that is past due: invoices and debit notes (Lite has no claims).
    const rows: Array<{ outstanding: string; rate: string }> = [];
    for (const type of ["invoice", "debit_note"]) {
      const overdue = await restFetch(LITE, `${type}?select=outstanding,rate&status=eq.overdue`);
      rows.push(...(overdue.body as Array<{ outstanding: string; rate: string }>));
    }
    expect(figures.overdue_receivables).toEqual({
      amount: money(sum(rows.map((i) => money(dec(i.outstanding).times(dec(i.rate)))))),
      count: rows.length,
    });
    // Net sales this month (issue 21 §1): one definition — excluding GST, after credit and debit notes, in base
    // currency — as the sales reports and the P&L's income count them (the sales_by_month check is in the demo's
    // test below; Lite has no analytics).
    const from = `${new Date().toISOString().slice(0, 8)}01`;
    const to = new Date().toISOString().slice(0, 10);
    const net = async (type: string, status: string) => {
      const res = await restFetch(
        LITE,
        `${type}?select=net_total,rate&${status}&doc_date=gte.${from}&doc_date=lte.${to}`,
      );
      const rows = res.body as Array<{ net_total: string; rate: string }>;
      return { amount: sum(rows.map((r) => money(dec(r.net_total).times(dec(r.rate))))), count: rows.length };
    };
    const invoiced = await net("invoice", "status=not.in.(draft,cancelled)");
    const debited = await net("debit_note", "status=not.in.(draft,cancelled)");
    const credited = await net("credit_note", "status=eq.issued");
    expect(figures.sales_this_month).toEqual({
      amount: money(dec(invoiced.amount).plus(debited.amount).minus(credited.amount)),
      count: invoiced.count,
    });
    const toDeliver = await restFetch(LITE, "sales_order?select=id&status=in.(to_deliver_and_bill,to_deliver)");
    expect(figures.orders_to_deliver).toEqual({ count: (toDeliver.body as unknown[]).length });
    const sent = await restFetch(LITE, "quotation?select=id&status=eq.sent");
    expect(figures.open_quotations).toEqual({ count: (sent.body as unknown[]).length });
    // A driver reads no invoices, orders or quotations: no selling figures.
    const driver = await rpc("driver@lite.test", "dashboard_summary", {});
    expect((driver.body as { figures: object }).figures).toEqual({});
  });

  it("leave out the overdue receivables for a salesperson, whom Accounts receivable refuses (as ar_ageing does)", async () => {
    const refused = await rpc("sales@demo.test", "report", { name: "ar_ageing" });
    expect(refused.status).toBe(403);
    const res = await rpc("sales@demo.test", "dashboard_summary", {});
    expect(res.status).toBe(200);
    const figures = (res.body as { figures: Record<string, unknown> }).figures;
    expect(figures).not.toHaveProperty("overdue_receivables");
    // They still read invoices: what was invoiced this month stays.
    expect(figures).toHaveProperty("sales_this_month");
  });

  it("agree with Sales by month on net sales this month (issue 21 §1)", async () => {
    const from = `${new Date().toISOString().slice(0, 8)}01`;
    const to = new Date().toISOString().slice(0, 10);
    const summary = await rpc("owner@demo.test", "dashboard_summary", {});
    const tile = (summary.body as { figures: Record<string, { amount: string }> }).figures.sales_this_month;
    const byMonth = await rpc("owner@demo.test", "report", { name: "sales_by_month", from, to });
    expect(byMonth.status, byMonth.text).toBe(200);
    expect(tile.amount).toBe((byMonth.body as { totals: { net_sales: string } }).totals.net_sales);
  });
});

describe("sales_by_customer and sales_by_product", () => {
  // Issue 12: sales reports need analytics (Pro); their figures are tested in reports-analytics.api.test.ts.
  it("are refused on Lite with the upgrade", async () => {
    for (const name of ["sales_by_customer", "sales_by_product"]) {
      const res = await rpc(LITE, "report", { name, from: "2030-01-01", to: AS_OF });
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ code: "tier_required", hint: "Upgrade to Pro" });
    }
  });
});
