import { decide, type Requirement } from "@workmetrics/domain";
import type { CommandAnswer } from "@workmetrics/domain/commands";
import { dec, money, plain, sum } from "@workmetrics/domain/documents/decimal";
import type { PostingRule } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal } from "../../platform/documents/ledger.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader, type Row, takeNumber, today, writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import type { RestError } from "../../platform/rest/rest-error.ts";
import { settleReceivable } from "./receivable.ts";

// record_payment (DESIGN §2.3.1): one transaction — lock each document paid (in type and id order), check it is
// this party's, open, not held, and owes at least what is allocated to it; number the payment (RCT, PAY), write it
// and one payment_allocation row per document, post the kind's rule (a receipt Dr 1010 Bank / Cr 1100 Trade
// Debtors, a supplier payment Dr 2000 Trade Creditors / Cr 1010 Bank; 1000 Cash when paid in cash), and recompute
// each document's outstanding from its allocations, which settles its status. What is not allocated stays on the
// payment as the party's credit (`unallocated`), to allocate later. Receipts and supplier payments are the same
// command: each kind is registered by its module (customer receipts here, supplier payments by payables).

export type PaymentKind = {
  type: string; // the payment's table, its number prefix's type and its journal's source type
  access: Requirement;
  party: string; // "customer", "supplier": who pays or is paid, in messages
  partyFlag?: string; // the company column that makes one such a party ("is_supplier"); unset: any company
  pays: readonly string[]; // the document types it may be allocated to
  rule: PostingRule;
  // Why a document may not be paid yet although it is open (a supplier invoice waiting in the three-way check).
  held?: (doc: Row, name: string) => RestError | null;
};

const KINDS = new Map<string, PaymentKind>();

export function registerPaymentKind(kind: PaymentKind): void {
  KINDS.set(kind.type, kind);
}

export function paymentKind(type: string): PaymentKind {
  const kind = KINDS.get(type);
  if (!kind) throw invalid(`There is no payment type "${type}"`, "type");
  return kind;
}

export type PaymentInput = {
  type: string;
  company_id: number;
  amount: string;
  date?: string | null;
  method: string;
  reference?: string | null;
  notes?: string | null;
  allocations: { document_type: string; document_id: number; amount: string }[];
};

// A progressive claim is owed once claimed, whether or not its payment response is in (issue 12).
const OPEN = new Set(["unpaid", "partly_paid", "overdue", "claimed", "certified"]);

// Money is paid in cents: 10.555 is a typo, not an amount to round silently. `what` names it: "The amount 10.555",
// "Allocation 1 (5.001)".
function cents(value: string, name: string, what: string, field: string): ReturnType<typeof dec> {
  const d = dec(value, name);
  if (!d.greaterThan(0)) throw invalid(`${name} must be more than 0`, field);
  if (d.decimalPlaces() > 2) throw invalid(`${what} has more than 2 decimals`, field);
  return d;
}

export async function recordPayment(tx: Tx, caller: Caller, input: PaymentInput): Promise<unknown> {
  const kind = paymentKind(input.type);
  const access = decide(memberOf(caller), kind.access);
  if (!access.allowed) throw refusalError(access);
  const ws = caller.workspaceId as string;
  if (kind.partyFlag) {
    const c = await tx.execute(sql`select name, ${sql.identifier(kind.partyFlag)} as flag from company
      where workspace_id = ${ws}::uuid and id = ${input.company_id}`);
    const company = c.rows[0] as { name: string; flag: boolean } | undefined;
    if (!company) throw invalid(`There is no ${kind.party} ${input.company_id} in this workspace`, "company_id");
    if (!company.flag) throw invalid(`${company.name} is not a ${kind.party}`, "company_id");
  }
  const amount = cents(input.amount, "The amount", `The amount ${input.amount}`, "amount");
  const wanted = wantedAllocations(kind, input.allocations);
  const allocated = sum([...wanted.values()]);
  if (allocated.greaterThan(amount)) {
    throw invalid(`The allocations (${money(allocated)}) are more than the payment (${money(amount)})`, "allocations");
  }
  const paid = await lockAllocated(tx, ws, kind, input.company_id, wanted);
  const date = input.date ?? (await today(tx));
  const number = await takeNumber(tx, ws, kind.type, date);
  const res = await tx.execute(sql`insert into ${sql.identifier(kind.type)}
      (workspace_id, number, doc_date, company_id, amount, unallocated, method, reference, notes, created_by)
    values (${ws}::uuid, ${number}, ${date}::date, ${input.company_id}, ${money(amount)}::numeric,
      ${money(amount.minus(allocated))}::numeric, ${input.method}, ${input.reference ?? null}, ${input.notes ?? null},
      ${caller.userId}::uuid) returning id`);
  const paymentId = Number((res.rows[0] as { id: number | string }).id);
  if (wanted.size) {
    const rows = [...wanted.entries()].map(([key, a]) => {
      const [type, id] = key.split(":");
      return sql`(${ws}::uuid, ${kind.type}, ${paymentId}, ${type}, ${Number(id)}, ${a}::numeric)`;
    });
    await tx.execute(sql`insert into payment_allocation
      (workspace_id, payment_type, payment_id, document_type, document_id, amount) values ${sql.join(rows, sql`, `)}`);
  }
  await postJournal(tx, caller, { type: kind.type, id: paymentId, number, date }, kind.rule, {
    amount: money(amount),
    accounts: input.method === "cash" ? { bank: "1000" } : undefined,
  });
  for (const { type, id } of paid) {
    await settleReceivable(tx, caller, documentSpec(type), id, { [kind.type]: { id: paymentId, number } });
  }
  await writeEvent(tx, caller, {
    type: kind.type,
    docId: paymentId,
    action: "create",
    from: null,
    to: "submitted",
    changes: { allocations: Object.fromEntries(wanted), unallocated: plain(amount.minus(allocated)) },
  });
  return readPayment(tx, ws, kind.type, paymentId);
}

