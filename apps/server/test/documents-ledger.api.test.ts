import { CHART_OF_ACCOUNTS } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, inRequest, type Tx } from "../src/platform/db/database.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// Issue 10 §2: the books balance in the database, not only in code — a deferred constraint trigger refuses, at
// commit, any journal entry whose debits and credits differ (on PGlite and PostgreSQL alike); every workspace has
// its chart of accounts.

let server: TestServer;
let db: Db;
let demo = "";
let pro = "";

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  db = server.running.database.db;
  const ws = await db.execute(sql`select id, slug from workspace where slug in ('demo', 'pro') order by slug`);
  [demo, pro] = (ws.rows as Array<{ id: string }>).map((r) => r.id);
}, 120_000);
afterAll(() => server?.close());

const asMember = <T>(workspaceId: string, fn: (tx: Tx) => Promise<T>) =>
  inRequest(db, { workspaceId, userId: null, role: "authenticated" }, fn);

async function entry(tx: Tx, workspaceId: string, lines: Array<[string, string, string]>): Promise<number> {
  const res = await tx.execute(sql`insert into journal_entry (workspace_id, entry_date, memo)
    values (${workspaceId}::uuid, '2026-03-01', 'Test') returning id`);
  const id = (res.rows[0] as { id: number }).id;
  // One statement per line: the check waits for the commit, not for the statement.
  for (const [i, [code, debit, credit]] of lines.entries()) {
    await tx.execute(sql`insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit)
      values (${workspaceId}::uuid, ${id}, ${i + 1}, ${code}, ${debit}, ${credit})`);
  }
  return id;
}

// The database error under Drizzle's wrapper (a COMMIT's error comes bare).
async function refusal(attempt: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await attempt;
  } catch (err) {
    const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const pg = typeof e.code === "string" ? e : (e.cause ?? {});
    return { code: pg.code, constraint: pg.constraint };
  }
  throw new Error("The database took it");
}

const entries = async (workspaceId: string) =>
  Number(
    (
      (await db.execute(sql`select count(*)::int as n from journal_entry where workspace_id = ${workspaceId}::uuid`))
        .rows[0] as { n: number }
    ).n,
  );

describe("the ledger in the database", () => {
  it("every workspace has the chart of accounts", async () => {
    const res = await db.execute(sql`select w.slug, count(a.code)::int as n from workspace w
      left join account a on a.workspace_id = w.id group by w.slug order by w.slug`);
    for (const row of res.rows as Array<{ slug: string; n: number }>) {
      expect(row, row.slug).toEqual({ slug: row.slug, n: CHART_OF_ACCOUNTS.length });
    }
  });

  it("takes a balanced entry written line by line", async () => {
    const before = await entries(demo);
    await asMember(demo, (tx) =>
      entry(tx, demo, [
        ["1100", "109.00", "0"],
        ["4000", "0", "100.00"],
        ["2200", "0", "9.00"],
      ]),
    );
    expect(await entries(demo)).toBe(before + 1);
  });

  it("refuses an unbalanced entry at commit, and nothing of it stays", async () => {
    const before = await entries(demo);
    const attempt = asMember(demo, (tx) =>
      entry(tx, demo, [
        ["1100", "109.00", "0"],
        ["4000", "0", "100.00"],
      ]),
    );
    expect(await refusal(attempt)).toMatchObject({ code: "23514", constraint: "journal_entry_balanced" });
    expect(await entries(demo)).toBe(before);
  });

  it("refuses a change that unbalances an entry, even on a connection without a workspace (no RLS to hide lines)", async () => {
    const id = await asMember(pro, (tx) =>
      entry(tx, pro, [
        ["1010", "50.00", "0"],
        ["1100", "0", "50.00"],
      ]),
    );
    expect(
      await refusal(
        db.transaction((tx) =>
          tx.execute(sql`update journal_line set credit = 49.99 where workspace_id = ${pro}::uuid and entry_id = ${id}
          and credit > 0`),
        ),
      ),
    ).toMatchObject({ constraint: "journal_entry_balanced" });
    expect(
      await refusal(
        db.transaction((tx) =>
          tx.execute(
            sql`delete from journal_line where workspace_id = ${pro}::uuid and entry_id = ${id} and debit > 0`,
          ),
        ),
      ),
    ).toMatchObject({ constraint: "journal_entry_balanced" });
  });

  it("refuses a line on an account the workspace does not have, or with two sides", async () => {
    expect(await refusal(asMember(demo, (tx) => entry(tx, demo, [["9999", "1.00", "0"]])))).toMatchObject({
      code: "23503",
    });
    expect(await refusal(asMember(demo, (tx) => entry(tx, demo, [["1000", "1.00", "1.00"]])))).toMatchObject({
      constraint: "journal_line_one_side",
    });
  });
});
