import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";

// Issue 11 "Stock" and DESIGN §2.3.1 `report {name: "stock_valuation", as_of}`: over the demo's year of trading
// (opening stock, receipts, deliveries, returns, transfers, loans, cancels — all made through the engine), what the
// stock in hand is worth agrees with the 1200 Stock In Hand balance today and on a day in the middle of the year
// (in transit with 1210, on loan with 1220), its quantity with Σ stock_move, and another workspace's stock is never
// counted. A server of its own with the full demo seed.

const ADMIN = "admin@demo.test";
const own = ownServer({ SEED: "demo" }, 600_000);

type Report = { rows: Array<Record<string, string | number | null>>; totals: Record<string, string | number> };

const one = async <T>(query: SQL) => (await own.db.execute(query)).rows[0] as T;

async function valuation(email: string, asOf?: string): Promise<Report> {
  const res = await rpc(email, "report", { name: "stock_valuation", ...(asOf ? { as_of: asOf } : {}) });
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
}

const ledger = async (asOf: SQL, account = "1200") =>
  (
    await one<{ balance: string }>(sql`select coalesce(sum(l.debit - l.credit), 0)::numeric(14,2)::text as balance
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where l.workspace_id = ${own.ws}::uuid and l.account_code = ${account} and e.entry_date <= ${asOf}`)
  ).balance;

describe("stock valuation", () => {
  it("is worth the 1200 Stock In Hand balance today (in transit 1210, on loan 1220), and holds Σ stock_move", async () => {
    const report = await valuation(ADMIN);
    expect(report.rows.length).toBeGreaterThan(5);
    expect(report.totals.value).toBe(await ledger(sql`current_date`));
    expect(report.totals.in_transit).toBe(await ledger(sql`current_date`, "1210"));
    expect(report.totals.on_loan).toBe(await ledger(sql`current_date`, "1220"));
    const held = await one<{ qty: string }>(sql`select sum(m.qty)::numeric(14,3)::text as qty from stock_move m
      where m.workspace_id = ${own.ws}::uuid and not exists (select 1 from system_location s
        where s.workspace_id = m.workspace_id and s.location_id = m.location_id)`);
    expect(report.totals.qty).toBe(held.qty);
    const row = report.rows[0];
    expect(Number(row.avg_cost) * Number(row.qty)).toBeCloseTo(Number(row.value), 1);
  });

  it("agrees with the ledger on a past day, counting each move from its document's entry", async () => {
    const mid = await one<{ d: string }>(sql`select (current_date - 180)::text as d`);
    const report = await valuation(ADMIN, mid.d);
    expect(report.totals.value).toBe(await ledger(sql`${mid.d}::date`));
    expect(report.totals.on_loan).toBe(await ledger(sql`${mid.d}::date`, "1220"));
    expect(report.totals.value).not.toBe((await valuation(ADMIN)).totals.value);
  });

  it("counts only the caller's workspace", async () => {
    const pro = await valuation("admin@pro.test");
    expect(pro.totals.value).not.toBe((await valuation(ADMIN)).totals.value);
  });

  it("refuses a malformed date", async () => {
    const res = await rpc(ADMIN, "report", { name: "stock_valuation", as_of: "yesterday" });
    expect(res.status).toBe(422);
  });
});
