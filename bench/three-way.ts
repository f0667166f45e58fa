// Issue 11 "the three-way queue … over a workspace with 20,000 open invoice lines; figures beside direct SQL": the
// Three-way check page's statement (report three_way_check) over 1,000 submitted supplier invoices of 20 lines each
// against their purchase orders, one in ten held with a price exception on some lines; (a) straight through the
// database driver — the report's own statement (threeWayQueue.run) and beside it the plain join a hand-written
// queue would start with — and (b) through POST /rest/v1/rpc/report as the page calls it: the exception queue, one
// supplier, one reason, every line paged deep, one invoice's drill-down; and the Accounts payable ageing.
// Generates the data with SQL into a fresh database (never into the repository), in the demo workspace.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/three-way.ts
//      node --import tsx bench/three-way.ts            (PGlite)
// BENCH_REQUESTS (sequential requests per figure, default 30) and BENCH_INVOICES (default 1000) adjust it.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { threeWayQueue } from "../apps/server/src/modules/purchasing/payables-three-way.report.ts";
import { inRequest } from "../apps/server/src/platform/db/database.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";
import { timed } from "./timed.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 1000);
const LINES = 20;

const server = await startTestServer({ LOG_LEVEL: "silent" });
const onPg = Boolean(server.databaseUrl);
const db = server.running.database.db;

const time = (name: string, run: (i: number) => Promise<unknown>) => timed(name, REQUESTS, run);

// Orders, their lines, the invoices and their lines, each set in one statement; invoice k bills order k.
async function generate(ws: string): Promise<{ supplier: number; invoice: number }> {
  const t = performance.now();
  const suppliers = sql`(select array_agg(id order by id) from company where workspace_id = ${ws}::uuid
    and is_supplier)`;
  await db.execute(sql`insert into purchase_order (workspace_id, number, status, company_id)
    select ${ws}::uuid, 'BPO-' || g, 'to_bill', s.ids[1 + g % array_length(s.ids, 1)]
    from generate_series(1, ${INVOICES}) g, ${suppliers} as s(ids)`);
  await db.execute(sql`insert into purchase_order_line (workspace_id, purchase_order_id, line_no, description, qty,
      unit_price, qty_received, qty_billed)
    select ${ws}::uuid, o.id, n, 'Bench part ' || n, 10, 10 + n, 10, 10
    from purchase_order o, generate_series(1, ${LINES}) n where o.workspace_id = ${ws}::uuid and o.number like 'BPO-%'`);
  await db.execute(sql`insert into supplier_invoice (workspace_id, number, status, company_id, doc_date, due_date,
      total, outstanding, supplier_invoice_number, match_status)
    select ${ws}::uuid, 'BSINV-' || substr(o.number, 5), 'unpaid', o.company_id, current_date - (o.id % 120)::int,
      current_date - (o.id % 120)::int + 30, 5000, 5000, 'B-' || o.number,
      case when o.id % 10 = 0 then 'exception' else 'matched' end
    from purchase_order o where o.workspace_id = ${ws}::uuid and o.number like 'BPO-%'`);
  await db.execute(sql`insert into supplier_invoice_line (workspace_id, supplier_invoice_id, line_no, description, qty,
      unit_price, purchase_order_line_id, match_exception)
    select ${ws}::uuid, i.id, l.line_no, l.description, l.qty,
      case when i.match_status = 'exception' and l.line_no % 4 = 0 then l.unit_price * 1.08 else l.unit_price end,
      l.id,
      case when i.match_status = 'exception' and l.line_no % 4 = 0
        then 'Price ' || round(l.unit_price * 1.08, 2) || ' is above the order''s ' || round(l.unit_price, 2) end
    from supplier_invoice i
    join purchase_order o on o.workspace_id = i.workspace_id and o.number = 'BPO-' || substr(i.number, 7)
    join purchase_order_line l on l.workspace_id = o.workspace_id and l.purchase_order_id = o.id
    where i.workspace_id = ${ws}::uuid and i.number like 'BSINV-%'`);
  await db.execute(sql`analyze`);
  const first = (
    await db.execute(sql`select i.company_id, i.id from supplier_invoice i
      where i.workspace_id = ${ws}::uuid and i.match_status = 'exception' order by i.id limit 1`)
  ).rows[0] as { company_id: number; id: number };
  const n = (
    await db.execute(sql`select count(*)::int as n from supplier_invoice_line where workspace_id = ${ws}::uuid`)
  ).rows[0] as { n: number };
  console.log(`generated ${n.n} supplier invoice lines in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return { supplier: Number(first.company_id), invoice: Number(first.id) };
}

try {
  const ws = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  const { supplier, invoice } = await generate(ws);
  console.log(
    `three-way bench on ${onPg ? "PostgreSQL" : "PGlite"}, ${REQUESTS} sequential requests each, node ${process.version}`,
  );
  const caller = { kind: "member", workspaceId: ws, userId: null } as unknown as Parameters<
    typeof threeWayQueue.run
  >[2];
  const asMember = <T>(run: (tx: Parameters<Parameters<typeof inRequest>[2]>[0]) => Promise<T>) =>
    inRequest(db, { workspaceId: ws, userId: null, role: "authenticated" }, run);

  // (a) direct
  await time("(a) plain join: held lines, newest first, page of 25", (i) =>
    db.execute(sql`select i.number, l.line_no, l.qty, l.unit_price, pol.qty, pol.unit_price, l.match_exception
      from supplier_invoice_line l
      join supplier_invoice i on i.workspace_id = l.workspace_id and i.id = l.supplier_invoice_id
      left join purchase_order_line pol on pol.workspace_id = l.workspace_id and pol.id = l.purchase_order_line_id
      where l.workspace_id = ${ws}::uuid and i.match_status = 'exception' and l.match_exception is not null
      order by i.doc_date desc, i.id desc, l.line_no limit 25 offset ${(i % 4) * 25}`),
  );
  await time("(a) three_way_check statement, exceptions, page of 25", (i) =>
    asMember((tx) => threeWayQueue.run(tx, { status: "exception", limit: 25, offset: (i % 4) * 25 }, caller)),
  );
  await time("(a) three_way_check statement, all lines, page 200", () =>
    asMember((tx) => threeWayQueue.run(tx, { status: "all", limit: 25, offset: 5000 }, caller)),
  );

  // (b) through the server, as the pages call it
  const headers = { ...(await signedInHeaders(server.url)), "content-type": "application/json" };
  const report = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/rest/v1/rpc/report`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`report: ${res.status} ${await res.text()}`);
    return res.json();
  };
  await time("(b) rpc/report three_way_check: the exception queue", (i) =>
    report({ name: "three_way_check", limit: 25, offset: (i % 4) * 25 }),
  );
  await time("(b) rpc/report three_way_check: one supplier", () =>
    report({ name: "three_way_check", company_id: supplier, limit: 25 }),
  );
  await time("(b) rpc/report three_way_check: reason price", () =>
    report({ name: "three_way_check", reason: "price", limit: 25 }),
  );
  await time("(b) rpc/report three_way_check: all lines, page 200", () =>
    report({ name: "three_way_check", status: "all", limit: 25, offset: 5000 }),
  );
  await time("(b) rpc/report three_way_check: one invoice side by side", () =>
    report({ name: "three_way_check", invoice_id: invoice, limit: 500 }),
  );
  await time("(b) rpc/report ap_ageing by supplier", () => report({ name: "ap_ageing" }));
} finally {
  await server.close();
}
