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
import { settleDebitNote } from "./debit-note.effects.ts";
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
  allocations: { document_type: "invoice" | "debit_note"; document_id: number; amount: string }[];
};

const OPEN = new Set(["unpaid", "partly_paid", "overdue"]);

// What a receipt may pay: invoices, and debit notes, which are receivables of their own (issue 10 §2).
const SETTLE = { invoice: settleInvoice, debit_note: settleDebitNote } as const;
type Payable = keyof typeof SETTLE;

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
  // Money is paid in cents: 10.555 is a typo, not an amount to round silently.
  if (amount.decimalPlaces() > 2) throw invalid(`The amount ${input.amount} has more than 2 decimals`, "amount");
  // Two allocations to one document are one; keyed "invoice:12".
  const wanted = new Map<string, string>();
  for (const [i, a] of input.allocations.entries()) {
    if (!dec(a.amount, `Allocation ${i + 1}`).greaterThan(0)) {
      throw invalid(`Allocation ${i + 1} must be more than 0`, `allocations.${i}.amount`);
    }
    if (dec(a.amount).decimalPlaces() > 2) {
      throw invalid(`Allocation ${i + 1} (${a.amount}) has more than 2 decimals`, `allocations.${i}.amount`);
    }
    const key = `${a.document_type}:${a.document_id}`;
    wanted.set(key, money(dec(wanted.get(key) ?? "0").plus(dec(a.amount))));
  }
  const allocated = sum([...wanted.values()]);
  if (allocated.greaterThan(amount)) {
    throw invalid(`The allocations (${money(allocated)}) are more than the payment (${money(amount)})`, "allocations");
  }
  const invoices: Array<{ type: Payable; row: Row }> = [];
  const order = [...wanted.keys()].map((k) => k.split(":") as [Payable, string]);
  order.sort((a, b) => a[0].localeCompare(b[0]) || Number(a[1]) - Number(b[1]));
  for (const [type, key] of order) {
    const id = Number(key);
    const spec = documentSpec(type);
    const what = spec.machine.title.toLowerCase();
    const inv = await lockHeader(tx, spec, ws, id);
    if (!inv) throw notFound(spec, id);
    const name = String(inv.number ?? `${spec.machine.title} ${id}`);
    if (Number(inv.company_id) !== input.company_id) {
      throw invalid(`${name} is not this customer's ${what}`, "allocations");
    }
    if (!OPEN.has(String(inv.status))) {
      const label = spec.machine.statuses[String(inv.status)]?.label.toLowerCase() ?? inv.status;
      throw conflict(`${name} is ${label}: only an unpaid, partly paid or overdue ${what} can be paid`);
    }
    const owes = dec(String(inv.outstanding));
    const asked = wanted.get(`${type}:${id}`) as string;
    if (dec(asked).greaterThan(owes)) {
      throw conflict(`Only ${money(owes)} is outstanding on ${name}; ${money(asked)} cannot be allocated`, {
        reason: "overflow",
      });
    }
    invoices.push({ type, row: inv });
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
    const rows = [...wanted.entries()].map(([key, a]) => {
      const [type, id] = key.split(":");
      return sql`(${ws}::uuid, 'receipt', ${receiptId}, ${type}, ${Number(id)}, ${a}::numeric)`;
    });
    await tx.execute(sql`insert into payment_allocation
      (workspace_id, payment_type, payment_id, document_type, document_id, amount) values ${sql.join(rows, sql`, `)}`);
  }
  await postJournal(tx, caller, { type: "receipt", id: receiptId, number, date }, RECEIPT_RULE, {
    amount: money(amount),
    accounts: input.method === "cash" ? { bank: "1000" } : undefined,
  });
  for (const { type, row } of invoices) {
    await SETTLE[type](tx, caller, documentSpec(type), Number(row.id), { receipt: { id: receiptId, number } });
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
