import { settleStatus } from "@workmetrics/domain/documents/machine";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { DocumentSpec } from "../../platform/documents/registry.ts";
import { loadLines, lockHeader, type Row, today, updateRow, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";

// A receivable (an invoice, a debit note): `outstanding` is its total less every allocation to it (STYLE "Payments
// allocate in rows"), then its status follows and a change is audited; answers the new header. record_payment,
// credit notes and the types' own effects call it.
export async function settleReceivable(tx: Tx, caller: Caller, spec: DocumentSpec, id: number, by?: Row): Promise<Row> {
  const ws = caller.workspaceId as string;
  const type = spec.machine.type;
  const res = await tx.execute(sql`select (d.total - coalesce((select sum(a.amount) from payment_allocation a
      where a.workspace_id = d.workspace_id and a.document_type = ${type} and a.document_id = d.id), 0))::text as o
    from ${sql.identifier(type)} d where d.workspace_id = ${ws}::uuid and d.id = ${id}`);
  const outstanding = (res.rows[0] as { o: string }).o;
  const locked = (await lockHeader(tx, spec, ws, id)) as Row;
  const header: Row = { ...locked, outstanding };
  const status = String(header.status);
  const lines = await loadLines(tx, spec, ws, id);
  const settled = settleStatus(spec.machine, { status, today: await today(tx), header, lines }, status);
  await updateRow(tx, spec.header, ws, id, { outstanding, status: settled });
  if (settled !== status) {
    await writeEvent(tx, caller, { type, docId: id, action: "settle", from: status, to: settled, changes: by });
  }
  return { ...header, status: settled };
}
