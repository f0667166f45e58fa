import type Decimal from "decimal.js";
import { Dec, type DecimalInput, DocumentError, dec, money, plain, sum } from "./decimal.ts";

// ERPNext's status updater (DOCUMENTS.md §0, erpnext/controllers/status_updater.py) as pure functions. STYLE:
// "Quantities flow back by recomputing, never by incrementing": on submit and on cancel a source line's
// qty_delivered is the sum over the submitted target lines that link to it, so running it twice is harmless.

// What each quantity column counts, in the words refusals use. `shares`: other columns of the same line that take
// from the same quantity (a loan line's goods are either returned or sold: what came back cannot be sold).
export const QTY_FIELDS: Record<
  "qty_delivered" | "qty_billed" | "qty_returned" | "qty_credited" | "qty_received" | "qty_picked" | "qty_sold",
  { verb: string; past: string; shares?: readonly string[] }
> = {
  qty_delivered: { verb: "deliver", past: "delivered" },
  qty_billed: { verb: "bill", past: "billed" },
  qty_returned: { verb: "return", past: "returned" },
  qty_credited: { verb: "credit", past: "credited" },
  qty_received: { verb: "receive", past: "received" },
  qty_picked: { verb: "pick", past: "picked" },
  qty_sold: { verb: "sell", past: "sold", shares: ["qty_returned"] },
};
export type QtyField = keyof typeof QTY_FIELDS;

export type SourceLine = { id: string; qty: string } & { [F in QtyField]?: string | null };
export type TargetLine = { source_line_id: string | null; qty: string };

const done = (line: SourceLine, field: QtyField): Decimal => dec(line[field] ?? "0");
// What the line's quantity has already gone to other than `field` (see `shares`).
const sharedDone = (line: SourceLine, field: QtyField): Decimal =>
  sum((QTY_FIELDS[field].shares ?? []).map((f) => done(line, f as QtyField).abs()));

// Sets `field` on every source line to Σ qty of the target lines that link to it. The caller passes the lines of
// submitted targets only (a cancelled delivery no longer counts) after locking the source lines (FOR UPDATE).
export function recomputeQuantities<L extends SourceLine>(
  sourceLines: readonly L[],
  submittedTargets: readonly TargetLine[],
  field: QtyField,
): L[] {
  const totals = new Map<string, Decimal>();
  for (const t of submittedTargets) {
    if (t.source_line_id == null) continue;
    totals.set(t.source_line_id, (totals.get(t.source_line_id) ?? new Dec(0)).plus(dec(t.qty)));
  }
  return sourceLines.map((line) => ({ ...line, [field]: plain(totals.get(line.id) ?? "0") }));
}

// The document's percentage: Σ min(|done|, |qty|) / Σ |qty| × 100, so one over-delivered line cannot hide another
// that is short. Two decimals rounded down, so 99.999% never shows as 100. A document with nothing ordered has
// nothing left to do: 100.
export function percentDone(lines: readonly SourceLine[], field: QtyField): string {
  const ordered = sum(lines.map((l) => dec(l.qty).abs()));
  if (ordered.isZero()) return "100";
  const capped = sum(lines.map((l) => Dec.min(done(l, field).abs(), dec(l.qty).abs())));
  return plain(capped.times(100).dividedBy(ordered).toDecimalPlaces(2, Dec.ROUND_DOWN));
}

// ERPNext's Not/Partly/Fully, decided on exact quantities rather than its float thresholds.
export type Progress = "not" | "partly" | "fully";

export function progress(lines: readonly SourceLine[], field: QtyField): Progress {
  if (lines.every((l) => done(l, field).abs().greaterThanOrEqualTo(dec(l.qty).abs()))) return "fully";
  return lines.every((l) => done(l, field).isZero()) ? "not" : "partly";
}

// How much more may be delivered (billed, returned …) on a line: the quantity plus the workspace's allowance %
// (ERPNext's over_delivery_receipt_allowance / over_billing_allowance) less what is done; never below 0.
export function remaining(line: SourceLine, field: QtyField, allowancePercent: DecimalInput = "0"): string {
  const allowance = dec(allowancePercent, "The allowance");
  if (allowance.isNegative()) throw new DocumentError("The allowance cannot be negative");
  const cap = dec(line.qty).abs().times(allowance.plus(100)).dividedBy(100);
  return plain(Dec.max(cap.minus(done(line, field).abs()).minus(sharedDone(line, field)), 0));
}

const count = (n: Decimal) => (n.equals(1) ? "is" : "are");