// A payment as record_payment answers it: its header and its allocations.
export async function readPayment(
  tx: Tx,
  ws: string,
  type: string,
  id: number,
): Promise<CommandAnswer<"record_payment">> {
  const out = await tx.execute(sql`select id, number, status, doc_date::text as doc_date, company_id,
      amount::text as amount, unallocated::text as unallocated, method, reference, notes,
      coalesce((select json_agg(json_build_object('document_type', a.document_type, 'document_id', a.document_id,
        'amount', a.amount::text) order by a.id) from payment_allocation a
        where a.workspace_id = r.workspace_id and a.payment_type = ${type} and a.payment_id = r.id), '[]') as allocations
    from ${sql.identifier(type)} r where r.workspace_id = ${ws}::uuid and r.id = ${id}`);
  return out.rows[0] as CommandAnswer<"record_payment">;
}

// Two allocations to one document are one; keyed "invoice:12". Each is in cents, more than 0, and to a document type
// the kind pays.
export function wantedAllocations(
  kind: PaymentKind,
  allocations: readonly { document_type: string; document_id: number; amount: string }[],
): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const [i, a] of allocations.entries()) {
    cents(a.amount, `Allocation ${i + 1}`, `Allocation ${i + 1} (${a.amount})`, `allocations.${i}.amount`);
    if (!kind.pays.includes(a.document_type)) {
      const what = kind.pays.map((t) => documentSpec(t).machine.plural.toLowerCase()).join(" and ");
      throw invalid(`Allocation ${i + 1}: a ${kind.party}'s payment pays ${what}`, `allocations.${i}.document_type`);
    }
    const key = `${a.document_type}:${a.document_id}`;
    wanted.set(key, money(dec(wanted.get(key) ?? "0").plus(dec(a.amount))));
  }
  return wanted;
}

// Locks each document allocated to, in type and id order, and checks it is this party's, not held (a supplier
// invoice in the three-way check), open, and owes at least what is allocated to it. record_payment and
// allocate_credit (a party's credit used later) check alike.
export async function lockAllocated(
  tx: Tx,
  ws: string,
  kind: PaymentKind,
  companyId: number,
  wanted: ReadonlyMap<string, string>,
): Promise<Array<{ type: string; id: number }>> {
  const locked: Array<{ type: string; id: number }> = [];
  const order = [...wanted.keys()].map((k) => k.split(":") as [string, string]);
  order.sort((a, b) => a[0].localeCompare(b[0]) || Number(a[1]) - Number(b[1]));
  for (const [type, key] of order) {
    const id = Number(key);
    const spec = documentSpec(type);
    const what = spec.machine.title.toLowerCase();
    const doc = await lockHeader(tx, spec, ws, id);
    if (!doc) throw notFound(spec, id);
    const name = String(doc.number ?? `${spec.machine.title} ${id}`);
    if (Number(doc.company_id) !== companyId) {
      throw invalid(`${name} is not this ${kind.party}'s ${what}`, "allocations");
    }
    const held = kind.held?.(doc, name);
    if (held) throw held;
    if (!OPEN.has(String(doc.status))) {
      const label = spec.machine.statuses[String(doc.status)]?.label.toLowerCase() ?? doc.status;
      throw conflict(`${name} is ${label}: only an unpaid, partly paid or overdue ${what} can be paid`);
    }
    const owes = dec(String(doc.outstanding));
    const asked = wanted.get(`${type}:${id}`) as string;
    if (dec(asked).greaterThan(owes)) {
      throw conflict(`Only ${money(owes)} is outstanding on ${name}; ${money(asked)} cannot be allocated`, {
        reason: "overflow",
      });
    }
    locked.push({ type, id });
  }
  return locked;
}
