import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOverdue } from "../src/modules/reports/overdue.ts";
import { type Db, inRequest } from "../src/platform/db/database.ts";
import { act, type Doc, ok, read, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";

// Issue 10 §2: an invoice past its due date that still owes is Overdue, though time passing writes nothing. The
// reader's workspace is refreshed before receivables reports and the dashboard, every workspace by the sweep; a
// payment then settles the status from what is left. A server of its own, to move a due date into the past (as a
// day passing would) and to run the sweep.

const ADMIN = "admin@demo.test";
let server: TestServer;
let db: Db;
let ws = "";
let customer = 0;

const q = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  inRequest(
    db,
    { workspaceId: ws, userId: null, role: "authenticated" },
    async (tx) => (await tx.execute(query)).rows as T[],
  );

// A submitted invoice of 100.00 (zero-rated), due today: Unpaid.
async function dueToday(): Promise<Doc> {
  const doc = await ok(ADMIN, "document_save", {
    type: "invoice",
    header: { company_id: customer, due_date: (await q<{ d: string }>(sql`select current_date::text as d`))[0].d },
    lines: [{ description: "Service", qty: "1", unit_price: "100", tax_code: "ZR" }],
  });
  const res = await act(ADMIN, "invoice", doc.id, "submit");
  expect(res.status, res.text).toBe(200);
  expect((res.body as Doc).status).toBe("unpaid");
  return res.body as Doc;
}

// What a day passing does: the due date is now yesterday.
const dayPasses = (id: number) =>
  q(sql`update invoice set due_date = current_date - 1 where workspace_id = ${ws}::uuid and id = ${id}`);

const pay = (id: number, amount: string) =>
  rpc(ADMIN, "record_payment", {
    type: "receipt",
    company_id: customer,
    amount,
    method: "bank_transfer",
    allocations: [{ document_type: "invoice", document_id: id, amount }],
  });

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  db = server.running.database.db;
  ws = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  customer = (
    await q<{ id: number }>(sql`select id from company where workspace_id = ${ws}::uuid and is_customer
    order by id limit 1`)
  )[0].id;
}, 180_000);
afterAll(() => server?.close());

describe("overdue invoices", () => {
  it("an invoice due yesterday becomes Overdue when receivables are read, with an audit row", async () => {
    const inv = await dueToday();
    const other = await dueToday(); // still due today: not overdue
    await dayPasses(inv.id);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("unpaid"); // nothing has looked yet
    const report = await rpc(ADMIN, "report", { name: "ar_ageing" });
    expect(report.status).toBe(200);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("overdue");
    expect((await read(ADMIN, "invoice", other.id)).status).toBe("unpaid");
    const events = await q<{ action: string; from_status: string; to_status: string; user_id: string | null }>(
      sql`select action, from_status, to_status, user_id from document_event
        where workspace_id = ${ws}::uuid and doc_type = 'invoice' and doc_id = ${inv.id} and action = 'overdue'`,
    );
    expect(events).toEqual([{ action: "overdue", from_status: "unpaid", to_status: "overdue", user_id: null }]);
    // Reading again changes nothing more.
    await rpc(ADMIN, "report", { name: "ar_ageing" });
    const again = await q(sql`select 1 from document_event where workspace_id = ${ws}::uuid and doc_id = ${inv.id}
      and doc_type = 'invoice' and action = 'overdue'`);
    expect(again).toHaveLength(1);
  });

  it("the dashboard's figures refresh it too and count it", async () => {
    const inv = await dueToday();
    await dayPasses(inv.id);
    const res = await rpc(ADMIN, "dashboard_summary", {});
    expect(res.status).toBe(200);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("overdue");
    const figures = (res.body as { figures: { overdue_receivables: { count: number } } }).figures;
    expect(figures.overdue_receivables.count).toBeGreaterThanOrEqual(1);
  });

  it("the sweep marks every workspace's overdue invoices without a request", async () => {
    const inv = await dueToday();
    await dayPasses(inv.id);
    expect(await sweepOverdue(db)).toBeGreaterThanOrEqual(1);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("overdue");
    expect(await sweepOverdue(db)).toBe(0);
  });

  it("a partly paid invoice becomes overdue; a part payment keeps it overdue, the rest settles it paid", async () => {
    const inv = await dueToday();
    expect((await pay(inv.id, "30")).status).toBe(200);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("partly_paid");
    await dayPasses(inv.id);
    await rpc(ADMIN, "report", { name: "ar_ageing" });
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("overdue");
    expect((await pay(inv.id, "50")).status).toBe(200);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "overdue", outstanding: "20.00" });
    expect((await pay(inv.id, "20")).status).toBe(200);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    // Paid stays paid: the refresh only looks at what still owes.
    await rpc(ADMIN, "report", { name: "ar_ageing" });
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("paid");
  });
});
