import { Dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, ok, type Product, products } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { report } from "./reports-helpers.ts";

// Who a sale belongs to (salespersonOf): sales by salesperson, commission statements and the team challenge credit
// the salesperson of the deal — the author of the quotation or sales order — not the accounts clerk who raises the
// invoice or the credit note, nor the manager who confirms the order. A server of its own: documents in June 2031.

const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";
const ACCOUNTS = "accounts@demo.test";
const FINANCE = "finance@demo.test";
const JUNE = { from: "2031-06-01", to: "2031-06-30" };

const own = ownServer();
let users: Record<string, string> = {};
let item: Product;
let customerId = 0;
const sold: Doc[] = [];
let credit: Doc;

const netOf = (d: Doc) => new Dec(String(d.net_total)).times(String(d.rate)).toDecimalPlaces(2);
const submit = (email: string, type: string, d: Doc) =>
  ok(email, "document_transition", { type, id: d.id, action: "submit" });
// `d` (a `type`) made into a draft `to` by `email`, with the header's changes.
const convert = (email: string, type: string, d: Doc, to: string, header: Record<string, unknown>) =>
  ok(email, "document_convert", { type, id: d.id, to, header });

beforeAll(async () => {
  const u = await own.q<{ id: string; email: string }>(
    sql`select id, email from "user" where workspace_id = ${own.ws}::uuid`,
  );
  users = Object.fromEntries(u.map((x) => [x.email, x.id]));
  [item] = await products(MANAGER, 1);
  await openingStock(own, [item], (await locationsByCode(MANAGER))["WH-TUAS"], 100);
  customerId = Number(
    (
      await own.q<{ id: number }>(sql`select id from company where workspace_id = ${own.ws}::uuid and is_customer
      order by id limit 1`)
    )[0].id,
  );
  const lines = [{ product_id: item.id, qty: "2" }];
  // A commission rule for the salespeople, unless the demo data has one.
  const rules = (await ok(FINANCE, "commission_rules", {})) as unknown as Array<{ role_id: number | null }>;
  if (!rules.some((r) => r.role_id === 3)) {
    await ok(FINANCE, "commission_rule_save", { role_id: 3, basis: "invoiced", rate_percent: "5", period: "monthly" });
  }

  // 1. The salesperson's sales order, confirmed by the manager, invoiced by the accounts clerk.
  const so = await ok(SALES, "document_save", {
    type: "sales_order",
    header: { company_id: customerId, doc_date: "2031-06-03" },
    lines,
  });
  await submit(MANAGER, "sales_order", so);
  const inv = await convert(ACCOUNTS, "sales_order", so, "invoice", { doc_date: "2031-06-05" });
  sold.push(await submit(ACCOUNTS, "invoice", inv));

  // 2. The salesperson's quotation, won and made into an order by the manager, delivered, and invoiced from the
  // delivery order by the accounts clerk.
  const q = await ok(SALES, "document_save", {
    type: "quotation",
    header: { company_id: customerId, doc_date: "2031-06-08" },
    lines,
  });
  expect((await act(SALES, "quotation", q.id, "submit")).status).toBe(200);
  const so2 = await convert(MANAGER, "quotation", q, "sales_order", { doc_date: "2031-06-09" });
  await submit(MANAGER, "sales_order", so2);
  const dlv = await convert(MANAGER, "sales_order", so2, "delivery_order", {
    location_id: (await locationsByCode(MANAGER))["WH-TUAS"],
    doc_date: "2031-06-10",
  });
  await submit(MANAGER, "delivery_order", dlv);
  const inv2 = await convert(ACCOUNTS, "delivery_order", dlv, "invoice", { doc_date: "2031-06-12" });
  sold.push(await submit(ACCOUNTS, "invoice", inv2));

  // 3. The accounts clerk credits one unit of the first invoice.
  const cn = await convert(ACCOUNTS, "invoice", sold[0], "credit_note", { doc_date: "2031-06-20" });
  credit = await ok(ACCOUNTS, "document_save", {
    type: "credit_note",
    id: cn.id,
    header: { ...cn, doc_date: "2031-06-20" },
    lines: [{ ...cn.lines[0], qty: "1" }],
  });
  credit = await submit(ACCOUNTS, "credit_note", credit);
}, 180_000);

