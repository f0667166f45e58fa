import { decide } from "@workmetrics/domain";
import { dec, money, plain, sum } from "@workmetrics/domain/documents/decimal";
import { RECEIPT_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal } from "../../platform/documents/ledger.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader, type Row, takeNumber, today, writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { settleInvoice } from "./invoice.effects.ts";

// record_payment (DESIGN §2.3.1): one transaction — lock each invoice paid (in id order), check it is this
// customer's, open, and owes at least what is allocated to it; number the receipt (RCT), write it and one
// payment_allocation row per invoice, post Dr 1010 Bank (1000 Cash when paid in cash) / Cr 1100 Trade Debtors, and
// recompute each invoice's outstanding from its allocations, which settles its status. What is not allocated stays
// on the receipt as the customer's credit (`unallocated`), to allocate later.

export type PaymentInput = {
  type: "receipt";
  company_id: number;
  amount: string;
  date?: string | null;
  method: string;
  reference?: string | null;
  notes?: string | null;
  allocations: { document_type: "invoice"; document_id: number; amount: string }[];
};

const OPEN = new Set(["unpaid", "partly_paid", "overdue"]);

export async function recordPayment(tx: Tx, caller: Caller, input: PaymentInput): Promise<unknown> {
  const access = decide(memberOf(caller), {
    audience: "member",
    permission: "receipt.create",
    feature: "erp",
    subject: "Receipts",
    does: "record receipts",
  });
  if (!access.allowed) throw refusalError(access);
  const ws = caller.workspaceId as string;
  const amount = dec(input.amount, "The amount");
  if (!amount.greaterThan(0)) throw invalid("The amount must be more than 0", "amount");
  // Two allocations to one invoice are one.
  const wanted = new Map<number, string>();
  for (const [i, a] of input.allocations.entries()) {
    if (!dec(a.amount, `Allocation ${i + 1}`).greaterThan(0)) {
      throw invalid(`Allocation ${i + 1} must be more than 0`, `allocations.${i}.amount`);
    }
    wanted.set(a.document_id, money(dec(wanted.get(a.document_id) ?? "0").plus(dec(a.amount))));
  }
  const allocated = sum([...wanted.values()]);
  if (allocated.greaterThan(amount)) {
    throw invalid(`The allocations (${money(allocated)}) are more than the payment (${money(amount)})`, "allocations");
  }
  const invoiceSpec = documentSpec("invoice");
  const invoices: Row[] = [];
  for (const id of [...wanted.keys()].sort((a, b) => a - b)) {
    const inv = await lockHeader(tx, invoiceSpec, ws, id);
    if (!inv) throw notFound(invoiceSpec, id);
    const name = String(inv.number ?? `Invoice ${id}`);
    if (Number(inv.company_id) !== input.company_id)
      throw invalid(`${name} is not this customer's invoice`, "allocations");
    if (!OPEN.has(String(inv.status))) {
      const label = invoiceSpec.machine.statuses[String(inv.status)]?.label.toLowerCase() ?? inv.status;
      throw conflict(`${name} is ${label}: only an unpaid, partly paid or overdue invoice can be paid`);
    }
    const owes = dec(String(inv.outstanding));
    if (dec(wanted.get(id) as string).greaterThan(owes)) {
      throw conflict(
        `Only ${money(owes)} is outstanding on ${name}; ${money(wanted.get(id) as string)} cannot be allocated`,
        {
          reason: "overflow",
        },
      );
    }
    invoices.push(inv);
  }
  const date = input.date ?? (await today(tx));
  const number = await takeNumber(tx, ws, "receipt", date);
  const res = await tx.execute(sql`insert into receipt
      (workspace_id, number, doc_date, company_id, amount, unallocated, method, reference, notes, created_by)
    values (${ws}::uuid, ${number}, ${date}::date, ${input.company_id}, ${money(amount)}::numeric,
      ${money(amount.minus(allocated))}::numeric, ${input.method}, ${input.reference ?? null}, ${input.notes ?? null},
      ${caller.userId}::uuid) returning id`);
  const receiptId = Number((res.rows[0] as { id: number | string }).id);
  if (wanted.size) {
    const rows = [...wanted.entries()].map(
      ([id, a]) => sql`(${ws}::uuid, 'receipt', ${receiptId}, 'invoice', ${id}, ${a}::numeric)`,
    );
    await tx.execute(sql`insert into payment_allocation
      (workspace_id, payment_type, payment_id, document_type, document_id, amount) values ${sql.join(rows, sql`, `)}`);
  }
  await postJournal(tx, caller, { type: "receipt", id: receiptId, number, date }, RECEIPT_RULE, {
    amount: money(amount),
    accounts: input.method === "cash" ? { bank: "1000" } : undefined,
  });
  for (const inv of invoices) {
    await settleInvoice(tx, caller, invoiceSpec, Number(inv.id), { receipt: { id: receiptId, number } });
  }
  await writeEvent(tx, caller, {
    type: "receipt",
    docId: receiptId,
    action: "create",
    from: null,
    to: "submitted",
    changes: { allocations: Object.fromEntries(wanted), unallocated: plain(amount.minus(allocated)) },
  });
  const out = await tx.execute(sql`select id, number, status, doc_date::text as doc_date, company_id,
      amount::text as amount, unallocated::text as unallocated, method, reference, notes,
      coalesce((select json_agg(json_build_object('document_type', a.document_type, 'document_id', a.document_id,
        'amount', a.amount::text) order by a.id) from payment_allocation a
        where a.workspace_id = r.workspace_id and a.payment_type = 'receipt' and a.payment_id = r.id), '[]') as allocations
    from receipt r where r.workspace_id = ${ws}::uuid and r.id = ${receiptId}`);
  return out.rows[0];
}
