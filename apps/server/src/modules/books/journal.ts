import type { Requirement } from "@workmetrics/domain";
import { decide } from "@workmetrics/domain";
import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { BOOKS_ACCESS } from "@workmetrics/domain/resources/books";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { takeNumber, today, writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { type CheckedLine, checkLines, type LineInput } from "./journal-lines.ts";

// Issue 12 "Manual journal entries" (POST /rest/v1/rpc/journal_post, journal_reverse): a balanced entry numbered
// JE-YYYY-##### from the engine's counter, on accounts that exist and are active, audited; never edited or deleted —
// a mistake is reversed by an entry of its own pointing back (reversal_of), like a cancelled document's.

export function allow(caller: Caller, need: Requirement): void {
  const d = decide(memberOf(caller), need);
  if (!d.allowed) throw refusalError(d);
}

export const unprocessable = (message: string, details: unknown = null) =>
  new RestError(422, "P0001", message, details);

// The accounts the lines name must be in the chart and active: one query for all of them.
export async function checkAccounts(tx: Tx, ws: string, lines: readonly CheckedLine[]): Promise<void> {
  const codes = [...new Set(lines.map((l) => l.account_code))];
  const res = await tx.execute(sql`select code, active from account
    where workspace_id = ${ws}::uuid and code in (${sql.join(
      codes.map((c) => sql`${c}`),
      sql`, `,
    )})`);
  const found = new Map((res.rows as Array<{ code: string; active: boolean }>).map((r) => [r.code, r.active]));
  const problems = lines.flatMap((l, i) => {
    const active = found.get(l.account_code);
    if (active === undefined)
      return [
        {
          field: `lines.${i}.account_code`,
          message: `Line ${i + 1}: there is no account ${l.account_code} in the chart`,
        },
      ];
    if (!active)
      return [{ field: `lines.${i}.account_code`, message: `Line ${i + 1}: account ${l.account_code} is inactive` }];
    return [];
  });
  if (problems.length) throw unprocessable(problems[0].message, problems);
}

export type EntryHead = {
  date: string;
  memo: string | null;
  sourceType: string | null;
  sourceId?: number | null;
  reversalOf?: number | null;
};

// Writes one entry and its lines (numbered JE), answering its id and number. The lock-date trigger and the balance
// trigger guard it in the database.
export async function writeEntry(tx: Tx, caller: Caller, head: EntryHead, lines: readonly CheckedLine[]) {
  const ws = caller.workspaceId as string;
  const number = await takeNumber(tx, ws, "journal_entry", head.date);
  const values = lines.map(
    (l, i) => sql`(${i + 1}::int, ${l.account_code}::text, ${l.debit}::numeric, ${l.credit}::numeric, ${l.memo}::text)`,
  );
  const res = await tx.execute(sql`with e as (
      insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id, reversal_of, created_by)
      values (${ws}::uuid, ${number}, ${head.date}::date, ${head.memo}, ${head.sourceType}, ${head.sourceId ?? null},
        ${head.reversalOf ?? null}, ${caller.userId}::uuid) returning id)
    insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
    select ${ws}::uuid, e.id, v.n, v.code, v.debit, v.credit, v.memo
    from e, (values ${sql.join(values, sql`, `)}) as v(n, code, debit, credit, memo)
    returning entry_id`);
  return { id: Number((res.rows[0] as { entry_id: number | string }).entry_id), number };
}

// An entry with its lines; an id that is not this workspace's answers no id (journal_get's 404).
export async function readEntry(tx: Tx, ws: string, id: number): Promise<CommandAnswer<"journal_get">> {
  const head = await tx.execute(sql`select id, number, entry_date::text as entry_date, memo, source_type, source_id,
      reversal_of, created_by, created_at,
      (select r.id from journal_entry r where r.workspace_id = e.workspace_id and r.reversal_of = e.id) as reversed_by
    from journal_entry e where workspace_id = ${ws}::uuid and id = ${id}`);
  const lines = await tx.execute(sql`select line_no, account_code, debit::text as debit, credit::text as credit, memo
    from journal_line where workspace_id = ${ws}::uuid and entry_id = ${id} order by line_no`);
  return {
    ...(head.rows[0] as CommandAnswer<"journal_get">),
    lines: lines.rows as CommandAnswer<"journal_get">["lines"],
  };
}

// An entry's lines with the debits and credits swapped: what reverses it.
export async function reversedLines(tx: Tx, ws: string, id: number): Promise<CheckedLine[]> {
  const lines = await tx.execute(sql`select account_code, debit::text as debit, credit::text as credit, memo
    from journal_line where workspace_id = ${ws}::uuid and entry_id = ${id} order by line_no`);
  return (lines.rows as CheckedLine[]).map((l) => ({ ...l, debit: l.credit, credit: l.debit }));
}

export function checkedOrRefused(input: readonly LineInput[]): { lines: CheckedLine[]; total: string } {
  const checked = checkLines(input);
  if (checked.problems.length) throw unprocessable(checked.problems[0].message, checked.problems);
  return { lines: checked.lines, total: checked.debit };
}

async function post(tx: Tx, caller: Caller, args: { date: string; memo: string; lines: LineInput[] }) {
  allow(caller, BOOKS_ACCESS.postJournal);
  const { lines, total } = checkedOrRefused(args.lines);
  const ws = caller.workspaceId as string;
  await checkAccounts(tx, ws, lines);
  const entry = await writeEntry(tx, caller, { date: args.date, memo: args.memo, sourceType: null }, lines);
  await writeEvent(tx, caller, {
    type: "journal_entry",
    docId: entry.id,
    action: "post",
    from: null,
    to: "posted",
    changes: { number: entry.number, date: args.date, total },
  });
  return readEntry(tx, ws, entry.id);
}

export const journalPost = implement(COMMANDS.journal_post, {
  run: (tx, args, caller) => post(tx, caller, args),
});

// What may be reversed by hand: manual journals and the opening balances. A document's entry is reversed by
// cancelling the document; a close by reopening the year.
const REVERSIBLE = new Set([null, "opening_balance"]);

async function reverseEntry(tx: Tx, caller: Caller, args: { id: number; date?: string | null; reason: string }) {
  allow(caller, BOOKS_ACCESS.postJournal);
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select id, number, entry_date::text as entry_date, source_type, reversal_of,
      (select r.number from journal_entry r where r.workspace_id = e.workspace_id and r.reversal_of = e.id) as reversed_by
    from journal_entry e where workspace_id = ${ws}::uuid and id = ${args.id} for update`);
  const e = res.rows[0] as
    | {
        number: string | null;
        entry_date: string;
        source_type: string | null;
        reversal_of: unknown;
        reversed_by: string | null;
      }
    | undefined;
  if (!e) throw new RestError(404, "PGRST116", `There is no journal entry ${args.id} in this workspace`);
  const name = e.number ?? `Entry ${args.id}`;
  if (e.reversed_by) throw conflict(`${name} is already reversed by ${e.reversed_by}`);
  if (e.reversal_of != null) throw conflict(`${name} is itself a reversal; post a new entry instead`);
  if (!REVERSIBLE.has(e.source_type)) {
    throw conflict(
      e.source_type === "year_end_close"
        ? `${name} closes a financial year; reopen the year instead`
        : `${name} was posted by a document (${e.source_type?.replaceAll("_", " ")}); cancel the document instead`,
    );
  }
  const date = args.date ?? (await today(tx));
  if (date < e.entry_date)
    throw unprocessable(`A reversal cannot be dated before the entry it reverses (${e.entry_date})`, [
      { field: "date", message: "Before the entry's date" },
    ]);
  const entry = await writeEntry(
    tx,
    caller,
    { date, memo: `Reversal of ${name}: ${args.reason}`, sourceType: e.source_type, reversalOf: args.id },
    await reversedLines(tx, ws, args.id),
  );
  await writeEvent(tx, caller, {
    type: "journal_entry",
    docId: args.id,
    action: "reverse",
    from: "posted",
    to: "reversed",
    reason: args.reason,
    changes: { reversal: entry.number, date },
  });
  return readEntry(tx, ws, entry.id);
}

export const journalReverse = implement(COMMANDS.journal_reverse, {
  run: (tx, args, caller) => reverseEntry(tx, caller, args),
});

export const journalGet = implement(COMMANDS.journal_get, {
  run: async (tx, args, caller) => {
    allow(caller, BOOKS_ACCESS.readJournal);
    const entry = await readEntry(tx, caller.workspaceId as string, args.id);
    if (entry.id === undefined)
      throw new RestError(404, "PGRST116", `There is no journal entry ${args.id} in this workspace`);
    return entry;
  },
});

// The Journal page's list (POST /rest/v1/rpc/journal_list): entries newest first with their amount (Σ debits),
// narrowed by dates, an account one of their lines posts to, and where they came from (manual, opening balances,
// year-end close, documents, or one document type). Summed in SQL, a page at a time.

export const journalList = implement(COMMANDS.journal_list, {
  run: async (tx, args, caller) => {
    allow(caller, BOOKS_ACCESS.readJournal);
    const ws = caller.workspaceId as string;
    const where = [sql`e.workspace_id = ${ws}::uuid`];
    if (args.from) where.push(sql`e.entry_date >= ${args.from}::date`);
    if (args.to) where.push(sql`e.entry_date <= ${args.to}::date`);
    if (args.account_code) {
      where.push(sql`exists (select 1 from journal_line x where x.workspace_id = e.workspace_id and x.entry_id = e.id
        and x.account_code = ${args.account_code})`);
    }
    if (args.source === "manual") where.push(sql`e.source_type is null`);
    else if (args.source === "documents") {
      where.push(sql`e.source_type is not null and e.source_type not in ('opening_balance', 'year_end_close')`);
    } else if (args.source !== "all") where.push(sql`e.source_type = ${args.source}`);
    if (args.search) {
      const like = `%${args.search.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
      where.push(sql`(e.number ilike ${like} or e.memo ilike ${like})`);
    }
    const cond = sql.join(where, sql` and `);
    const rows = await tx.execute(sql`select e.id, e.number, e.entry_date::text as entry_date, e.memo, e.source_type,
        e.source_id, e.reversal_of,
        (select r.id from journal_entry r where r.workspace_id = e.workspace_id and r.reversal_of = e.id) as reversed_by,
        (select coalesce(sum(l.debit), 0)::text from journal_line l
          where l.workspace_id = e.workspace_id and l.entry_id = e.id) as amount,
        count(*) over () as total
      from journal_entry e where ${cond}
      order by e.entry_date desc, e.id desc limit ${args.limit} offset ${args.offset}`);
    const list = rows.rows as Array<Record<string, unknown> & { total?: unknown }>;
    const total = list.length ? Number(list[0].total) : 0;
    return { total, rows: list.map(({ total: _t, ...r }) => r) as CommandAnswer<"journal_list">["rows"] };
  },
});