// Refuses a conversion or submit that would pass a line's cap, with the line (1-based, in `sourceLines` order) and
// what is left (DESIGN §2.3.1 "Refusals"). Requested lines linking to the same source line are added up first.
export function checkOverflow(
  sourceLines: readonly SourceLine[],
  requested: readonly TargetLine[],
  field: QtyField,
  allowancePercent: DecimalInput = "0",
): string | null {
  const { verb, past } = QTY_FIELDS[field];
  const wanted = new Map<string, Decimal>();
  for (const [i, r] of requested.entries()) {
    if (r.source_line_id == null) continue;
    if (!sourceLines.some((l) => l.id === r.source_line_id)) return `Line ${i + 1} is not on the source document`;
    wanted.set(r.source_line_id, (wanted.get(r.source_line_id) ?? new Dec(0)).plus(dec(r.qty)));
  }
  const withAllowance = dec(allowancePercent).isZero() ? "" : `, with the ${plain(allowancePercent)}% allowance`;
  for (const [i, line] of sourceLines.entries()) {
    const want = wanted.get(line.id);
    if (!want) continue;
    const left = dec(remaining(line, field, allowancePercent));
    if (want.lessThanOrEqualTo(left)) continue;
    const n = i + 1;
    if (left.isZero()) {
      return `Nothing is left to ${verb} on line ${n}: ${plain(done(line, field))} of ${plain(line.qty)} ${past}`;
    }
    // All of the line left (nothing drawn yet): "Only 10 of 10 are left" reads oddly; what was asked says it better.
    if (left.greaterThanOrEqualTo(dec(line.qty))) {
      return `Only ${plain(left)} ${count(left)} left to ${verb} on line ${n}${withAllowance}, not ${plain(want)}`;
    }
    return `Only ${plain(left)} of ${plain(line.qty)} ${count(left)} left to ${verb} on line ${n}${withAllowance}`;
  }
  return null;
}

// ---- statuses from the figures ---------------------------------------------------------------------------------

export type SalesOrderLine = SourceLine & { deliverable?: boolean }; // false: a service nobody delivers
export type SalesOrderProgress = "to_deliver_and_bill" | "to_deliver" | "to_bill" | "completed";

// ERPNext's sales order status_map; On Hold, Closed and Cancelled are set by actions and stay. Lines that are not
// delivered (services) count for billing only. Returns do not reopen delivery: qty_delivered counts what left.
export function salesOrderStatus(lines: readonly SalesOrderLine[]): SalesOrderProgress {
  const delivered = progress(
    lines.filter((l) => l.deliverable !== false),
    "qty_delivered",
  );
  const billed = progress(lines, "qty_billed");
  if (delivered === "fully") return billed === "fully" ? "completed" : "to_bill";
  return billed === "fully" ? "to_deliver" : "to_deliver_and_bill";
}

export type PaymentStatus = "unpaid" | "partly_paid" | "paid" | "overdue" | "credit_note_issued";

const isoDate = (text: string) => {
  const day = text.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`Not an ISO date: ${text}`);
  return day;
};

// An invoice's status from `outstanding` (issue 10 §2). Overdue wins over Partly paid: a clerk chasing money wants
// to see it. Due on the due date, overdue the day after. Credit note issued: settled by a credit note rather than
// paid (ERPNext's rule).
// `credited`: what credit notes took off it. Credit is not payment: an invoice credited in part and paid nothing is
// still Unpaid on what is left (ERPNext); Partly paid means money came in.
export function invoicePaymentStatus(
  invoice: { total: string; outstanding: string; due_date?: string | null; credited?: string | null },
  today: string,
): PaymentStatus {
  const outstanding = dec(invoice.outstanding);
  const credited = dec(invoice.credited ?? "0");
  if (!outstanding.greaterThan(0)) return credited.greaterThan(0) ? "credit_note_issued" : "paid";
  if (invoice.due_date && isoDate(today) > isoDate(invoice.due_date)) return "overdue";
  return outstanding.lessThan(dec(invoice.total).minus(credited)) ? "partly_paid" : "unpaid";
}

// Outstanding is recomputed from the rows that change it (STYLE "Payments allocate in rows"), never decremented:
// total − payments allocated − credit notes against it + debit notes against it. Below 0 is money owed back.
export function outstandingAmount(
  total: DecimalInput,
  changes: { allocated?: readonly string[]; credited?: readonly string[]; debited?: readonly string[] } = {},
): string {
  const less = sum([...(changes.allocated ?? []), ...(changes.credited ?? [])]);
  return money(
    dec(total)
      .minus(less)
      .plus(sum(changes.debited ?? [])),
  );
}
