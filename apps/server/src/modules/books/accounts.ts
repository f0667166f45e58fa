import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { COMMISSION_APPROVAL_RULE, COMMISSION_PAYMENT_RULE } from "@workmetrics/domain/commission";
import { ACCOUNT_TYPES } from "@workmetrics/domain/db/ledger-schema";
import { POSTING_RULES, ROUNDING_ACCOUNT } from "@workmetrics/domain/documents/postings";
import { BOOKS_ACCESS, rootOfCode, TYPES_BY_ROOT } from "@workmetrics/domain/resources/books";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { today, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { allow, unprocessable } from "./journal.ts";

// Issue 12 "Chart of accounts": finance adds accounts, renames them and deactivates the ones nothing needs; every
// account lists with its balance as of a day. The code's first digit says its root (rootOfCode, domain).

// Accounts the posting rules (the documents', the commission's) and the books' own entries write to: never
// deactivated. 1000 Cash and 1010 Bank SGD are where record_payment posts; 3100 takes the year-end close.
export const ACCOUNTS_IN_USE: ReadonlySet<string> = new Set([
  ...[...Object.values(POSTING_RULES), COMMISSION_APPROVAL_RULE, COMMISSION_PAYMENT_RULE].flatMap((r) =>
    r.legs.map((l) => l.account),
  ),
  ROUNDING_ACCOUNT,
  "1000",
  "1010",
  "3100",
]);

type AccountRow = CommandAnswer<"account_create">;

export async function createAccount(
  tx: Tx,
  caller: Caller,
  args: { code: string; name: string; type: string; contra?: boolean | null },
): Promise<AccountRow> {
  const ws = caller.workspaceId as string;
  const root = rootOfCode(args.code);
  const types: readonly string[] = TYPES_BY_ROOT[root];
  if (!types.includes(args.type)) {
    // Named in the chart's order of types.
    const named = ACCOUNT_TYPES.filter((t) => types.includes(t)).join(", ");
    throw unprocessable(`A ${root} account (code ${args.code[0]}…) is of type ${named}, not ${args.type}`, [
      { field: "type", message: `Not a ${root} type` },
    ]);
  }
  const taken = await tx.execute(
    sql`select name from account where workspace_id = ${ws}::uuid and code = ${args.code}`,
  );
  const other = taken.rows[0] as { name: string } | undefined;
  if (other) {
    throw new RestError(409, "23505", `The code ${args.code} is already ${other.name}; give another code`, [
      { field: "code", message: `Already ${other.name}` },
    ]);
  }
  const res = await tx.execute(sql`insert into account (workspace_id, code, name, type, root, contra)
    values (${ws}::uuid, ${args.code}, ${args.name}, ${args.type}, ${root}, ${args.contra ?? false})
    returning id, code, name, type, root, active`);
  const row = res.rows[0] as AccountRow;
  await writeEvent(tx, caller, {
    type: "account",
    docId: Number(row.id),
    action: "create",
    from: null,
    to: "active",
    changes: { code: args.code, name: args.name, type: args.type },
  });
  return row;
}

export const accountCreate = implement(COMMANDS.account_create, {
  run: (tx, args, caller) => {
    allow(caller, BOOKS_ACCESS.createAccount);
    return createAccount(tx, caller, args);
  },
});

async function updateAccount(tx: Tx, caller: Caller, args: { id: number; name?: string; active?: boolean }) {
  allow(caller, BOOKS_ACCESS.updateAccount);
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select id, code, name, active from account
    where workspace_id = ${ws}::uuid and id = ${args.id} for update`);
  const acc = res.rows[0] as { code: string; name: string; active: boolean } | undefined;
  if (!acc) throw new RestError(404, "PGRST116", `There is no account ${args.id} in this workspace`);
  if (args.active === false && acc.active) {
    const label = `${acc.code} ${acc.name}`;
    if (ACCOUNTS_IN_USE.has(acc.code)) throw conflict(`${label} is used by the posting rules; it stays active`);
    const use = await tx.execute(sql`select
        (select coalesce(sum(debit - credit), 0)::text from journal_line
          where workspace_id = ${ws}::uuid and account_code = ${acc.code}) as balance,
        (select name from bank_account where workspace_id = ${ws}::uuid and ledger_account_code = ${acc.code}
          and active limit 1) as bank`);
    const u = use.rows[0] as { balance: string; bank: string | null };
    if (Number(u.balance) !== 0) {
      throw conflict(`${label} has a balance of ${u.balance}; move it to another account before deactivating it`);
    }
    if (u.bank) throw conflict(`${label} is the ledger account of the bank account ${u.bank}; deactivate that first`);
  }
  const name = args.name ?? acc.name;
  const active = args.active ?? acc.active;
  await tx.execute(sql`update account set name = ${name}, active = ${active}, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${args.id}`);
  await writeEvent(tx, caller, {
    type: "account",
    docId: args.id,
    action: "update",
    from: acc.active ? "active" : "inactive",
    to: active ? "active" : "inactive",
    changes: { code: acc.code, name: name !== acc.name ? { from: acc.name, to: name } : undefined },
  });
  const out = await tx.execute(sql`select id, code, name, type, root, active from account
    where workspace_id = ${ws}::uuid and id = ${args.id}`);
  return out.rows[0] as CommandAnswer<"account_update">;
}

export const accountUpdate = implement(COMMANDS.account_update, {
  run: (tx, args, caller) => updateAccount(tx, caller, args),
});

// The chart with each account's balance as of a day (debits minus credits; the page shows it on the account's
// natural side), summed in SQL.
export const accountBalances = implement(COMMANDS.account_balances, {
  run: async (tx, args, caller) => {
    allow(caller, BOOKS_ACCESS.readAccounts);
    const ws = caller.workspaceId as string;
    const asOf = args.as_of ?? (await today(tx));
    const res = await tx.execute(sql`select a.id, a.code, a.name, a.type, a.root, a.contra, a.active,
        coalesce(b.debit, 0)::text as debit, coalesce(b.credit, 0)::text as credit,
        coalesce(b.debit - b.credit, 0)::text as balance
      from account a
      left join (select l.account_code, sum(l.debit) as debit, sum(l.credit) as credit
        from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
        where l.workspace_id = ${ws}::uuid and e.entry_date <= ${asOf}::date
        group by l.account_code) b on b.account_code = a.code
      where a.workspace_id = ${ws}::uuid
      order by a.code`);
    return {
      as_of: asOf,
      in_use: [...ACCOUNTS_IN_USE].sort(),
      accounts: res.rows as CommandAnswer<"account_balances">["accounts"],
    };
  },
});
