import { decide } from "@workmetrics/domain";
import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader, type Row, writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";
import { settleDebitNote } from "./debit-note.effects.ts";
import { settleInvoice } from "./invoice.effects.ts";

// A customer's credit allocated later (issue 10 §2: "an overpayment kept as customer credit and allocatable later"):
// what a receipt left unallocated, or what a credit note could not apply to its invoice (`unapplied`), goes to the
// same customer's open invoices and debit notes in payment_allocation rows, each at most what the document owes;
// their outstanding is recomputed and their status settles. No journal entry: the money stays in 1100 Trade Debtors,
// only which document it settles changes. POST /rest/v1/rpc/allocate_credit {type, id, allocations}.

const OPEN = new Set(["unpaid", "partly_paid", "overdue"]);
const SETTLE = { invoice: settleInvoice, debit_note: settleDebitNote } as const;
type Payable = keyof typeof SETTLE;

type Input = {
  type: "receipt" | "credit_note";
  id: number;
  allocations: { document_type: Payable; document_id: number; amount: string }[];
};

async function allocateCredit(tx: Tx, caller: Caller, input: Input): Promise<unknown> {
  const title = input.type === "receipt" ? "receipt" : "credit note";
  const access = decide(memberOf(caller), {
    audience: "member",
    permission: `${input.type}.update`,
    feature: "erp",
    subject: input.type === "receipt" ? "Receipts" : "Credit notes",
    does: "allocate a customer's credit",
  });
  if (!access.allowed) throw refusalError(access);
  const ws = caller.workspaceId as string;
  // The credit: a submitted receipt's unallocated amount, an issued credit note's unapplied amount.
  const column = input.type === "receipt" ? "unallocated" : "unapplied";
  const res = await tx.execute(sql`select id, number, status, company_id, ${sql.identifier(column)}::text as credit
    from ${sql.identifier(input.type)} where workspace_id = ${ws}::uuid and id = ${input.id} for update`);
  const source = res.rows[0] as
    | { number: string; status: string; company_id: number | string; credit: string }
    | undefined;
  if (!source) throw new RestError(404, "PGRST116", `There is no ${title} ${input.id} in this workspace`);
  if (source.status !== (input.type === "receipt" ? "submitted" : "issued")) {
    throw conflict(`${source.number ?? `This ${title}`} is ${source.status}: its credit cannot be allocated`);
  }
  const wanted = new Map<string, string>();
  for (const [i, a] of input.allocations.entries()) {
    if (!dec(a.amount, `Allocation ${i + 1}`).greaterThan(0)) {
      throw invalid(`Allocation ${i + 1} must be more than 0`, `allocations.${i}.amount`);
    }
    const key = `${a.document_type}:${a.document_id}`;
    wanted.set(key, money(dec(wanted.get(key) ?? "0").plus(dec(a.amount))));
  }
  if (wanted.size === 0) throw invalid("Give at least one allocation", "allocations");
  const total = sum([...wanted.values()]);
  if (total.greaterThan(dec(source.credit))) {
    throw invalid(
      `Only ${money(source.credit)} of ${source.number} is the customer's credit; ${money(total)} cannot be allocated`,
      "allocations",
    );
  }
  const targets: Array<{ type: Payable; id: number }> = [];
  const order = [...wanted.keys()].map((k) => k.split(":") as [Payable, string]);
  order.sort((a, b) => a[0].localeCompare(b[0]) || Number(a[1]) - Number(b[1]));
  for (const [type, key] of order) {
    const id = Number(key);
    const spec = documentSpec(type);
    const what = spec.machine.title.toLowerCase();
    const doc = await lockHeader(tx, spec, ws, id);
    if (!doc) throw notFound(spec, id);
    const name = String(doc.number ?? `${spec.machine.title} ${id}`);
    if (Number(doc.company_id) !== Number(source.company_id)) {
      throw invalid(`${name} is not this customer's ${what}`, "allocations");
    }
    if (!OPEN.has(String(doc.status))) {
      const label = spec.machine.statuses[String(doc.status)]?.label.toLowerCase() ?? doc.status;
      throw conflict(`${name} is ${label}: only an unpaid, partly paid or overdue ${what} can be paid`);
    }
    const asked = wanted.get(`${type}:${id}`) as string;
    if (dec(asked).greaterThan(dec(String(doc.outstanding)))) {
      throw conflict(
        `Only ${money(String(doc.outstanding))} is outstanding on ${name}; ${money(asked)} cannot be allocated`,
        {
          reason: "overflow",
        },
      );
    }
    targets.push({ type, id });
  }
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
    await SETTLE[t.type](tx, caller, documentSpec(t.type), t.id, {
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
  return out.rows[0] as Row;
}

const amount = z.union([z.string(), z.number()]).transform(String);

export const allocateCreditRpc = defineRpc({
  name: "allocate_credit",
  args: z.object({
    type: z.enum(["receipt", "credit_note"]),
    id: z.number().int().positive(),
    allocations: z
      .array(
        z.object({
          document_type: z.enum(["invoice", "debit_note"]),
          document_id: z.number().int().positive(),
          amount,
        }),
      )
      .max(1000),
  }),
  permission: null,
  run: (tx, args, caller) => allocateCredit(tx, caller, args),
});
