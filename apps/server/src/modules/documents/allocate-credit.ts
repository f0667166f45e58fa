import { decide } from "@workmetrics/domain";
import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { settleReceivable } from "./receivable.ts";
import { lockAllocated, paymentKind, wantedAllocations } from "./record-payment.ts";

// A customer's credit allocated later (issue 10 §2: "an overpayment kept as customer credit and allocatable later"):
// what a receipt left unallocated, or what a credit note could not apply to its invoice (`unapplied`), goes to the
// same customer's open invoices and debit notes in payment_allocation rows, each at most what the document owes;
// their outstanding is recomputed and their status settles. No journal entry: the money stays in 1100 Trade Debtors,
// only which document it settles changes. POST /rest/v1/rpc/allocate_credit {type, id, allocations}. A supplier
// payment's unallocated amount (issue 11, the supplier's credit) pays the same supplier's released invoices alike,
// the money staying in 2000 Trade Creditors. Which documents a credit pays and how each is checked is the payment
// kind's (record_payment's registry), checked by the same code as a payment.

// Each credit: the payment kind whose rules it follows, its words, the column that holds it, the status it must be in.
const CREDITS = {
  receipt: { kind: "receipt", title: "receipt", subject: "Receipts", column: "unallocated", status: "submitted" },
  credit_note: {
    kind: "receipt",
    title: "credit note",
    subject: "Credit notes",
    column: "unapplied",
    status: "issued",
  },
  supplier_payment: {
    kind: "supplier_payment",
    title: "supplier payment",
    subject: "Supplier payments",
    column: "unallocated",
    status: "submitted",
  },
} as const;

type Input = {
  type: keyof typeof CREDITS;
  id: number;
  allocations: { document_type: string; document_id: number; amount: string }[];
};

async function allocateCredit(tx: Tx, caller: Caller, input: Input): Promise<CommandAnswer<"allocate_credit">> {
  const credit = CREDITS[input.type];
  const kind = paymentKind(credit.kind);
  const title = credit.title;
  const access = decide(memberOf(caller), {
    audience: "member",
    permission: `${input.type}.update`,
    feature: "erp",
    subject: credit.subject,
    does: `allocate a ${kind.party}'s credit`,
  });
  if (!access.allowed) throw refusalError(access);
  const ws = caller.workspaceId as string;
  // The credit: a submitted receipt's or supplier payment's unallocated amount, an issued credit note's unapplied one.
  const column = credit.column;
  const res = await tx.execute(sql`select id, number, status, company_id, ${sql.identifier(column)}::text as credit
    from ${sql.identifier(input.type)} where workspace_id = ${ws}::uuid and id = ${input.id} for update`);
  const source = res.rows[0] as
    | { number: string; status: string; company_id: number | string; credit: string }
    | undefined;
  if (!source) throw new RestError(404, "PGRST116", `There is no ${title} ${input.id} in this workspace`);
  if (source.status !== credit.status) {
    throw conflict(`${source.number ?? `This ${title}`} is ${source.status}: its credit cannot be allocated`);
  }
  const wanted = wantedAllocations(kind, input.allocations);
  if (wanted.size === 0) throw invalid("Give at least one allocation", "allocations");
  const total = sum([...wanted.values()]);
  if (total.greaterThan(dec(source.credit))) {
    throw invalid(
      `Only ${money(source.credit)} of ${source.number} is the ${kind.party}'s credit; ${money(total)} cannot be allocated`,
      "allocations",
    );
  }
  const targets = await lockAllocated(tx, ws, kind, Number(source.company_id), wanted);
  const rows = [...wanted.entries()].map(([key, a]) => {
    const [type, id] = key.split(":");
    return sql`(${ws}::uuid, ${input.type}, ${input.id}, ${type}, ${Number(id)}, ${a}::numeric)`;
  });
  await tx.execute(sql`insert into payment_allocation
    (workspace_id, payment_type, payment_id, document_type, document_id, amount) values ${sql.join(rows, sql`, `)}`);
  await tx.execute(sql`update ${sql.identifier(input.type)}
    set ${sql.identifier(column)} = ${sql.identifier(column)} - ${money(total)}::numeric, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${input.id}`);
  for (const t of targets) {
    await settleReceivable(tx, caller, documentSpec(t.type), t.id, {
      [input.type]: { id: input.id, number: source.number },
    });
  }
  await writeEvent(tx, caller, {
    type: input.type,
    docId: input.id,
    action: "allocate",
    from: source.status,
    to: source.status,
    changes: { allocations: Object.fromEntries(wanted) },
  });
  const out =
    await tx.execute(sql`select id, number, status, ${sql.identifier(column)}::text as ${sql.identifier(column)},
      coalesce((select json_agg(json_build_object('document_type', a.document_type, 'document_id', a.document_id,
        'amount', a.amount::text) order by a.id) from payment_allocation a
        where a.workspace_id = s.workspace_id and a.payment_type = ${input.type} and a.payment_id = s.id), '[]') as allocations
    from ${sql.identifier(input.type)} s where s.workspace_id = ${ws}::uuid and s.id = ${input.id}`);
  return out.rows[0] as CommandAnswer<"allocate_credit">;
}

export const allocateCreditRpc = implement(COMMANDS.allocate_credit, {
  run: (tx, args, caller) => allocateCredit(tx, caller, args),
});
