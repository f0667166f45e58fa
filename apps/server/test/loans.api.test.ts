import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { customer, type Doc, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11: loan forms — lent into the workspace's on-loan location (Dr 1220 / Cr 1200), returned per line (Partly
// Returned → Returned), what is kept sold through a sales order made from the loan (its submit brings the goods back
// for the delivery; Converted to Sale), overdue past the due-back date, cancel rules, the matrix; stock at every
// location is Σ moves at every step and every entry balances.

const MANAGER = "manager@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const SALES = "sales@demo.test";
const own = ownServer();
let items: Product[] = [];
let company = 0;
let tuas = 0;
const { q } = own;

beforeAll(async () => {
  items = await products(MANAGER, 2);
  company = await customer(MANAGER);
  tuas = (await locationsByCode(MANAGER))["WH-TUAS"] ?? 0;
  await openingStock(own, items, tuas, 100);
}, 600_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const lend = async (lines: Array<Record<string, unknown>>, header: Record<string, unknown> = {}, email = MANAGER) =>
  ok(email, "document_save", {
    type: "loan_form",
    header: { company_id: company, location_id: tuas, due_date: day(14), deposit: "500", ...header },
    lines,
  });
const run = (id: number, action: string, values?: Record<string, unknown>, email = MANAGER, type = "loan_form") =>
  rpc(email, "document_transition", { type, id, action, ...(values ? { values } : {}) });
const done = async (id: number, action: string, values?: Record<string, unknown>, type = "loan_form") => {
  const res = await run(id, action, values, MANAGER, type);
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
};

async function stock(productId: number): Promise<Record<string, string>> {
  const rows = await q<{ code: string; n: string }>(sql`select l.code, sum(m.qty)::text as n from stock_move m
    join location l on l.workspace_id = m.workspace_id and l.id = m.location_id
    where m.workspace_id = ${own.ws}::uuid and m.product_id = ${productId} group by l.code`);
  return Object.fromEntries(rows.map((r) => [r.code, String(Number(r.n))]));
}

const journal = (type: string, id: number) =>
  q<{ entry: string; account_code: string; debit: string; credit: string }>(sql`
    select e.id::text as entry, l.account_code, l.debit::text as debit, l.credit::text as credit
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = ${type} and e.source_id = ${id} order by e.id, l.line_no`);

async function balanced(type: string, id: number) {
  const by = new Map<string, number>();
  for (const r of await journal(type, id)) {
    by.set(r.entry, (by.get(r.entry) ?? 0) + Math.round((Number(r.debit) - Number(r.credit)) * 100));
  }
  for (const cents of by.values()) expect(cents).toBe(0);
}

// Σ debit − credit of one account over the loan's and its sales orders' entries.
const onLoanValue = async () =>
  (
    await q<{ n: string }>(sql`select coalesce(sum(debit - credit), 0)::text as n from journal_line
      where workspace_id = ${own.ws}::uuid and account_code = '1220'`)
  )[0].n;

const money = (qty: number, cost: string) => (Math.round(qty * Number(cost) * 100) / 100).toFixed(2);

describe("loan forms", () => {
  it("lend, return part, return the rest: Out → Partly Returned → Returned, stock and 1220 follow", async () => {
    const [a, b] = items;
    const d = await lend([
      { product_id: a.id, qty: "5" },
      { product_id: b.id, qty: "2" },
    ]);
    expect(d).toMatchObject({ status: "draft", deposit: "500.00", location_id: tuas });
    const out = await done(d.id, "submit");
    expect(out).toMatchObject({ status: "out", number: expect.stringMatching(/^LN-\d{4}-\d{5}$/) });
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "95", "ON-LOAN": "5" });
    const value = (Number(money(5, a.cost)) + Number(money(2, b.cost))).toFixed(2);
    expect((await journal("loan_form", d.id)).map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ["1220", value, "0.00"],
      ["1200", "0.00", value],
    ]);

    const [la, lb] = out.lines;
    const none = await run(d.id, "return", { qty_returned: [{ line_id: la.id, qty: "0" }] });
    expect(none.status).toBe(422);
    expect(message(none)).toBe("Give the quantity returned on at least one line");
    const over = await run(d.id, "return", { qty_returned: [{ line_id: la.id, qty: "6" }] });
    expect(over.status).toBe(422);
    expect(message(over)).toBe("Line 1: at most 5 can be returned, not 6");

    const part = await done(d.id, "return", { qty_returned: [{ line_id: la.id, qty: "2" }] });
    expect(part.status).toBe("partly_returned");
    expect(part.lines.map((l) => l.qty_returned)).toEqual(["2.000", "0.000"]);
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "97", "ON-LOAN": "3" });
    const cancel = await run(d.id, "cancel");
    expect(cancel.status).toBe(409);
    expect(message(cancel)).toBe("A partly returned loan form cannot be cancelled");

    const rest = await done(d.id, "return", {
      qty_returned: [
        { line_id: la.id, qty: "3" },
        { line_id: lb.id, qty: "2" },
      ],
    });
    expect(rest.status).toBe("returned");
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "100", "ON-LOAN": "0" });
    expect(await stock(b.id)).toMatchObject({ "WH-TUAS": "100", "ON-LOAN": "0" });
    await balanced("loan_form", d.id);
    expect(Number(await onLoanValue())).toBe(0);
    const again = await run(d.id, "return");
    expect(message(again)).toBe("A returned loan form cannot be returned");
  });

  it("converts what the customer keeps into a sales order; its delivery takes the goods out", async () => {
    const [a] = items;
    const out = await done((await lend([{ product_id: a.id, qty: "4" }])).id, "submit");
    await done(out.id, "return", { qty_returned: [{ line_id: out.lines[0].id, qty: "1" }] });
    // The draft defaults to what is neither returned nor sold.
    const so = await ok(MANAGER, "document_convert", { type: "loan_form", id: out.id, to: "sales_order" });
    expect(so).toMatchObject({ status: "draft", company_id: company, source_type: "loan_form", source_id: out.id });
    expect(so.lines[0]).toMatchObject({ qty: "3.000", source_line_id: out.lines[0].id, product_id: a.id });
    const before = await stock(a.id);
    const submitted = await done(so.id, "submit", undefined, "sales_order");
    expect(submitted.status).toBe("to_deliver_and_bill");
    expect(await read(MANAGER, "loan_form", out.id)).toMatchObject({ status: "converted" });
    expect((await read(MANAGER, "loan_form", out.id)).lines[0]).toMatchObject({
      qty_returned: "1.000",
      qty_sold: "3.000",
    });
    // The kept goods are back at the loan's location for the delivery to take out.
    expect(await stock(a.id)).toEqual({
      "WH-TUAS": String(Number(before["WH-TUAS"]) + 3),
      "ON-LOAN": String(Number(before["ON-LOAN"]) - 3),
    });
    expect((await journal("sales_order", so.id)).map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ["1200", money(3, a.cost), "0.00"],
      ["1220", "0.00", money(3, a.cost)],
    ]);
    await balanced("sales_order", so.id);
    const dox = await ok(MANAGER, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      header: { location_id: tuas },
    });
    await done(dox.id, "submit", undefined, "delivery_order");
    expect((await stock(a.id))["WH-TUAS"]).toBe(before["WH-TUAS"]);
    // Nothing is left to sell; the loan cannot be cancelled while its sale stands.
    const nothing = await rpc(MANAGER, "document_convert", { type: "loan_form", id: out.id, to: "sales_order" });
    expect(nothing.status).toBe(409);
    const cancel = await run(out.id, "cancel");
    expect(cancel.status).toBe(409);
  });

  it("a sale beyond what is still out is refused; cancelling the order sends the goods back on loan", async () => {
    const [a] = items;
    const out = await done((await lend([{ product_id: a.id, qty: "4" }])).id, "submit");
    const so = await ok(MANAGER, "document_convert", { type: "loan_form", id: out.id, to: "sales_order" });
    // Meanwhile 2 come back: the order for 4 asks more than is out.
    await done(out.id, "return", { qty_returned: [{ line_id: out.lines[0].id, qty: "2" }] });
    const refused = await run(so.id, "submit", undefined, MANAGER, "sales_order");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe("Only 2 of 4 are left to sell on line 1");
    const small = await ok(MANAGER, "document_convert", { type: "loan_form", id: out.id, to: "sales_order" });
    expect(small.lines[0].qty).toBe("2.000");
    const loanStock = (await stock(a.id))["ON-LOAN"];
    await done(small.id, "submit", undefined, "sales_order");
    expect((await read(MANAGER, "loan_form", out.id)).status).toBe("converted");
    await done(small.id, "cancel", undefined, "sales_order");
    expect((await stock(a.id))["ON-LOAN"]).toBe(loanStock);
    expect(await read(MANAGER, "loan_form", out.id)).toMatchObject({ status: "partly_returned" });
    await balanced("sales_order", small.id);
  });

  it("is Overdue past its due-back date with goods still out, and listed so", async () => {
    const [a] = items;
    const late = await lend([{ product_id: a.id, qty: "1" }], { doc_date: day(-30), due_date: day(-1) });
    const out = await done(late.id, "submit");
    expect(out.status).toBe("overdue");
    const listed = await restFetch(WAREHOUSE, "loan_form?status=eq.overdue&select=id,number,due_date");
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ id: number }>).map((r) => r.id)).toContain(late.id);
    // Time passing: a loan lent on time whose due date passes is swept to Overdue.
    const onTime = await done((await lend([{ product_id: a.id, qty: "1" }])).id, "submit");
    await q(
      sql`update loan_form set due_date = current_date - 1 where workspace_id = ${own.ws}::uuid and id = ${onTime.id}`,
    );
    const { sweepOverdue } = await import("../src/modules/reports/overdue.ts");
    await sweepOverdue(own.db);
    expect((await read(MANAGER, "loan_form", onTime.id)).status).toBe("overdue");
    // Returned in part it stays overdue; all back, it is Returned.
    const back = await done(out.id, "return");
    expect(back.status).toBe("returned");
    const bad = await lend([{ product_id: a.id, qty: "1" }], { doc_date: day(0), due_date: day(-3) });
    const refused = await run(bad.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe("The due-back date cannot be before the loan's date");
  });

  it("cancels a loan out with nothing back; has its matrix; salespeople read but do not lend", async () => {
    const [a] = items;
    const before = await stock(a.id);
    const d = await lend([{ product_id: a.id, qty: "2" }]);
    expect(message(await run(d.id, "return"))).toBe("A draft loan form cannot be returned");
    await done(d.id, "submit");
    expect(message(await run(d.id, "submit"))).toBe("A lent loan form cannot be lent");
    const cancelled = await done(d.id, "cancel");
    expect(cancelled.status).toBe("cancelled");
    const after = await stock(a.id);
    expect(after["WH-TUAS"]).toBe(before["WH-TUAS"]);
    expect(after["ON-LOAN"] ?? "0").toBe(before["ON-LOAN"] ?? "0");
    await balanced("loan_form", d.id);
    expect(message(await run(d.id, "return"))).toBe("A cancelled loan form cannot be returned");
    expect(message(await run(d.id, "cancel"))).toBe("A cancelled loan form cannot be cancelled");
    const draft = await lend([{ product_id: a.id, qty: "1" }]);
    expect((await done(draft.id, "cancel")).status).toBe("cancelled");
    expect((await restFetch(SALES, `loan_form?id=eq.${d.id}`)).status).toBe(200);
    const mine = await lend([{ product_id: a.id, qty: "1" }]);
    expect((await run(mine.id, "submit", undefined, SALES)).status).toBe(403);
    const byWarehouse = await lend([{ product_id: a.id, qty: "1" }], {}, WAREHOUSE);
    expect((await run(byWarehouse.id, "submit", undefined, WAREHOUSE)).status).toBe(200);
  });
});
