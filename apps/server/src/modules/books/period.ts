import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { BOOKS_ACCESS, financialYear, spellDate } from "@workmetrics/domain/resources/books";
import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { today, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { allow, readEntry, reversedLines, unprocessable, writeEntry } from "./journal.ts";
import type { CheckedLine } from "./journal-lines.ts";
import { standingOpening } from "./opening.ts";

// Issue 12 "Lock date" and "Year-end close". The lock date lives in books_settings (one row per workspace) and is
// enforced by the journal_entry trigger (migration 0027); changing it is audited. A close posts one entry on the
// year's last day moving every income and expense account's balance for the year to 3100 Retained Earnings, records
// itself in year_end_close and locks the books up to that day; reopening reverses that entry.

export const RETAINED_EARNINGS = "3100";

type Settings = { id: number; lock_date: string | null; fy_start_month: number };

export async function readSettings(tx: Tx, ws: string, lock = false): Promise<Settings> {
  const res = await tx.execute(sql`select id, lock_date::text as lock_date, fy_start_month from books_settings
    where workspace_id = ${ws}::uuid ${lock ? sql`for update` : sql``}`);
  const row = res.rows[0] as Settings | undefined;
  if (row) return { ...row, id: Number(row.id) };
  const made = await tx.execute(sql`insert into books_settings (workspace_id) values (${ws}::uuid)
    on conflict (workspace_id) do update set updated_at = books_settings.updated_at
    returning id, lock_date::text as lock_date, fy_start_month`);
  const m = made.rows[0] as Settings;
  return { ...m, id: Number(m.id) };
}

async function setLock(tx: Tx, caller: Caller, ws: string, lockDate: string | null): Promise<void> {
  await tx.execute(sql`update books_settings set lock_date = ${lockDate}::date, lock_set_by = ${caller.userId}::uuid,
      lock_set_at = now(), updated_at = now() where workspace_id = ${ws}::uuid`);
}

// The latest close still standing, if any.
async function latestClose(tx: Tx, ws: string) {
  const res = await tx.execute(sql`select c.id, c.year_start::text as year_start, c.year_end::text as year_end,
      c.entry_id, c.closed_at, e.number, u.name as closed_by
    from year_end_close c join journal_entry e on e.workspace_id = c.workspace_id and e.id = c.entry_id
    left join "user" u on u.workspace_id = c.workspace_id and u.id = c.closed_by
    where c.workspace_id = ${ws}::uuid and c.reopened_at is null order by c.year_end desc limit 1`);
  return res.rows[0] as
    | { id: number; year_start: string; year_end: string; entry_id: number; number: string; closed_by: string | null }
    | undefined;
}

async function settingsSet(tx: Tx, caller: Caller, args: { lock_date?: string | null; fy_start_month?: number }) {
  allow(caller, BOOKS_ACCESS.lockBooks);
  const ws = caller.workspaceId as string;
  const before = await readSettings(tx, ws, true);
  if (args.lock_date !== undefined && args.lock_date !== before.lock_date) {
    const closed = await latestClose(tx, ws);
    if (closed && (args.lock_date === null || args.lock_date < closed.year_end)) {
      throw conflict(
        `The financial year ending ${spellDate(closed.year_end)} is closed (${closed.number}); the lock date cannot move before it unless the year is reopened`,
      );
    }
    await setLock(tx, caller, ws, args.lock_date);
    await writeEvent(tx, caller, {
      type: "books_settings",
      docId: before.id,
      action: "lock_date",
      from: before.lock_date,
      to: args.lock_date,
      changes: { lock_date: { from: before.lock_date, to: args.lock_date } },
    });
  }
  if (args.fy_start_month !== undefined && args.fy_start_month !== before.fy_start_month) {
    await tx.execute(sql`update books_settings set fy_start_month = ${args.fy_start_month}, updated_at = now()
      where workspace_id = ${ws}::uuid`);
    await writeEvent(tx, caller, {
      type: "books_settings",
      docId: before.id,
      action: "fy_start_month",
      from: String(before.fy_start_month),
      to: String(args.fy_start_month),
    });
  }
  return booksState(tx, ws);
}

// What the books page shows: the settings, who set the lock date last, and the closes.
export async function booksState(tx: Tx, ws: string): Promise<CommandAnswer<"books_settings_get">> {
  const settings = await tx.execute(sql`select s.lock_date::text as lock_date, s.fy_start_month, s.lock_set_at,
      u.name as lock_set_by
    from books_settings s left join "user" u on u.workspace_id = s.workspace_id and u.id = s.lock_set_by where s.workspace_id = ${ws}::uuid`);
  const closes = await tx.execute(sql`select c.id, c.year_start::text as year_start, c.year_end::text as year_end,
      c.profit::text as profit, c.entry_id, e.number, c.closed_at, cu.name as closed_by, c.reopened_at,
      ru.name as reopened_by, c.reopen_reason
    from year_end_close c join journal_entry e on e.workspace_id = c.workspace_id and e.id = c.entry_id
    left join "user" cu on cu.workspace_id = c.workspace_id and cu.id = c.closed_by
    left join "user" ru on ru.workspace_id = c.workspace_id and ru.id = c.reopened_by
    where c.workspace_id = ${ws}::uuid order by c.year_end desc, c.id desc`);
  const s = settings.rows[0] as Record<string, unknown> | undefined;
  return {
    lock_date: (s?.lock_date as string | null) ?? null,
    fy_start_month: Number(s?.fy_start_month ?? 1),
    lock_set_by: (s?.lock_set_by as string | null) ?? null,
    lock_set_at: (s?.lock_set_at as Date | null) ?? null,
    closes: closes.rows as CommandAnswer<"books_settings_get">["closes"],
    opening_balance: (await standingOpening(tx, ws)) ?? null,
  };
}

export const booksSettingsGet = implement(COMMANDS.books_settings_get, {
  run: (tx, _args, caller) => {
    allow(caller, BOOKS_ACCESS.readAccounts);
    return booksState(tx, caller.workspaceId as string);
  },
});

export const booksSettingsSet = implement(COMMANDS.books_settings_set, {
  run: (tx, args, caller) => settingsSet(tx, caller, args),
});

async function closeYear(tx: Tx, caller: Caller, args: { year_end_date: string }) {
  allow(caller, BOOKS_ACCESS.closeYear);
  const ws = caller.workspaceId as string;
  const settings = await readSettings(tx, ws, true);
  const year = financialYear(args.year_end_date, settings.fy_start_month);
  if (year.end !== args.year_end_date) {
    throw unprocessable(
      `${spellDate(args.year_end_date)} is not the last day of a financial year: the year holding it ends ${spellDate(year.end)}`,
      [{ field: "year_end_date", message: `The year ends ${spellDate(year.end)}` }],
    );
  }
  const now = await today(tx);
  if (year.end >= now) throw conflict(`The financial year ending ${spellDate(year.end)} has not ended yet`);
  const earlier = await tx.execute(sql`select c.closed_at::date::text as closed_on, e.number, u.name
    from year_end_close c join journal_entry e on e.workspace_id = c.workspace_id and e.id = c.entry_id
    left join "user" u on u.workspace_id = c.workspace_id and u.id = c.closed_by
    where c.workspace_id = ${ws}::uuid and c.year_end = ${year.end}::date and c.reopened_at is null`);
  const done = earlier.rows[0] as { closed_on: string; number: string; name: string | null } | undefined;
  if (done) {
    throw conflict(
      `The financial year ending ${spellDate(year.end)} was already closed on ${spellDate(done.closed_on)}${done.name ? ` by ${done.name}` : ""} (${done.number})`,
    );
  }
  const later = await latestClose(tx, ws);
  if (later && later.year_end > year.end) {
    throw conflict(`A later year (ending ${spellDate(later.year_end)}) is closed; reopen it first`);
  }
  const res = await tx.execute(sql`select l.account_code, sum(l.debit - l.credit)::text as balance
    from journal_line l
    join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
    join account a on a.workspace_id = l.workspace_id and a.code = l.account_code
    where l.workspace_id = ${ws}::uuid and a.root in ('income', 'expense')
      and e.entry_date between ${year.start}::date and ${year.end}::date
    group by l.account_code having sum(l.debit - l.credit) <> 0 order by l.account_code`);
  const balances = res.rows as Array<{ account_code: string; balance: string }>;
  if (balances.length === 0) {
    throw conflict(
      `Nothing to close: no income or expense was posted from ${spellDate(year.start)} to ${spellDate(year.end)}`,
    );
  }
  let net = new Decimal(0);
  const memo = `Year-end close ${spellDate(year.start)} – ${spellDate(year.end)}`;
  const lines: CheckedLine[] = balances.map((b) => {
    const v = new Decimal(b.balance);
    net = net.plus(v);
    return v.isPositive()
      ? { account_code: b.account_code, debit: "0.00", credit: v.toFixed(2), memo }
      : { account_code: b.account_code, debit: v.neg().toFixed(2), credit: "0.00", memo };
  });
  // net is debits minus credits of income and expense: negative is a profit, credited to retained earnings.
  const profit = net.neg();
  if (!profit.isZero()) {
    lines.push(
      profit.isPositive()
        ? { account_code: RETAINED_EARNINGS, debit: "0.00", credit: profit.toFixed(2), memo }
        : { account_code: RETAINED_EARNINGS, debit: profit.neg().toFixed(2), credit: "0.00", memo },
    );
  }
  // A lock date set by hand on or after the year's last day covers the day the close posts on: refused, naming the
  // lock, like any other posting into a locked period (issue 21 §2: the close went through the lock). Whoever closes
  // moves the lock back first; the close then locks the year itself.
  const locked = settings.lock_date;
  if (locked && locked >= year.end) {
    throw conflict(
      `The books are locked up to ${spellDate(locked)}, and the close posts on ${spellDate(year.end)}: move the lock date before ${spellDate(year.end)} to close this year`,
    );
  }
  const entry = await writeEntry(tx, caller, { date: year.end, memo, sourceType: "year_end_close" }, lines);
  const row =
    await tx.execute(sql`insert into year_end_close (workspace_id, year_start, year_end, entry_id, profit, closed_by)
    values (${ws}::uuid, ${year.start}::date, ${year.end}::date, ${entry.id}, ${profit.toFixed(2)}, ${caller.userId}::uuid)
    returning id`);
  const closeId = Number((row.rows[0] as { id: number | string }).id);
  const lockTo = locked && locked > year.end ? locked : year.end;
  await setLock(tx, caller, ws, lockTo);
  await writeEvent(tx, caller, {
    type: "year_end_close",
    docId: closeId,
    action: "close",
    from: null,
    to: "closed",
    changes: {
      year_start: year.start,
      year_end: year.end,
      entry: entry.number,
      profit: profit.toFixed(2),
      lock_date: { from: locked, to: lockTo },
    },
  });
  return {
    id: closeId,
    year_start: year.start,
    year_end: year.end,
    profit: profit.toFixed(2),
    lock_date: lockTo,
    entry: await readEntry(tx, ws, entry.id),
  };
}

export const yearEndCloseRpc = implement(COMMANDS.year_end_close, {
  run: (tx, args, caller) => closeYear(tx, caller, args),
});

async function reopenYear(tx: Tx, caller: Caller, args: { id: number; reason: string }) {
  allow(caller, BOOKS_ACCESS.closeYear);
  const ws = caller.workspaceId as string;
  await readSettings(tx, ws, true);
  const res = await tx.execute(sql`select c.id, c.year_start::text as year_start, c.year_end::text as year_end,
      c.entry_id, c.reopened_at, e.number
    from year_end_close c join journal_entry e on e.workspace_id = c.workspace_id and e.id = c.entry_id
    where c.workspace_id = ${ws}::uuid and c.id = ${args.id} for update of c`);
  const close = res.rows[0] as
    | { year_start: string; year_end: string; entry_id: number | string; reopened_at: unknown; number: string }
    | undefined;
  if (!close) throw new RestError(404, "PGRST116", `There is no year-end close ${args.id} in this workspace`);
  if (close.reopened_at) throw conflict(`The financial year ending ${spellDate(close.year_end)} is already reopened`);
  const latest = await latestClose(tx, ws);
  if (latest && latest.year_end > close.year_end) {
    throw conflict(`A later year (ending ${spellDate(latest.year_end)}) is closed; reopen it first`);
  }
  // The books stay locked up to the day before the reopened year starts.
  const before = new Date(`${close.year_start}T00:00:00Z`);
  before.setUTCDate(before.getUTCDate() - 1);
  const lockTo = before.toISOString().slice(0, 10);
  await setLock(tx, caller, ws, null);
  const entry = await writeEntry(
    tx,
    caller,
    {
      date: close.year_end,
      memo: `Reopened ${spellDate(close.year_end)} (reverses ${close.number}): ${args.reason}`,
      sourceType: "year_end_close",
      reversalOf: Number(close.entry_id),
    },
    await reversedLines(tx, ws, Number(close.entry_id)),
  );
  await setLock(tx, caller, ws, lockTo);
  await tx.execute(sql`update year_end_close set reopened_by = ${caller.userId}::uuid, reopened_at = now(),
      reopen_reason = ${args.reason} where workspace_id = ${ws}::uuid and id = ${args.id}`);
  await writeEvent(tx, caller, {
    type: "year_end_close",
    docId: args.id,
    action: "reopen",
    from: "closed",
    to: "reopened",
    reason: args.reason,
    changes: { reversal: entry.number, lock_date: lockTo },
  });
  return booksState(tx, ws);
}

export const yearEndReopen = implement(COMMANDS.year_end_reopen, {
  run: (tx, args, caller) => reopenYear(tx, caller, args),
});
