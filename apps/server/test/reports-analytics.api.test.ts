import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, ok, products, rpc } from "./documents-helpers.ts";
import { baseUrl } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { company, report } from "./reports-helpers.ts";
import { tokenFor } from "./rest-helpers.ts";

// Issue 12 "Sales, purchasing and stock" reports (analytics, Pro) and the supplier statement (every tier): each
// figure is the sum of the documents made here through the engine, in a period of their own (2031) so the seed's
// documents never count; credit notes lower sales in the month they are issued; drill-downs lead to narrower
// reports and to the documents; Lite is refused with the upgrade; no report sums another workspace's rows.

const PRO = "owner@pro.test";
const LITE = "owner@lite.test";
const DEMO = "admin@demo.test";
const own = ownServer({}, 300_000);

const submit = async (type: string, doc: Doc) => {
  const res = await act(PRO, type, doc.id, "submit");
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
};

let customerId = 0;
let supplierId = 0;
let productId = 0;
let ownerId = "";
const docs: Record<string, Doc> = {};

beforeAll(async () => {
  const ws = ((await own.db.execute(sql`select id from workspace where slug = 'pro'`)).rows[0] as { id: string }).id;
  ownerId = (
    (await own.db.execute(sql`select id from "user" where workspace_id = ${ws}::uuid and email = ${PRO}`)).rows[0] as {
      id: string;
    }
  ).id;
  customerId = await company(PRO, "Analytics Customer Pte Ltd", "is_customer");
  supplierId = await company(PRO, "Analytics Supplier Pte Ltd", "is_supplier");
  productId = (await products(PRO, 1))[0].id;
  // January: 3 × 100 (SR: 327.00 with GST); March: 2 × 100; a credit note in March for 1 of January's.
  const jan = await ok(PRO, "document_save", {
    type: "invoice",
    header: { company_id: customerId, doc_date: "2031-01-15" },
    lines: [{ product_id: productId, qty: "3", unit_price: "100", tax_code: "SR" }],
  });
  docs.jan = await submit("invoice", jan);
  const mar = await ok(PRO, "document_save", {
    type: "invoice",
    header: { company_id: customerId, doc_date: "2031-03-10" },
    lines: [{ product_id: productId, qty: "2", unit_price: "100", tax_code: "SR" }],
  });
  docs.mar = await submit("invoice", mar);
  const cn = await ok(PRO, "document_convert", { type: "invoice", id: docs.jan.id, to: "credit_note" });
  const cnSaved = await ok(PRO, "document_save", {
    type: "credit_note",
    id: cn.id,
    header: { ...cn, doc_date: "2031-03-20" },
    lines: [{ ...cn.lines[0], qty: "1" }],
  });
  docs.cn = await submit("credit_note", cnSaved);
  // A supplier: an opening invoice in December 2030, one in February 2031, a payment in February.
  for (const [key, date, amount] of [
    ["sinvDec", "2030-12-05", "500"],
    ["sinvFeb", "2031-02-03", "800"],
  ] as const) {
    const d = await ok(PRO, "document_save", {
      type: "supplier_invoice",
      header: { company_id: supplierId, doc_date: date, supplier_invoice_number: `AN-${key}-${process.pid}` },
      lines: [{ description: "Installation services", qty: "1", unit_price: amount, tax_code: "SR" }],
    });
    docs[key] = await submit("supplier_invoice", d);
  }
  const paid = await rpc(PRO, "record_payment", {
    type: "supplier_payment",
    company_id: supplierId,
    amount: "300",
    date: "2031-02-20",
    method: "bank_transfer",
    allocations: [], // held in the three-way check (a service line has no receipt): paid on account
  });
  expect(paid.status, paid.text).toBe(200);
  docs.payment = paid.body as Doc;
}, 120_000);

