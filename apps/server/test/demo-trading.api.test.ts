import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../src/platform/db/database.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// Issue 10 §4: the demo workspace's year of trading, made through the document commands at seed time, is a working
// business: every status of every type, books that balance, receivables that agree with the ledger, stock on hand for
// every active stocked product, and gapless numbers. A server of its own with the full demo seed, so the test reads
// the rows directly (on PGlite and PostgreSQL alike).

let server: TestServer;
let db: Db;
let demo = "";

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent", SEED: "demo" });
  db = server.running.database.db;
  const ws = await db.execute(sql`select id from workspace where slug = 'demo'`);
  demo = (ws.rows[0] as { id: string }).id;
}, 600_000);
afterAll(() => server?.close());

const rows = async <T>(query: SQL) => (await db.execute(query)).rows as T[];
const id = (name: string) => sql.identifier(name);

const STATUSES: Record<string, string[]> = {
  quotation: ["draft", "sent", "won", "lost", "expired", "cancelled"],
  sales_order: ["draft", "to_deliver_and_bill", "to_deliver", "to_bill", "completed", "on_hold", "closed", "cancelled"],
  delivery_order: ["draft", "to_bill", "completed", "cancelled"],
  invoice: ["draft", "unpaid", "partly_paid", "paid", "overdue", "cancelled"],
};
const NUMBERED = [
  "quotation",
  "sales_order",
  "delivery_order",
  "invoice",
  "receipt",
  "goods_return_note",
  "credit_note",
];

