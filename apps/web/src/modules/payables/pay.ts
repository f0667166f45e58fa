import { dec } from "@workmetrics/domain/documents/decimal";

// A supplier payment as the Pay dialog builds it from the invoices chosen on Accounts payable: each invoice paid
// what it owes unless the clerk pays less; the amount is their sum unless more is paid (the rest is the supplier's
// credit). Pure, so the rules the server enforces too are tested apart from the dialog.

export type Payable = { id: number; number: string; outstanding: string };
export type Allocation = { id: number; amount: string };

export const defaultAllocations = (chosen: readonly Payable[]): Allocation[] =>
  chosen.map((p) => ({ id: p.id, amount: dec(p.outstanding).toFixed(2) }));

export function allocatedTotal(allocations: readonly Allocation[]): string {
  return allocations.reduce((a, x) => a.plus(safe(x.amount) ?? "0"), dec("0")).toFixed(2);
}

function safe(value: string) {
  try {
    return dec(value || "0");
  } catch {
    return null;
  }
}

// What is wrong with the payment, in the words the server would use, or null.
export function paymentProblem(amount: string, chosen: readonly Payable[], allocations: readonly Allocation[]) {
  const a = safe(amount);
  if (!a) return "The amount must be a number";
  if (!a.greaterThan(0)) return "The amount must be more than 0";
  if (a.decimalPlaces() > 2) return `The amount ${amount} has more than 2 decimals`;
  for (const [i, x] of allocations.entries()) {
    const p = chosen.find((c) => c.id === x.id);
    const v = safe(x.amount);
    if (!v) return `The amount for ${p?.number ?? `invoice ${i + 1}`} must be a number`;
    if (v.isNegative()) return `The amount for ${p?.number} cannot be negative`;
    if (p && v.greaterThan(dec(p.outstanding))) {
      return `Only ${dec(p.outstanding).toFixed(2)} is outstanding on ${p.number}`;
    }
  }
  const total = dec(allocatedTotal(allocations));
  if (total.greaterThan(a)) return `The invoices get ${total.toFixed(2)}, more than the payment (${a.toFixed(2)})`;
  return null;
}

// The record_payment allocations: the invoices paid something (a zero leaves one out).
export const toAllocations = (allocations: readonly Allocation[]) =>
  allocations
    .filter((x) => dec(x.amount || "0").greaterThan(0))
    .map((x) => ({ document_type: "supplier_invoice", document_id: x.id, amount: dec(x.amount).toFixed(2) }));

// The credit spread over the invoices in the order the report gives them (oldest due first).
export function fill(payable: readonly Payable[], credit: string): Allocation[] {
  let left = dec(credit);
  return payable.map((p) => {
    const take = left.lessThan(dec(p.outstanding)) ? left : dec(p.outstanding);
    left = left.minus(take);
    return { id: p.id, amount: take.toFixed(2) };
  });
}