describe("sales reports", () => {
  it("sales_by_month: one row per month, net of the credit note in the month it is issued", async () => {
    const r = await report(PRO, { name: "sales_by_month", from: "2031-01-01", to: "2031-03-31" });
    expect(r.rows.map((x) => x.month)).toEqual(["2031-01", "2031-02", "2031-03"]);
    expect(r.rows.map((x) => x.net_sales)).toEqual(["300.00", "0.00", "100.00"]);
    expect(r.rows[2]).toMatchObject({ invoices: 1, invoiced: "200.00", credited: "100.00" });
    expect(r.totals).toMatchObject({ invoices: 2, invoiced: "500.00", credited: "100.00", net_sales: "400.00" });
    expect(r.totals.total).toBe(money(dec(String(docs.jan.base_total)).plus(String(docs.mar.base_total)).minus("109")));
    // A month drills to the customers of that month (within the period).
    expect(r.drill?.[0]).toEqual({ report: "sales_by_customer", params: { from: "2031-01-01", to: "2031-01-31" } });
  });

  it("sales_by_salesperson: the invoices' salesperson (direct invoices: who raised them), the credit note against its invoice's, then their documents", async () => {
    const r = await report(PRO, { name: "sales_by_salesperson", from: "2031-01-01", to: "2031-03-31" });
    expect(r.key).toBe("user_id");
    expect(r.rows).toEqual([expect.objectContaining({ user_id: ownerId, invoices: 2, net_sales: "400.00" })]);
    const drill = r.drill?.[0] as { report: string; params: Record<string, string> };
    expect(drill).toMatchObject({ report: "sales_by_salesperson", params: { user_id: ownerId } });
    const docsOf = await report(PRO, { name: drill.report, ...drill.params });
    expect(docsOf.rows.map((x) => [x.number, x.net_sales])).toEqual([
      [docs.jan.number, "300.00"],
      [docs.mar.number, "200.00"],
      [docs.cn.number, "-100.00"],
    ]);
    expect(docsOf.drill?.[2]).toEqual({ document: { type: "credit_note", id: docs.cn.id, number: docs.cn.number } });
  });

  it("sales_by_customer drills to the customer's invoices (ids as strings, as addresses carry them) and each invoice to its page", async () => {
    const r = await report(PRO, { name: "sales_by_customer", from: "2031-01-01", to: "2031-03-31" });
    const i = r.rows.findIndex((x) => x.company_id === customerId);
    expect(r.rows[i]).toMatchObject({ invoices: 2, net: "500.00" });
    const drill = r.drill?.[i] as { report: string; params: Record<string, string> };
    expect(drill.params.company_id).toBe(String(customerId));
    const invoices = await report(PRO, { name: drill.report, ...drill.params });
    expect(invoices.drill).toEqual([
      { document: { type: "invoice", id: docs.jan.id, number: docs.jan.number } },
      { document: { type: "invoice", id: docs.mar.id, number: docs.mar.number } },
    ]);
    const product = await report(PRO, { name: "sales_by_product", from: "2031-01-01", to: "2031-03-31" });
    expect(product.rows).toEqual([expect.objectContaining({ product_id: productId, qty: "5.000", net: "500.00" })]);
  });

  it("a period that runs backwards is refused in words", async () => {
    const res = await rpc(PRO, "report", { name: "sales_by_month", from: "2031-03-31", to: "2031-01-01" });
    expect(res.status).toBe(422);
    expect((res.body as { message: string }).message).toBe("The report's from date is after its to date");
  });
});

describe("purchasing reports", () => {
  it("purchases_by_supplier sums the supplier invoices of the period, drilling to them", async () => {
    const r = await report(PRO, { name: "purchases_by_supplier", from: "2031-01-01", to: "2031-03-31" });
    expect(r.rows).toEqual([
      expect.objectContaining({ company_id: supplierId, invoices: 1, net: "800.00", total: docs.sinvFeb.base_total }),
    ]);
    const drill = r.drill?.[0] as { report: string; params: Record<string, string> };
    const list = await report(PRO, { name: drill.report, ...drill.params });
    expect(list.drill).toEqual([
      { document: { type: "supplier_invoice", id: docs.sinvFeb.id, number: docs.sinvFeb.number } },
    ]);
  });

  it("supplier_statement: brought forward, invoices and payments with the running balance, closing", async () => {
    const r = await report(PRO, {
      name: "supplier_statement",
      company_id: supplierId,
      from: "2031-01-01",
      to: "2031-03-31",
    });
    const dec5 = String(docs.sinvDec.base_total);
    const feb = String(docs.sinvFeb.base_total);
    expect(r.totals).toEqual({
      opening: money(dec5),
      debit: "300.00",
      credit: money(feb),
      closing: money(dec(dec5).plus(feb).minus("300")),
    });
    expect(r.rows.map((x) => [x.number, x.balance])).toEqual([
      [docs.sinvFeb.number, money(dec(dec5).plus(feb))],
      [docs.payment.number, money(dec(dec5).plus(feb).minus("300"))],
    ]);
    expect(r.drill?.[1]).toEqual({
      document: { type: "supplier_payment", id: docs.payment.id, number: docs.payment.number },
    });
    // Every tier reads the supplier statement (accounting), as it does the customer's.
    const lite = await rpc(LITE, "report", {
      name: "supplier_statement",
      company_id: supplierId,
      from: "2031-01-01",
      to: "2031-03-31",
    });
    expect(lite.status, "another workspace's supplier is not found").toBe(404);
  });
});