describe("the demo workspace's year of trading", () => {
  it("has every status of every selling document, a few hundred documents over twelve months", async () => {
    let documents = 0;
    for (const [type, statuses] of Object.entries(STATUSES)) {
      const found = await rows<{ status: string; n: number }>(sql`select status, count(*)::int as n
        from ${id(type)} where workspace_id = ${demo}::uuid group by status`);
      expect(found.map((r) => r.status).sort(), type).toEqual([...statuses].sort());
      documents += found.reduce((n, r) => n + Number(r.n), 0);
    }
    const [span] = await rows<{ months: number; oldest: number }>(sql`select
        count(distinct date_trunc('month', doc_date))::int as months, (current_date - min(doc_date))::int as oldest
      from invoice where workspace_id = ${demo}::uuid`);
    expect(span.months).toBeGreaterThanOrEqual(12);
    expect(span.oldest).toBeLessThanOrEqual(366);
    expect(documents).toBeGreaterThanOrEqual(180);
  });

  it("has lost quotations with their reasons, orders partly delivered and partly billed, a return and a credit note", async () => {
    const lost = await rows<{ reason: string | null }>(sql`select reason from document_event
      where workspace_id = ${demo}::uuid and doc_type = 'quotation' and action = 'mark_lost'`);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((e) => (e.reason ?? "").length > 0)).toBe(true);
    const partly = await rows<{ status: string; delivered: boolean; billed: boolean }>(sql`select h.status,
        bool_or(l.qty_delivered > 0 and l.qty_delivered < l.qty) as delivered,
        bool_or(l.qty_billed < l.qty) and bool_or(l.qty_billed > 0) as billed
      from sales_order h join sales_order_line l on l.workspace_id = h.workspace_id and l.sales_order_id = h.id
      where h.workspace_id = ${demo}::uuid group by h.id, h.status`);
    expect(partly.some((o) => o.status === "to_deliver_and_bill" && o.delivered)).toBe(true);
    expect(partly.some((o) => o.status === "to_bill" && o.billed)).toBe(true);
    const [returns] = await rows<{ grn: number; cn: number }>(sql`select
        (select count(*)::int from goods_return_note where workspace_id = ${demo}::uuid and status <> 'cancelled') as grn,
        (select count(*)::int from credit_note where workspace_id = ${demo}::uuid and status = 'issued') as cn`);
    expect(returns.grn).toBeGreaterThan(0);
    expect(returns.cn).toBeGreaterThan(0);
  });

  it("has delivery instructions, driver-assigned deliveries handed over, debit notes, and two people quoting", async () => {
    const instructions = await rows<{ status: string }>(sql`select status from delivery_instruction
      where workspace_id = ${demo}::uuid and driver_id is not null order by status`);
    expect(instructions.map((r) => r.status)).toEqual(["done", "draft", "released"]);
    const [fromInstruction] = await rows<{ n: number }>(sql`select count(*)::int as n from delivery_order
      where workspace_id = ${demo}::uuid and source_type = 'delivery_instruction' and received_by is not null`);
    expect(fromInstruction.n).toBe(1);
    const [driven] = await rows<{ n: number; received: number }>(sql`select count(*)::int as n,
        count(received_at)::int as received
      from delivery_order d join "user" u on u.workspace_id = d.workspace_id and u.id = d.driver_id
      where d.workspace_id = ${demo}::uuid and u.email like 'driver@%'`);
    expect(driven.n).toBeGreaterThanOrEqual(5);
    expect(driven.received).toBeGreaterThanOrEqual(3);
    const notes = await rows<{ status: string }>(sql`select status from debit_note
      where workspace_id = ${demo}::uuid and invoice_id is not null order by status`);
    expect(notes.map((r) => r.status)).toEqual(["paid", "unpaid"]);
    // The salesperson sees their own quotations only: the sales manager made some of them.
    const makers = await rows<{ email: string }>(sql`select distinct u.email from quotation q
      join "user" u on u.workspace_id = q.workspace_id and u.id = q.created_by
      where q.workspace_id = ${demo}::uuid order by 1`);
    expect(makers.map((r) => r.email.split("@")[0])).toEqual(["manager", "sales"]);
  });

  it("has receipts that pay several invoices at once and an overpayment kept as the customer's credit", async () => {
    const receipts = await rows<{ allocations: number; unallocated: string }>(sql`select
        (select count(*)::int from payment_allocation a where a.workspace_id = r.workspace_id
          and a.payment_type = 'receipt' and a.payment_id = r.id) as allocations, r.unallocated::text as unallocated
      from receipt r where r.workspace_id = ${demo}::uuid`);
    expect(receipts.length).toBeGreaterThan(20);
    expect(receipts.some((r) => r.allocations >= 2)).toBe(true);
    expect(receipts.some((r) => Number(r.unallocated) > 0)).toBe(true);
  });

  it("has order forms (one switched off) and orders customers sent through them: received, confirmed, rejected", async () => {
    const forms = await rows<{ title: string; active: boolean; items: number; for_customer: boolean }>(sql`select
        f.title, f.active, f.company_id is not null as for_customer, (select count(*)::int from order_form_item i
          where i.workspace_id = f.workspace_id and i.order_form_id = f.id) as items
      from order_form f where f.workspace_id = ${demo}::uuid order by f.id`);
    expect(forms.map((f) => [f.active, f.for_customer])).toEqual([
      [true, false],
      [true, true],
      [false, false],
    ]);
    expect(forms.every((f) => f.items >= 3)).toBe(true);
    const orders = await rows<{ status: string; n: number; numbered: number; priced: number }>(sql`select o.status,
        count(*)::int as n, count(o.number)::int as numbered, count(*) filter (where o.total > 0)::int as priced
      from customer_order o where o.workspace_id = ${demo}::uuid and o.order_form_id is not null group by o.status
      order by o.status`);
    expect(orders.map((o) => [o.status, o.n])).toEqual([
      ["confirmed", 1],
      ["received", 3],
      ["rejected", 1],
    ]);
    expect(orders.every((o) => o.numbered === o.n && o.priced === o.n)).toBe(true);
    // The confirmed one made a sales order; the guest's "create" is in the history, the staff's confirm after it.
    const made = await rows<{ n: number }>(sql`select count(*)::int as n from sales_order s
      where s.workspace_id = ${demo}::uuid and s.source_type = 'customer_order'`);
    expect(made[0].n).toBe(1);
    const events = await rows<{ guest: number }>(sql`select count(*)::int as guest from document_event
      where workspace_id = ${demo}::uuid and doc_type = 'customer_order' and action = 'create' and user_id is null`);
    expect(events[0].guest).toBe(5);
  });

  it("keeps books that balance, per workspace", async () => {
    const tb = await rows<{ slug: string; debit: string; credit: string; entries: number }>(sql`select w.slug,
        coalesce(sum(l.debit), 0)::text as debit, coalesce(sum(l.credit), 0)::text as credit,
        count(distinct l.entry_id)::int as entries
      from workspace w left join journal_line l on l.workspace_id = w.id group by w.slug order by w.slug`);
    for (const w of tb) expect(w.debit, w.slug).toBe(w.credit);
    expect(tb.find((w) => w.slug === "demo")?.entries).toBeGreaterThan(100);
  });

  it("agrees with the ledger: receivables (outstanding less credit) are the 1100 Trade Debtors balance", async () => {
    for (const slug of ["demo", "pro", "lite"]) {
      // Invoices, debit notes and progressive claims (issue 12) are all receivables.
      const [ar] = await rows<{ outstanding: string; credit: string; unapplied: string; ledger: string }>(sql`
        select ((select coalesce(sum(outstanding), 0) from invoice i where i.workspace_id = w.id
                  and i.status not in ('draft', 'cancelled'))
               + (select coalesce(sum(outstanding), 0) from debit_note d where d.workspace_id = w.id
                  and d.status not in ('draft', 'cancelled'))
               + (select coalesce(sum(outstanding), 0) from progressive_claim c where c.workspace_id = w.id
                  and c.status not in ('draft', 'cancelled')))::text as outstanding,
               (select coalesce(sum(unallocated), 0) from receipt r where r.workspace_id = w.id)::text as credit,
               (select coalesce(sum(unapplied), 0) from credit_note c where c.workspace_id = w.id
                  and c.status = 'issued')::text as unapplied,
               (select coalesce(sum(debit - credit), 0) from journal_line l where l.workspace_id = w.id
                  and l.account_code = '1100')::text as ledger
        from workspace w where w.slug = ${slug}`);
      const expected = Number(ar.outstanding) - Number(ar.credit) - Number(ar.unapplied);
      expect(Number(ar.ledger).toFixed(2), slug).toBe(expected.toFixed(2));
    }
  });

  it("has stock on hand for every active stocked product, never below zero, worth what the stock accounts say", async () => {
    const missing = await rows<{ sku: string }>(sql`select p.sku from product p
      where p.workspace_id = ${demo}::uuid and p.active and p.is_stock_tracked and not exists (
        select 1 from stock_move m where m.workspace_id = p.workspace_id and m.product_id = p.id
        group by m.location_id having sum(m.qty) > 0)`);
    expect(missing).toEqual([]);
    const negative = await rows<{ n: number }>(sql`select count(*)::int as n from (select 1 from stock_move
      where workspace_id = ${demo}::uuid group by product_id, location_id having sum(qty) < 0) s`);
    expect(negative[0].n).toBe(0);
    const [value] = await rows<{ moves: string; ledger: string }>(sql`select
        (select sum(sign(qty) * round(abs(qty) * unit_cost, 2)) from stock_move
          where workspace_id = ${demo}::uuid)::text as moves,
        (select sum(debit - credit) from journal_line where workspace_id = ${demo}::uuid
          and account_code in ('1200', '1210', '1220'))::text as ledger`); // in hand, in transit, on loan
    expect(Number(value.ledger).toFixed(2)).toBe(Number(value.moves).toFixed(2));
  });

  it("numbers each type gaplessly per year, in the year of the document's date", async () => {
    for (const type of NUMBERED) {
      const series = await rows<{ year: string; n: number; top: number; distinct: number; wrong: number }>(sql`
        select substring(number from '(\\d{4})-\\d+$') as year, count(*)::int as n,
          max(substring(number from '(\\d+)$')::int) as top,
          count(distinct substring(number from '(\\d+)$')::int)::int as distinct,
          count(*) filter (where extract(year from doc_date)::text <> substring(number from '(\\d{4})-\\d+$'))::int as wrong
        from ${id(type)} where workspace_id = ${demo}::uuid and number is not null group by 1`);
      expect(series.length, type).toBeGreaterThan(0);
      for (const s of series) {
        expect({ type, year: s.year, top: s.top, distinct: s.distinct, wrong: s.wrong }).toEqual({
          type,
          year: s.year,
          top: s.n,
          distinct: s.n,
          wrong: 0,
        });
      }
    }
  });

  it("gives the demo driver a trip today: four stops in order, each with an address and goods (issue 22)", async () => {
    const stops = await rows<{ stop_seq: number; address: string | null; lines: number }>(sql`select d.stop_seq,
        c.shipping_address as address,
        (select count(*)::int from delivery_order_line l where l.workspace_id = d.workspace_id
          and l.delivery_order_id = d.id) as lines
      from delivery_order d join company c on c.workspace_id = d.workspace_id and c.id = d.company_id
      join "user" u on u.workspace_id = d.workspace_id and u.id = d.driver_id
      where d.workspace_id = ${demo}::uuid and u.email = 'driver@demo.test' and d.planned_date = current_date
        and d.status = 'to_bill' and d.received_by is null
      order by d.stop_seq`);
    expect(stops.map((s) => Number(s.stop_seq))).toEqual([1, 2, 3, 4]);
    for (const s of stops) {
      expect(s.address).toBeTruthy();
      expect(Number(s.lines)).toBe(2);
    }
  });
});
