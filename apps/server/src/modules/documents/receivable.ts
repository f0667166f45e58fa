import { settleStatus } from "@workmetrics/domain/documents/machine";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { DocumentSpec } from "../../platform/documents/registry.ts";
import {
  assignments,
  loadLines,
  lockHeader,
  type Row,
  today,
  updateRow,
  writeEvent,
} from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";

// The documents a customer owes on, each with a customer, number, doc_date, due_date, rate, base_total and
// `outstanding` that receipts pay: invoices and debit notes, and what other modules register (issue 12: progressive
// claims). The AR ageing, the customer statement and its PDF read every one of them, so they agree with 1100.
const RECEIVABLES = new Set(["invoice", "debit_note"]);

export function registerReceivable(type: string): void {
  RECEIVABLES.add(type);
}

export const receivableTypes = (): string[] => [...RECEIVABLES];

// A receivable (an invoice, a debit note, a progressive claim): `outstanding` is its total less every allocation to it (STYLE "Payments
// allocate in rows"), then its status follows and a change is audited; answers the new header. record_payment,
// credit notes and the types' own effects call it. Its own submit passes the document it holds locked (`locked`)
// and `fallsDue`: the due date, unless one was given, is the customer's payment terms from the document's date —
// worked out and written in one statement with the outstanding (and `set`, other columns its submit writes).
export async function settleReceivable(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  id: number,
  by?: Row,
  locked?: { header: Row; lines: Row[]; fallsDue?: boolean; set?: Row },
): Promise<Row> {
  const ws = caller.workspaceId as string;
  const type = spec.machine.type;
  // A cancelled one owes nothing (the engine wrote 0 when it was cancelled).
  const owed = sql`case when d.status = 'cancelled' then 0 else d.total - coalesce((select sum(a.amount)
      from payment_allocation a where a.workspace_id = d.workspace_id and a.document_type = ${type}
        and a.document_id = d.id), 0) end`;
  const where = sql`d.workspace_id = ${ws}::uuid and d.id = ${id}`;
  let header: Row;
  // Whether `outstanding` is still to be written (the submit's statement below writes it as it works it out).
  let owes = true;
  if (locked?.fallsDue) {
    // Its own submit: the due date and outstanding are written by the statement that works them out, and the
    // status only when it differs from the one the transition wrote (a back-dated invoice already overdue).
    const res = await tx.execute(sql`update ${sql.identifier(type)} d set outstanding = ${owed},
        due_date = coalesce(d.due_date, d.doc_date + (select c.payment_terms_days from company c
          where c.workspace_id = d.workspace_id and c.id = d.company_id)),
        ${locked.set ? sql`${assignments(spec.header, locked.set)},` : sql``} updated_at = now()
      where ${where} returning d.outstanding::text as o, d.due_date::text as due`);
    const found = res.rows[0] as { o: string; due: string };
    header = { ...locked.header, ...locked.set, due_date: found.due, outstanding: found.o };
    owes = false;
  } else {
    const res = await tx.execute(sql`select (${owed})::text as o from ${sql.identifier(type)} d where ${where}`);
    const outstanding = (res.rows[0] as { o: string }).o;
    const current = locked ? locked.header : ((await lockHeader(tx, spec, ws, id)) as Row);
    header = { ...current, outstanding };
  }
  const status = String(header.status);
  const lines = locked ? locked.lines : await loadLines(tx, spec, ws, id);
  const settled = settleStatus(spec.machine, { status, today: await today(tx), header, lines }, status);
  if (owes) await updateRow(tx, spec.header, ws, id, { outstanding: header.outstanding, status: settled });
  else if (settled !== status) await updateRow(tx, spec.header, ws, id, { status: settled });
  if (settled !== status) {
    await writeEvent(tx, caller, { type, docId: id, action: "settle", from: status, to: settled, changes: by });
  }
  return { ...header, status: settled };
}
