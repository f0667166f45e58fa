import { memberRequirement, type Requirement } from "@workmetrics/domain";
import { dec } from "@workmetrics/domain/documents/decimal";

// Which documents a customer pays from their own page — the server's receipt kind pays them (record_payment:
// modules/documents/record-payment.ts, invoices and debit notes, and the claims module adds progressive claims) —
// and in which statuses they still owe. A type added here is offered "Record payment", prefilled with what is
// outstanding, in the one payment dialog.

export type Payable = { payment: "receipt"; owing: readonly string[] };

export const RECEIPT_ACCESS: Requirement = memberRequirement("receipt.create", "record receipts", "erp");

const INVOICE_LIKE = ["unpaid", "partly_paid", "overdue"] as const;

export const PAYABLE: Readonly<Record<string, Payable>> = {
  invoice: { payment: "receipt", owing: INVOICE_LIKE },
  debit_note: { payment: "receipt", owing: INVOICE_LIKE },
  // Owed once claimed, whether or not the customer's payment response is in (SOP Act).
  progressive_claim: { payment: "receipt", owing: ["claimed", "certified", "partly_paid", "overdue"] },
};

// The payment a document's page offers now, or null: a payable type, owing, with something outstanding.
export function paymentOffer(type: string, status: string, outstanding: unknown): Payable | null {
  const payable = PAYABLE[type];
  if (!payable?.owing.includes(status)) return null;
  try {
    return dec(String(outstanding ?? "0")).greaterThan(0) ? payable : null;
  } catch {
    return null;
  }
}

// What paid a document (finding 4: a paid debit note named its receipt only in a refusal): its allocation rows, each
// with the receipt or credit note it came from, newest last. Shown on the page of every PAYABLE type once submitted.
export type Allocation = { id: number; payment_type: string; payment_id: number; amount: string };
export type Payer = { id: number; number: string; doc_date: string; method?: string | null; reference?: string | null };
export type PaidBy = { id: number; kind: "receipt" | "credit_note"; payer: Payer | null; amount: string };

// The payment kinds the panel names (a receipt, another credit note's credit); other rows are left out.
export const PAYER_TYPES = ["receipt", "credit_note"] as const;

export function paidBy(
  allocations: readonly Allocation[],
  payers: Readonly<Record<(typeof PAYER_TYPES)[number], readonly Payer[]>>,
): PaidBy[] {
  return allocations.flatMap((a) => {
    const kind = PAYER_TYPES.find((k) => k === a.payment_type);
    if (!kind) return [];
    const payer = payers[kind].find((p) => Number(p.id) === Number(a.payment_id)) ?? null;
    return [{ id: Number(a.id), kind, payer, amount: String(a.amount) }];
  });
}

export const showsPayments = (type: string, status: string, initial: string): boolean =>
  type in PAYABLE && status !== initial && status !== "cancelled";
