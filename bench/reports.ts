// Issue 12 "Reports over a workspace with a million journal lines answer fast": the trial balance, the P&L and the
// GST F5 of the demo workspace holding 1,000,000 journal lines (200,000 entries of five lines over two years, and
// 50,000 invoices + 10,000 supplier invoices of two lines for the F5), among 100 workspaces of smaller books
// (5,000 lines each), (a) as the same aggregate in plain SQL through the driver and (b) through POST
// /rest/v1/rpc/report signed in, side by side; also one account's general ledger page. Generated with
// generate_series into a fresh database (never into the repository); triggers are off while loading (the balance
// check and the lock date would run per row; the data is balanced by construction), so the month sums the reports
// read (journal_month) are filled by the same aggregate the migration backfills with.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/reports.ts
//      node --import tsx bench/reports.ts            (PGlite)
// BENCH_REQUESTS (sequential requests per figure, default 20), BENCH_LINES (the demo workspace's journal lines,
// default 1,000,000) and BENCH_WORKSPACES (the workspaces around it, default 100) adjust it; BENCH_EXPLAIN=1 prints
// the plans of the F5's documents and a general ledger page first.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { ledgerLinesQuery } from "../apps/server/src/modules/reports/financial/general-ledger.report.ts";
import { gstDocuments } from "../apps/server/src/modules/reports/financial/gst-f5.report.ts";
import { seedChartOfAccounts } from "../apps/server/src/platform/db/chart-of-accounts.ts";
import { inRequest, type Tx } from "../apps/server/src/platform/db/database.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";
import { timed } from "./timed.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 100);
const AROUND = 5_000; // journal lines of each other workspace
const ENTRIES = Math.round(LINES / 5);
const INVOICES = Math.round(ENTRIES / 4);
const BILLS = Math.round(INVOICES / 5);
const YEAR = { from: "2029-01-01", to: "2029-12-31" };
const QUARTER = { from: "2030-04-01", to: "2030-06-30" };

const server = await startTestServer({ LOG_LEVEL: "silent" });
const onPg = Boolean(server.databaseUrl);
const db = server.running.database.db;
const time = (name: string, run: (i: number) => Promise<unknown>) => timed(name, REQUESTS, run);

// `entries` entries of five lines each in workspace `ws`, dated over 2029–2030: a sale (Dr 1100 / Cr 4000 / Cr 2200)
// and its cost (Dr 5000 / Cr 1200), every tenth an expense paid from the bank instead of the cost.
async function journal(tx: Tx, ws: string, entries: number, tag: string) {
  await tx.execute(sql`insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id)
    select ${ws}::uuid, ${tag} || '-' || g, date '2029-01-01' + (g % 730), 'Bench entry ' || g,
      case when g % 10 = 0 then null else 'invoice' end, case when g % 10 = 0 then null else g end
    from generate_series(1, ${entries}) g`);
  await tx.execute(sql`insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
    select e.workspace_id, e.id, v.n, v.code, v.debit, v.credit, null
    from (select id, workspace_id, (100 + id % 900)::numeric as s, (id % 10 = 0) as expense
          from journal_entry where workspace_id = ${ws}::uuid and memo like 'Bench entry %') e
    cross join lateral (values
      (1, '1100', round(e.s * 1.09, 2), 0::numeric),
      (2, '4000', 0::numeric, e.s),
      (3, '2200', 0::numeric, round(e.s * 0.09, 2)),
      (4, case when e.expense then '6100' else '5000' end, round(e.s * 0.6, 2), 0::numeric),
      (5, case when e.expense then '1010' else '1200' end, 0::numeric, round(e.s * 0.6, 2))
    ) as v(n, code, debit, credit)`);
}

// Invoices and supplier invoices of two lines (SR and ZR, or SR and ES) in the demo workspace, for the GST F5.
async function documents(tx: Tx, ws: string) {
  const company = (await tx.execute(sql`select id from company where workspace_id = ${ws}::uuid order by id limit 1`))
    .rows[0] as { id: number };
  for (const [type, n, tag] of [
    ["invoice", INVOICES, "BINV"],
    ["supplier_invoice", BILLS, "BSINV"],
  ] as const) {
    const t = sql.identifier(type);
    const lines = sql.identifier(`${type}_line`);
    const parent = sql.identifier(`${type}_id`);
    await tx.execute(sql`insert into ${t} (workspace_id, number, status, doc_date, company_id, subtotal, net_total,
        tax_total, total, base_total ${type === "supplier_invoice" ? sql`, supplier_invoice_number` : sql``})
      select ${ws}::uuid, ${tag} || '-' || g, case when g % 50 = 0 then 'cancelled' else 'unpaid' end,
        date '2029-01-01' + (g % 730), ${company.id}, 150, 150, 9, 159, 159
        ${type === "supplier_invoice" ? sql`, 'S-' || g` : sql``}
      from generate_series(1, ${n}) g`);
    await tx.execute(sql`insert into ${lines} (workspace_id, ${parent}, line_no, description, qty, unit_price, tax_code,
        line_total, net_amount)
      select h.workspace_id, h.id, v.n, 'Bench line', 1, v.amount, v.code, v.amount, v.amount
      from ${t} h cross join lateral (values (1, 'SR', 100::numeric), (2, case when h.id % 3 = 0 then 'ES' else 'ZR' end, 50::numeric))
        as v(n, code, amount)
      where h.workspace_id = ${ws}::uuid and h.number like ${`${tag}-%`}`);
  }
}

