import { COMMANDS } from "@workmetrics/domain/commands";
import { BOOKS_ACCESS, spellDate } from "@workmetrics/domain/resources/books";
import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { allow, readEntry, unprocessable, writeEntry } from "./journal.ts";
import type { CheckedLine } from "./journal-lines.ts";

// Issue 12 "Opening balances by CSV": the web reads the file (account_code,debit,credit or account_code,balance —
// a positive balance is a debit, a negative one a credit) and sends its rows; `post: false` answers the preview
// with an error per row, `post: true` writes one balanced entry (source_type 'opening_balance') dated as_of. A
// difference is refused unless a balancing account is chosen — an equity account, 3100 Retained Earnings being the
// usual one: the difference of a business's opening trial balance is the profit it kept before these books. Once per
// workspace, unless that entry is reversed.

const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;

type RowIn = { account_code?: string | number | null; debit?: unknown; credit?: unknown; balance?: unknown };
type RowOut = {
  row: number;
  account_code: string;
  account_name: string | null;
  debit: string;
  credit: string;
  error: string | null;
};

function money(v: unknown): Decimal | null | "bad" {
  if (v === null || v === undefined) return null;
  const text = String(v).trim().replaceAll(",", "");
  if (text === "") return null;
  if (!AMOUNT.test(text)) return "bad";
  return new Decimal(text);
}

function readRow(r: RowIn, i: number): RowOut {
  const out: RowOut = {
    row: i + 2,
    account_code: String(r.account_code ?? "").trim(),
    account_name: null,
    debit: "0.00",
    credit: "0.00",
    error: null,
  };
  const fail = (error: string) => ({ ...out, error });
  if (!out.account_code) return fail("No account code");
  if (r.balance !== undefined && r.balance !== null && String(r.balance).trim() !== "") {
    const b = money(r.balance);
    if (b === "bad" || b === null) return fail(`The balance ${String(r.balance)} is not an amount`);
    if (b.isZero()) return fail("The balance is zero");
    return b.isPositive() ? { ...out, debit: b.toFixed(2) } : { ...out, credit: b.neg().toFixed(2) };
  }
  const d = money(r.debit);
  const c = money(r.credit);
  if (d === "bad") return fail(`The debit ${String(r.debit)} is not an amount`);
  if (c === "bad") return fail(`The credit ${String(r.credit)} is not an amount`);
  if (d?.isNegative() || c?.isNegative()) return fail("Amounts are positive: a credit goes in the credit column");
  const dPos = d !== null && !d.isZero();
  const cPos = c !== null && !c.isZero();
  if (dPos && cPos) return fail("Both a debit and a credit: give one side");
  if (!dPos && !cPos) return fail("No amount");
  return { ...out, debit: (d ?? new Decimal(0)).toFixed(2), credit: (c ?? new Decimal(0)).toFixed(2) };
}

// The opening balances entry still standing (posted and not reversed), if any: there is at most one.
export async function standingOpening(
  tx: Tx,
  ws: string,
): Promise<{ id: number; number: string; entry_date: string } | undefined> {
  const res = await tx.execute(sql`select e.id, e.number, e.entry_date::text as entry_date from journal_entry e
    where e.workspace_id = ${ws}::uuid and e.source_type = 'opening_balance' and e.reversal_of is null
      and not exists (select 1 from journal_entry r where r.workspace_id = e.workspace_id and r.reversal_of = e.id)
    limit 1`);
  return res.rows[0] as { id: number; number: string; entry_date: string } | undefined;
}

