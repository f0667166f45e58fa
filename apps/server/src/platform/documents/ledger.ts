import {
  buildJournal,
  type JournalLine,
  type PostingDoc,
  type PostingRule,
  reverse,
} from "@workmetrics/domain/documents/postings";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { PENDING_NUMBER, pendingOf, withNumber } from "./store.ts";

// A document's journal entry (STYLE "Posting rules as data", "The ledger is immutable"): buildJournal's lines
// written under one journal_entry carrying the document's number; cancel writes the reversing entry pointing to the
// original (reversal_of), never an update or a delete. The database checks the balance again at commit.

export type Posted = { type: string; id: number; number: string | null; date: string };

async function writeEntry(
  tx: Tx,
  caller: Caller,
  doc: Posted,
  memo: string,
  lines: readonly JournalLine[],
  reversalOf: number | null,
): Promise<number | null> {
  // A submit whose number is still pending writes its entry with the number, in its last statement (late-number.ts).
  const pending = doc.number === PENDING_NUMBER ? pendingOf(tx) : undefined;
  if (pending) {
    pending.entries.push((number, name) => entryCtes(caller, doc, memo, lines, reversalOf, name, number));
    return null;
  }
  // The entry and its lines in one statement (one round trip less while a submit holds its number's lock); the
  // lines' foreign key and the balance check still run, at the statement's end and at commit.
  const res = await tx.execute(sql`with ${entryCtes(caller, doc, memo, lines, reversalOf, "e")}
    select entry_id from e_lines limit 1`);
  return Number((res.rows[0] as { entry_id: number | string }).entry_id);
}

// The entry (`name`) and its lines (`name`_lines) as two common table expressions of a statement; `number`: the
// SQL of the number that takes the pending one's place.
function entryCtes(
  caller: Caller,
  doc: Posted,
  memo: string,
  lines: readonly JournalLine[],
  reversalOf: number | null,
  name: string,
  number?: SQL,
): SQL {
  const ws = caller.workspaceId as string;
  const e = sql.identifier(name);
  const values = lines.map(
    (l, i) =>
      sql`(${i + 1}::int, ${l.account_code}::text, ${l.debit}::numeric, ${l.credit}::numeric, ${withNumber(l.memo, number)}::text)`,
  );
  return sql`${e} as (
      insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id, reversal_of, created_by)
      values (${ws}::uuid, ${withNumber(doc.number, number)}, ${doc.date}::date, ${withNumber(memo, number)}, ${doc.type},
        ${doc.id}, ${reversalOf}, ${caller.userId}::uuid) returning id),
    ${sql.identifier(`${name}_lines`)} as (
      insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
      select ${ws}::uuid, ${e}.id, v.n, v.code, v.debit, v.credit, v.memo
      from ${e}, (values ${sql.join(values, sql`, `)}) as v(n, code, debit, credit, memo)
      returning entry_id)`;
}

// Posts the rule over the document's figures; nothing when every leg is zero. Answers the entry's id or null.
export async function postJournal(
  tx: Tx,
  caller: Caller,
  doc: Posted,
  rule: PostingRule,
  figures: PostingDoc,
): Promise<number | null> {
  const lines = buildJournal(rule, { ...figures, number: doc.number });
  if (lines.length === 0) return null;
  return writeEntry(tx, caller, doc, lines[0].memo, lines, null);
}

// Reverses every entry the document posted that is not reversed yet, dated `date` (the day it is cancelled).
export async function reverseJournals(tx: Tx, caller: Caller, doc: Posted): Promise<number> {
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select e.id, e.memo from journal_entry e
    where e.workspace_id = ${ws}::uuid and e.source_type = ${doc.type} and e.source_id = ${doc.id}
      and e.reversal_of is null
      and not exists (select 1 from journal_entry r where r.workspace_id = e.workspace_id and r.reversal_of = e.id)
    order by e.id`);
  const entries = res.rows as Array<{ id: number | string; memo: string | null }>;
  for (const e of entries) {
    const lines = await tx.execute(sql`select account_code, debit::text as debit, credit::text as credit, memo
      from journal_line where workspace_id = ${ws}::uuid and entry_id = ${Number(e.id)} order by line_no`);
    const memo = `Cancelled: ${e.memo ?? doc.number ?? doc.type}`;
    await writeEntry(tx, caller, doc, memo, reverse(lines.rows as JournalLine[], memo), Number(e.id));
  }
  return entries.length;
}
