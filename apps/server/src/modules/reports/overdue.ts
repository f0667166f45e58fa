import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";

// Issue 10 §2: an invoice (or debit note) past its due date that still owes something is Overdue. Time passing
// writes nothing, so the status is refreshed: lazily, in the reader's workspace, before every receivables report and
// the dashboard's figures; and for every workspace by one sweep each hour (a scheduled job), so a list opened the
// morning after the due date already says Overdue. One UPDATE per table over the status index; rows another
// transaction holds (a payment settling them) are skipped — that transaction settles them itself. Each change is
// written to the audit trail (action "overdue", no user). A payment later settles the status again from the
// outstanding amount (invoicePaymentStatus): paid when nothing is left, overdue while something is.

// What makes a row of `d` overdue: owed money past its due date.
const OWED = sql`d.status in ('unpaid', 'partly_paid') and d.due_date < current_date and d.outstanding > 0`;

const TABLES = new Map<string, SQL>([
  ["invoice", OWED],
  ["debit_note", OWED],
]);
const tables = () => [...TABLES.keys()];

// Another module's document owed with the same statuses and columns (issue 11: supplier invoices), or overdue on
// its own terms (`due`, over the row `d`: a loan past its due-back date with goods still out).
export function registerOverdueTable(table: string, due: SQL = OWED): void {
  if (!TABLES.has(table)) TABLES.set(table, due);
}

function refresh(table: string, workspace: SQL): SQL {
  const t = sql.identifier(table);
  return sql`with due as (
      select d.workspace_id, d.id, d.status from ${t} d
      where ${workspace} and ${TABLES.get(table) ?? OWED}
      for update skip locked
    ), changed as (
      update ${t} d set status = 'overdue', updated_at = now() from due
      where d.workspace_id = due.workspace_id and d.id = due.id
      returning due.workspace_id, due.id, due.status as from_status
    ), audit as (
      insert into document_event (workspace_id, doc_type, doc_id, action, from_status, to_status)
      select workspace_id, ${table}, id, 'overdue', from_status, 'overdue' from changed returning 1
    )
    select count(*)::int as n from audit`;
}

// In a request's transaction: the caller's workspace only (RLS applies as well).
export async function refreshOverdue(tx: Tx, workspaceId: string): Promise<number> {
  let n = 0;
  for (const table of tables()) {
    const res = await tx.execute(refresh(table, sql`d.workspace_id = ${workspaceId}::uuid`));
    n += (res.rows[0] as { n: number }).n;
  }
  return n;
}

// Every workspace at once, as the server's own connection (not a request): the scheduled job, once an hour.
export async function sweepOverdue(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    let n = 0;
    for (const table of tables()) n += ((await tx.execute(refresh(table, sql`true`))).rows[0] as { n: number }).n;
    return n;
  });
}

// The hourly sweep is a scheduled job (issue 20 §1, app.ts): once an hour across every instance, not per process.
export const OVERDUE_SWEEP = "sweep.overdue";