async function opening(
  tx: Tx,
  caller: Caller,
  args: { as_of: string; rows: RowIn[]; balancing_account_code?: string | null; post: boolean },
) {
  allow(caller, BOOKS_ACCESS.postJournal);
  const ws = caller.workspaceId as string;
  const already = await standingOpening(tx, ws);
  const rows = args.rows.map(readRow);
  const accounts = await tx.execute(sql`select code, name, root, active from account where workspace_id = ${ws}::uuid`);
  const chart = new Map(
    (accounts.rows as Array<{ code: string; name: string; root: string; active: boolean }>).map((a) => [a.code, a]),
  );
  const seen = new Set<string>();
  for (const r of rows) {
    const a = chart.get(r.account_code);
    if (a) r.account_name = a.name;
    if (r.error) continue;
    if (!a) r.error = `There is no account ${r.account_code} in the chart`;
    else if (!a.active) r.error = `Account ${r.account_code} is inactive`;
    else if (seen.has(r.account_code)) r.error = `Account ${r.account_code} is on an earlier row too`;
    seen.add(r.account_code);
  }
  const good = rows.filter((r) => !r.error);
  const debit = good.reduce((s, r) => s.plus(r.debit), new Decimal(0));
  const credit = good.reduce((s, r) => s.plus(r.credit), new Decimal(0));
  const difference = debit.minus(credit);
  let balancing: CheckedLine | null = null;
  let balancingError: string | null = null;
  const code = args.balancing_account_code ?? null;
  if (code && !difference.isZero()) {
    const a = chart.get(code);
    if (!a) balancingError = `There is no account ${code} in the chart`;
    else if (a.root !== "equity") balancingError = `${code} ${a.name} is not an equity account`;
    else if (!a.active) balancingError = `${code} ${a.name} is inactive`;
    else {
      balancing = difference.isPositive()
        ? { account_code: code, debit: "0.00", credit: difference.toFixed(2), memo: "Opening balance difference" }
        : {
            account_code: code,
            debit: difference.neg().toFixed(2),
            credit: "0.00",
            memo: "Opening balance difference",
          };
    }
  }
  const errors = rows.filter((r) => r.error).length;
  const problem = already
    ? `Opening balances were already posted as ${already.number} on ${spellDate(already.entry_date)}; reverse that entry first`
    : rows.length === 0
      ? "The file has no rows"
      : errors
        ? `${errors} row${errors === 1 ? " has an error" : "s have errors"}; correct the file and upload it again`
        : balancingError
          ? balancingError
          : !difference.isZero() && !balancing
            ? `Debits ${debit.toFixed(2)} and credits ${credit.toFixed(2)} differ by ${difference.abs().toFixed(2)}; choose a balancing account (3100 Retained Earnings) or correct the file`
            : null;
  const preview = {
    as_of: args.as_of,
    rows,
    totals: { debit: debit.toFixed(2), credit: credit.toFixed(2), difference: difference.toFixed(2) },
    balancing,
    problem,
    already: already ?? null,
  };
  if (!args.post) return preview;
  if (problem) {
    const details = rows
      .filter((r) => r.error)
      .map((r) => ({ field: `rows.${r.row - 2}`, message: `Row ${r.row}: ${r.error}` }));
    throw already ? conflict(problem) : unprocessable(problem, details.length ? details : null);
  }
  const memo = `Opening balances as of ${spellDate(args.as_of)}`;
  const lines: CheckedLine[] = good.map((r) => ({
    account_code: r.account_code,
    debit: r.debit,
    credit: r.credit,
    memo: "Opening balance",
  }));
  if (balancing) lines.push(balancing);
  const entry = await writeEntry(tx, caller, { date: args.as_of, memo, sourceType: "opening_balance" }, lines);
  await writeEvent(tx, caller, {
    type: "journal_entry",
    docId: entry.id,
    action: "opening_balances",
    from: null,
    to: "posted",
    changes: { number: entry.number, rows: lines.length, total: Decimal.max(debit, credit).toFixed(2) },
  });
  return { ...preview, entry: await readEntry(tx, ws, entry.id) };
}

export const openingBalances = implement(COMMANDS.opening_balances, {
  run: (tx, args, caller) => opening(tx, caller, args),
});
