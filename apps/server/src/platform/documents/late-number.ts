import { formatNumber, isNumberedType, numberYear, prefixFor } from "@workmetrics/domain/documents/numbering";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import type { DocumentSpec } from "./registry.ts";
import { documentSettings } from "./settings.ts";
import { eventInsert, eventRow, type PendingWrites, type Row } from "./store.ts";

// Issue 10 §5 (100 submits/s at 4 connections): the number is taken in a submit's last statement. Numbers are gapless
// (STYLE "Gapless numbers from one counter row"), so the counter row stays locked from the number to the commit and
// a type's submits queue on it; taken first, the lock was held through every effect. Now the effects run with
// PENDING_NUMBER in its place (store.ts), and one statement takes the number, writes it on the header, and writes the
// journal entries and audit rows that carry it — the counter's lock is held for that statement and the commit.

export async function takeNumberLast(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  header: Row,
  pending: PendingWrites,
): Promise<string> {
  const ws = caller.workspaceId as string;
  const type = spec.machine.type;
  if (!isNumberedType(type)) throw new Error(`The document type ${type} has no number series`);
  const year = numberYear(String(header.doc_date));
  const prefix = prefixFor(type, (await documentSettings(tx, ws)).prefixes);
  formatNumber(prefix, year, 1); // the prefix and year checked as for any number (a RangeError says what is wrong)
  const number = sql`(select v from num)`;
  const ctes: SQL[] = [
    sql`n as (
      insert into number_counter (workspace_id, doc_type, year, next) values (${ws}::uuid, ${type}, ${year}, 2)
      on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1
      returning next - 1 as n)`,
    // formatNumber's PFX-YYYY-##### (five digits at least), in SQL.
    sql`num as (select ${`${prefix}-${year}-`}::text || lpad(n.n::text, greatest(5, length(n.n::text)), '0') as v from n)`,
    sql`head as (update ${sql.identifier(spec.header.name)} set number = ${number}
      where workspace_id = ${ws}::uuid and id = ${Number(header.id)})`,
    ...pending.entries.map((entry, i) => entry(number, `entry${i}`)),
  ];
  if (pending.events.length > 0) {
    ctes.push(sql`events as (${eventInsert(pending.events.map((p) => eventRow(p.caller, p.event, number)))})`);
  }
  const res = await tx.execute(sql`with ${sql.join(ctes, sql`, `)} select v from num`);
  return String((res.rows[0] as { v: string }).v);
}
