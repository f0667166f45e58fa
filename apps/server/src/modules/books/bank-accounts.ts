import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { BOOKS_ACCESS } from "@workmetrics/domain/resources/books";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { createAccount } from "./accounts.ts";
import { allow, unprocessable } from "./journal.ts";

// Issue 12 "Bank accounts": each posts to a cash or bank account of the chart — one named, or a new 10xx made for
// it (the first free of 1011–1099). record_payment still posts bank payments to 1010 and cash to 1000.

type BankRow = CommandAnswer<"bank_account_create">;

const readBank = async (tx: Tx, ws: string, id: number): Promise<BankRow> =>
  (
    await tx.execute(sql`select id, name, bank_name, account_number, currency, ledger_account_code, active
      from bank_account where workspace_id = ${ws}::uuid and id = ${id}`)
  ).rows[0] as BankRow;

async function nameTaken(tx: Tx, ws: string, name: string, except: number | null): Promise<void> {
  const res = await tx.execute(sql`select 1 from bank_account where workspace_id = ${ws}::uuid
    and lower(name) = lower(${name}) and id is distinct from ${except}`);
  if (res.rows.length) {
    throw new RestError(409, "23505", `There is already a bank account named ${name}`, [
      { field: "name", message: "Already used" },
    ]);
  }
}

async function createBank(
  tx: Tx,
  caller: Caller,
  args: {
    name: string;
    bank_name: string;
    account_number: string;
    currency: string;
    ledger_account_code?: string | null;
  },
) {
  allow(caller, BOOKS_ACCESS.createBankAccount);
  const ws = caller.workspaceId as string;
  await nameTaken(tx, ws, args.name, null);
  let code = args.ledger_account_code ?? null;
  if (code) {
    const res = await tx.execute(sql`select a.name, a.type, a.active,
        (select b.name from bank_account b where b.workspace_id = a.workspace_id and b.ledger_account_code = a.code) as bank
      from account a where a.workspace_id = ${ws}::uuid and a.code = ${code}`);
    const acc = res.rows[0] as { name: string; type: string; active: boolean; bank: string | null } | undefined;
    const field = (message: string) => unprocessable(message, [{ field: "ledger_account_code", message }]);
    if (!acc) throw field(`There is no account ${code} in the chart`);
    if (acc.type !== "bank" && acc.type !== "cash") throw field(`${code} ${acc.name} is not a cash or bank account`);
    if (!acc.active) throw field(`${code} ${acc.name} is inactive`);
    if (acc.bank) throw field(`${code} ${acc.name} is already the ledger account of ${acc.bank}`);
  } else {
    const free = await tx.execute(sql`select n::text as code from generate_series(1011, 1099) n
      where not exists (select 1 from account a where a.workspace_id = ${ws}::uuid and a.code = n::text)
      order by n limit 1`);
    code = (free.rows[0] as { code: string } | undefined)?.code ?? null;
    if (!code) throw conflict("Every code from 1011 to 1099 is taken; choose an existing bank account of the chart");
    await createAccount(tx, caller, { code, name: `Bank ${args.currency} – ${args.name}`, type: "bank" });
  }
  const res = await tx.execute(sql`insert into bank_account
      (workspace_id, name, bank_name, account_number, currency, ledger_account_code)
    values (${ws}::uuid, ${args.name}, ${args.bank_name}, ${args.account_number}, ${args.currency}, ${code})
    returning id`);
  const id = Number((res.rows[0] as { id: number | string }).id);
  await writeEvent(tx, caller, {
    type: "bank_account",
    docId: id,
    action: "create",
    from: null,
    to: "active",
    changes: { name: args.name, bank_name: args.bank_name, ledger_account_code: code },
  });
  return readBank(tx, ws, id);
}

export const bankAccountCreate = implement(COMMANDS.bank_account_create, {
  run: (tx, args, caller) => createBank(tx, caller, args),
});

async function updateBank(
  tx: Tx,
  caller: Caller,
  args: { id: number; name?: string; bank_name?: string; account_number?: string; active?: boolean },
) {
  allow(caller, BOOKS_ACCESS.updateBankAccount);
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select id, name, bank_name, account_number, active from bank_account
    where workspace_id = ${ws}::uuid and id = ${args.id} for update`);
  const bank = res.rows[0] as { name: string; bank_name: string; account_number: string; active: boolean } | undefined;
  if (!bank) throw new RestError(404, "PGRST116", `There is no bank account ${args.id} in this workspace`);
  if (args.name !== undefined) await nameTaken(tx, ws, args.name, args.id);
  const next = {
    name: args.name ?? bank.name,
    bank_name: args.bank_name ?? bank.bank_name,
    account_number: args.account_number ?? bank.account_number,
    active: args.active ?? bank.active,
  };
  await tx.execute(sql`update bank_account set name = ${next.name}, bank_name = ${next.bank_name},
      account_number = ${next.account_number}, active = ${next.active}, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${args.id}`);
  await writeEvent(tx, caller, {
    type: "bank_account",
    docId: args.id,
    action: "update",
    from: bank.active ? "active" : "inactive",
    to: next.active ? "active" : "inactive",
    changes: { before: bank, after: next },
  });
  return readBank(tx, ws, args.id);
}

export const bankAccountUpdate = implement(COMMANDS.bank_account_update, {
  run: (tx, args, caller) => updateBank(tx, caller, args),
});