describe("stock_movement", () => {
  it("opening + in − out = closing per product, the closing value the stock valuation's on the same day", async () => {
    // Moves no document posted count from the day they were written: 10 in before the period, 3 out and 4 in it.
    const ws = ((await own.db.execute(sql`select id from workspace where slug = 'pro'`)).rows[0] as { id: string }).id;
    await own.db.execute(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type,
        doc_id, created_at)
      select ${ws}::uuid, ${productId}, l.id, m.qty, m.cost, 'opening', 0, m.at::timestamptz
      from (select id from location where workspace_id = ${ws}::uuid order by id limit 1) l,
        (values (10, 5, '2030-12-01'), (-3, 5, '2031-02-10'), (4, 6, '2031-03-05')) m(qty, cost, at)`);
    const r = await report(PRO, { name: "stock_movement", from: "2031-01-01", to: "2031-03-31" });
    const row = r.rows.find((x) => x.product_id === productId);
    expect(row).toMatchObject({
      opening_qty: "10.000",
      opening_value: "50.00",
      in_qty: "4.000",
      in_value: "24.00",
      out_qty: "3.000",
      out_value: "15.00",
      closing_qty: "11.000",
      closing_value: "59.00",
    });
    for (const x of r.rows) {
      expect(dec(String(x.opening_qty)).plus(String(x.in_qty)).minus(String(x.out_qty)).toFixed(3)).toBe(x.closing_qty);
      expect(money(dec(String(x.opening_value)).plus(String(x.in_value)).minus(String(x.out_value)))).toBe(
        x.closing_value,
      );
    }
    const valuation = await report(PRO, { name: "stock_valuation", as_of: "2031-03-31" });
    expect(r.totals.closing_value).toBe(valuation.totals.value);
    const drill = r.drill?.[r.rows.indexOf(row as (typeof r.rows)[number])] as {
      report: string;
      params: Record<string, string>;
    };
    expect(drill).toMatchObject({ report: "stock_movement", params: { product_id: String(productId) } });
    const moves = await report(PRO, { name: drill.report, ...drill.params });
    expect(moves.totals.qty_in).toBe(dec(String(row?.in_qty)).toFixed(3));
    expect(moves.totals.qty_out).toBe(dec(String(row?.out_qty)).toFixed(3));
  });
});

describe("tiers and isolation", () => {
  it("Lite is refused every analytics report with the upgrade", async () => {
    for (const name of [
      "sales_by_month",
      "sales_by_salesperson",
      "sales_by_customer",
      "sales_by_product",
      "purchases_by_supplier",
      "stock_movement",
      "stock_valuation",
    ]) {
      const res = await rpc(LITE, "report", { name, from: "2031-01-01", to: "2031-03-31" });
      expect(res.status, name).toBe(403);
      expect(res.body, name).toMatchObject({ code: "tier_required", hint: "Upgrade to Pro" });
    }
  });

  it("another workspace's reports never count these documents", async () => {
    for (const name of ["sales_by_month", "sales_by_salesperson", "sales_by_customer", "purchases_by_supplier"]) {
      const r = await report(DEMO, { name, from: "2031-01-01", to: "2031-03-31" });
      expect(r.totals.invoices ?? 0, name).toBe(0);
      expect(
        r.rows.filter((x) => x.company_id === customerId || x.company_id === supplierId),
        name,
      ).toEqual([]);
    }
    const drilled = await report(DEMO, {
      name: "sales_by_customer",
      from: "2031-01-01",
      to: "2031-03-31",
      company_id: customerId,
    });
    expect(drilled.rows).toEqual([]);
  });
});

describe("GET /api/reports/{name}/pdf", () => {
  const get = async (email: string, url: string) => {
    const res = await fetch(`${baseUrl()}${url}`, { headers: { authorization: `Bearer ${await tokenFor(email)}` } });
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it("prints the report the page shows, with its totals; refuses as the command does", async () => {
    const res = await get(PRO, "/api/reports/sales_by_month/pdf?from=2031-01-01&to=2031-03-31");
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.type).toBe("application/pdf");
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "report-pdf-")), "r.pdf");
    writeFileSync(file, res.body);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Sales By Month"); // the letterhead prints titles in Title Case
    expect(text).toMatch(/Total\s+2\s+500\.00\s+100\.00\s+0\.00\s+400\.00/); // invoiced, credited, debited, net
    const lite = await get(LITE, "/api/reports/sales_by_month/pdf?from=2031-01-01&to=2031-03-31");
    expect(lite.status).toBe(403);
    expect(JSON.parse(lite.body.toString())).toMatchObject({ code: "tier_required" });
    const backwards = await get(PRO, "/api/reports/sales_by_month/pdf?from=2031-03-31&to=2031-01-01");
    expect(backwards.status).toBe(422);
  });
});