describe("one salesperson for a sale", () => {
  it("the documents were made by others: the manager confirmed, the accounts clerk invoiced and credited", () => {
    for (const d of [...sold, credit]) expect(d.created_by).toBe(users[ACCOUNTS]);
  });

  it("sales by salesperson counts both invoices and the credit note for the salesperson, nothing for the clerk", async () => {
    const r = await report(MANAGER, { name: "sales_by_salesperson", ...JUNE });
    const net = netOf(sold[0]).plus(netOf(sold[1])).minus(netOf(credit));
    expect(r.rows).toEqual([
      expect.objectContaining({ user_id: users[SALES], invoices: 2, net_sales: net.toFixed(2) }),
    ]);
    const mine = await report(MANAGER, { name: "sales_by_salesperson", ...JUNE, user_id: users[SALES] });
    expect(mine.rows.map((x) => x.number)).toEqual([sold[0].number, sold[1].number, credit.number]);
  });

  it("the salesperson's commission statement lists both invoices and the credit note", async () => {
    const r = await report(FINANCE, { name: "commission_statement", ...JUNE, salesperson: users[SALES] });
    expect(r.rows.map((x) => [x.number, x.net])).toEqual([
      [sold[0].number, netOf(sold[0]).toFixed(2)],
      [sold[1].number, netOf(sold[1]).toFixed(2)],
      [credit.number, netOf(credit).neg().toFixed(2)],
    ]);
    const clerk = await report(FINANCE, { name: "commission_statement", ...JUNE, salesperson: users[ACCOUNTS] });
    expect(clerk.rows).toEqual([]);
  });

  it("the team challenge credits the salesperson with the orders confirmed and the invoices issued", async () => {
    const board = async (metric: string) => {
      const c = await ok(MANAGER, "team_challenge_save", {
        name: `June ${metric}`,
        metric,
        period_kind: "custom",
        start_date: JUNE.from,
        end_date: JUNE.to,
        default_target: null,
        participants: [{ user_id: users[SALES] }, { user_id: users[MANAGER] }, { user_id: users[ACCOUNTS] }],
      });
      const rows = c.leaderboard as Array<{ user_id: string; value: string; documents: number }>;
      return Object.fromEntries(rows.map((r) => [r.user_id, r]));
    };
    const invoiced = await board("invoices_issued_sum");
    expect(invoiced[users[SALES]]).toMatchObject({
      value: netOf(sold[0]).plus(netOf(sold[1])).toFixed(2),
      documents: 2,
    });
    expect(invoiced[users[ACCOUNTS]]).toMatchObject({ value: "0", documents: 0 });
    // The clerk records one receipt: 10.00 paying the first invoice, 5.00 kept as the customer's credit.
    await ok(ACCOUNTS, "record_payment", {
      type: "receipt",
      company_id: customerId,
      amount: "15",
      date: "2031-06-25",
      method: "bank_transfer",
      allocations: [{ document_type: "invoice", document_id: sold[0].id, amount: "10" }],
    });
    const collected = await board("receipts_collected_sum");
    expect(collected[users[SALES]]).toMatchObject({ value: "10.00", documents: 1 });
    expect(collected[users[ACCOUNTS]]).toMatchObject({ value: "5.00", documents: 1 });
    const ordered = await board("orders_confirmed_sum");
    expect(ordered[users[SALES]].documents).toBe(2); // the second order, made by the manager, is the quotation's
    expect(ordered[users[MANAGER]].documents).toBe(0);
  });
});
