import { decide } from "@workmetrics/domain";
import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { SUPPLIER_PAYMENT_RULE } from "@workmetrics/domain/documents/postings";
import { releasedToPay } from "@workmetrics/domain/documents/three-way";
import { SUPPLIER_PAYMENT_ACCESS } from "@workmetrics/domain/resources/payables";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader, type Row, today, writeEvent } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { type PaymentKind, readPayment } from "../documents/record-payment.ts";

// Issue 11: a payment to a supplier is record_payment's supplier_payment kind — it pays supplier invoices, and only
// those the three-way check let through (match_status matched, or released by a finance manager with a reason).

export const SUPPLIER_PAYMENT_KIND: PaymentKind = {
  type: "supplier_payment",
  access: SUPPLIER_PAYMENT_ACCESS.create,
  party: "supplier",
  partyFlag: "is_supplier",
  pays: ["supplier_invoice"],
  rule: SUPPLIER_PAYMENT_RULE,
  held: (doc: Row, name: string) =>
    doc.match_status != null && !releasedToPay(String(doc.match_status))
      ? conflict(`${name} is waiting in the three-way check; a finance manager must release it first`, {
          reason: "not_released",
        })
      : null,
};

// Cancelling a supplier payment (POST /rest/v1/rpc/supplier_payment_cancel {id, reason}): one transaction — lock the
// payment and what it paid, remove its allocations (kept in the audit row), reverse its journal entry on the day it
// is cancelled, and recompute each supplier invoice's outstanding, so what it paid is owed again.
async function cancelSupplierPayment(
  tx: Tx,
  caller: Caller,
  input: { id: number; reason: string },
): Promise<CommandAnswer<"supplier_payment_cancel">> {
  const access = decide(memberOf(caller), SUPPLIER_PAYMENT_ACCESS.cancel);
  if (!access.allowed) throw refusalError(access);
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select id, number, status from supplier_payment
    where workspace_id = ${ws}::uuid and id = ${input.id} for update`);
  const payment = res.rows[0] as { number: string; status: string } | undefined;
  if (!payment) throw new RestError(404, "PGRST116", `There is no supplier payment ${input.id} in this workspace`);
  if (payment.status !== "submitted") throw conflict(`${payment.number} is already cancelled`);
  const allocated = await tx.execute(sql`select document_type, document_id, amount::text as amount
    from payment_allocation where workspace_id = ${ws}::uuid and payment_type = 'supplier_payment'
      and payment_id = ${input.id} order by document_type, document_id`);
  const rows = allocated.rows as Array<{ document_type: string; document_id: number | string; amount: string }>;
  for (const a of rows) await lockHeader(tx, documentSpec(a.document_type), ws, Number(a.document_id));
  await tx.execute(sql`delete from payment_allocation where workspace_id = ${ws}::uuid
    and payment_type = 'supplier_payment' and payment_id = ${input.id}`);
  await tx.execute(sql`update supplier_payment set status = 'cancelled', cancelled_by = ${caller.userId}::uuid,
      cancelled_at = now(), cancel_reason = ${input.reason}, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${input.id}`);
  const date = await today(tx);
  await reverseJournals(tx, caller, { type: "supplier_payment", id: input.id, number: payment.number, date });
  const by = { supplier_payment: { id: input.id, number: payment.number, cancelled: true } };
  for (const a of rows) await settleReceivable(tx, caller, documentSpec(a.document_type), Number(a.document_id), by);
  await writeEvent(tx, caller, {
    type: "supplier_payment",
    docId: input.id,
    action: "cancel",
    from: "submitted",
    to: "cancelled",
    reason: input.reason,
    changes: { allocations: rows },
  });
  return readPayment(tx, ws, "supplier_payment", input.id);
}

export const supplierPaymentCancel = implement(COMMANDS.supplier_payment_cancel, {
  run: (tx, args, caller) => cancelSupplierPayment(tx, caller, args),
});