async function generate(): Promise<string> {
  const t = performance.now();
  const demo = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  await db.execute(sql`insert into workspace (slug, name, tier_id)
    select 'bench-' || g, 'Bench Books ' || g || ' Pte Ltd', 12 from generate_series(1, ${WORKSPACES - 3}) g`);
  await db.transaction((tx) => seedChartOfAccounts(tx));
  // One transaction on one connection, its triggers off (set local ends with it).
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await journal(tx, demo, ENTRIES, "BJ");
    const others = (await tx.execute(sql`select id from workspace where id <> ${demo}::uuid order by slug`))
      .rows as Array<{ id: string }>;
    for (const w of others) await journal(tx, w.id, AROUND / 5, "BJ");
    await documents(tx, demo);
    // The month sums the journal_line triggers would have kept (they were off for the load).
    await tx.execute(sql`delete from journal_month`);
    await tx.execute(sql`insert into journal_month (workspace_id, account_code, month, debit, credit)
      select l.workspace_id, l.account_code, date_trunc('month', e.entry_date)::date, sum(l.debit), sum(l.credit)
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      group by 1, 2, 3`);
  });
  await db.execute(sql`vacuum analyze`);
  if (onPg) await db.execute(sql`checkpoint`);
  const c = (
    await db.execute(sql`select count(*)::int as all_lines,
      count(*) filter (where workspace_id = ${demo}::uuid)::int as lines,
      (select count(*)::int from workspace) as workspaces from journal_line`)
  ).rows[0] as { all_lines: number; lines: number; workspaces: number };
  console.log(
    `data set: ${c.workspaces} workspaces, ${c.all_lines.toLocaleString()} journal lines; demo has ${c.lines.toLocaleString()} lines, ${INVOICES.toLocaleString()} invoices and ${BILLS.toLocaleString()} supplier invoices (${((performance.now() - t) / 1000).toFixed(1)} s to generate)`,
  );
  return demo;
}

try {
  const ws = await generate();
  console.log(
    `reports bench on ${onPg ? "PostgreSQL" : "PGlite"}, ${REQUESTS} sequential requests each, node ${process.version}`,
  );

  if (process.env.BENCH_EXPLAIN) {
    // The plans of the two statements that read lines rather than month sums, as the request role runs them.
    const plan = async (name: string, q: ReturnType<typeof sql>) => {
      const r = await inRequest(db, { workspaceId: ws, userId: null, role: "authenticated" }, (tx) =>
        tx.execute(sql`explain (analyze, buffers) ${q}`),
      );
      console.log(`--- ${name}\n${(r.rows as Array<Record<string, string>>).map((x) => x["QUERY PLAN"]).join("\n")}`);
    };
    await plan(
      "gst_f5 documents",
      sql`with ${gstDocuments(ws, QUARTER.from, QUARTER.to)} select count(*) from gst_docs`,
    );
    await plan(
      "general_ledger lines",
      ledgerLinesQuery(
        ws,
        { code: "4000", name: "Sales", root: "income" },
        { from: "2029-06-01", to: "2029-06-30", limit: 1000, offset: 0 },
      ),
    );
  }

  // (a) the same aggregates in plain SQL, straight through the driver (no RLS, no HTTP, no shaping).
  await time("(a) SQL: Σ debit, credit by account to a date (TB)", () =>
    db.execute(sql`select l.account_code, sum(l.debit), sum(l.credit) from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where l.workspace_id = ${ws}::uuid and e.entry_date <= ${YEAR.to}::date group by l.account_code`),
  );
  await time("(a) SQL: Σ income and expense accounts over a year (P&L)", () =>
    db.execute(sql`select l.account_code, sum(l.debit - l.credit) from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      join account a on a.workspace_id = l.workspace_id and a.code = l.account_code
      where l.workspace_id = ${ws}::uuid and a.root in ('income', 'expense')
        and e.entry_date between ${YEAR.from}::date and ${YEAR.to}::date group by l.account_code`),
  );
  await time("(a) SQL: Σ invoice lines by tax code over a quarter (F5)", () =>
    db.execute(sql`select l.tax_code, sum(l.net_amount) from invoice i
      join invoice_line l on l.workspace_id = i.workspace_id and l.invoice_id = i.id
      where i.workspace_id = ${ws}::uuid and i.status not in ('draft', 'cancelled')
        and i.doc_date between ${QUARTER.from}::date and ${QUARTER.to}::date group by l.tax_code`),
  );

  // (b) through the server, signed in as the demo workspace's admin.
  const headers = { ...(await signedInHeaders(server.url)), "content-type": "application/json" };
  const report = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/rest/v1/rpc/report`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${body.name}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  await time("(b) rpc/report trial_balance as of a date", () => report({ name: "trial_balance", as_of: YEAR.to }));
  await time("(b) rpc/report trial_balance over a year", () => report({ name: "trial_balance", ...YEAR }));
  await time("(b) rpc/report profit_and_loss over a year", () => report({ name: "profit_and_loss", ...YEAR }));
  await time("(b) rpc/report balance_sheet as of a date", () => report({ name: "balance_sheet", as_of: YEAR.to }));
  await time("(b) rpc/report gst_f5 over a quarter", () => report({ name: "gst_f5", ...QUARTER }));
  await time("(b) rpc/report general_ledger 4000, a month, first 1000", () =>
    report({ name: "general_ledger", account: "4000", from: "2029-06-01", to: "2029-06-30" }),
  );
  const tb = (await report({ name: "trial_balance", as_of: YEAR.to })) as { totals: Record<string, string> };
  console.log(`check: trial balance debit ${tb.totals.debit} = credit ${tb.totals.credit}`);
} finally {
  await server.close();
}
