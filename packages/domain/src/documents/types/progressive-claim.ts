import type Decimal from "decimal.js";
import { Dec, DocumentError, dec, money, plain, sum } from "../decimal.ts";
import { defineDocumentType } from "../machine.ts";
import { TAX_CODES, TAX_RATES, type TaxCode, type TaxRates } from "../totals.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 12 "Progressive claims" (DOCUMENTS.md "Progressive claim", DESIGN §2.3.1): a contractor bills a contract — a
// submitted sales order, usually of a project — in stages. Each line carries its contract amount and the work done
// to date as a cumulative percentage, or as a cumulative quantity measured against the line's contract quantity (a
// quantity surveyor's 340 of 500 m²; the percentage is then derived from it); this claim is the work done to date less what the previous claim of the same
// contract had claimed to date (Dolibarr's situation invoices, without their bugs). Variations are extra lines with
// their own contract amount that add to the contract sum from that claim on and are carried to later claims.
//
// Retention: retention_percent of the work done to date, capped at retention_cap_percent of the contract sum
// (variations included: a variation adjusts the contract sum, as the SIA and PSSCOC conditions read it), so the
// retention held never exceeds the cap however many claims there are; this claim's retention is the retention to
// date less the previous claim's. GST is due on what is billed now (IRAS: the time of supply of a progress payment
// is the invoice or the payment, whichever is earlier), so a claim charges GST on its amount less its retention and
// the retention carries its GST when it is released by a release claim.
//
// A release claim (kind "release") bills retention held: the practical-completion share (the project's
// retention_release_percent, default 50%) once the project has reached practical completion, the rest once its
// defects liability period has ended. It moves Retention receivable to Trade debtors with its GST.
//
// Security of Payment Act 2004 (Singapore) dates, fixed when a claim is submitted (the claim date is its date):
// s11 — the response is due by the contract's date or within 21 days, whichever is earlier, and within 14 days when
// the contract is silent; s8 — payment is due by the contract's date or 35 days after the response was due,
// whichever is earlier, and 14 days after the response was due when the contract is silent.

export const CLAIM_KINDS = ["progress", "release"] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];
export const RELEASE_STAGES = ["practical_completion", "final"] as const;
export type ReleaseStage = (typeof RELEASE_STAGES)[number];

export const SOP_RESPONSE_DAYS_MAX = 21;
export const SOP_RESPONSE_DAYS_SILENT = 14;
export const SOP_PAYMENT_DAYS_MAX = 35;
export const SOP_PAYMENT_DAYS_SILENT = 14;
export const DEFAULT_RETENTION_PERCENT = "5";
export const DEFAULT_RETENTION_CAP_PERCENT = "5";
export const DEFAULT_RELEASE_AT_COMPLETION_PERCENT = "50";

export const SOP_STATEMENT =
  "This is a payment claim made under the Building and Construction Industry Security of Payment Act 2004";

const HUNDRED = new Dec(100);
const n = (v: unknown) => (v === null || v === undefined || v === "" ? new Dec(0) : dec(String(v)));

function percentOf(value: unknown, what: string): Decimal {
  const p = value === null || value === undefined || value === "" ? new Dec(0) : dec(String(value), what);
  if (p.isNegative() || p.greaterThan(HUNDRED)) throw new DocumentError(`${what} must be between 0 and 100%`);
  return p;
}

// ---- figures ---------------------------------------------------------------------------------------------------

export type ClaimLineInput = {
  description?: string | null;
  unit?: string | null;
  contract_amount: string;
  cumulative_percent: string; // progress: work done to date; a release line leaves it 0
  prev_percent?: string | null; // what the previous claim of the contract had to date on this line
  prev_amount?: string | null;
  contract_qty?: string | null; // the contract line's quantity (a variation's agreed one), if it has one
  cumulative_qty?: string | null; // given: the work done to date is measured, and the percentage follows from it
  prev_qty?: string | null; // what the previous claim had to date on this line in quantity (derived if not given)
  tax_code?: string | null;
};

export type ClaimPrevious = { gross_to_date: string; retention_to_date: string } | null;

export type ClaimInput = {
  kind: ClaimKind;
  retention_percent: string;
  retention_cap_percent: string;
  lines: readonly ClaimLineInput[];
  previous: ClaimPrevious; // the latest submitted progress claim of the same contract, if any
};

// cumulative_percent: the one given, or derived from the quantity (4 places, as stored).
export type ClaimLineFigures = { cumulative_percent: string; amount_to_date: string; line_total: string };

export type ClaimFigures = {
  lines: ClaimLineFigures[];
  tax_code: TaxCode;
  contract_sum: string;
  gross_to_date: string;
  previous_gross: string;
  this_claim_gross: string;
  retention_cap: string;
  retention_to_date: string;
  previous_retention: string;
  retention_this_claim: string; // a release claim's is negative: retention paid out
  subtotal: string; // this claim less its retention: what GST is charged on
  tax_total: string;
  total: string;
};

const name = (l: ClaimLineInput, i: number) =>
  l.description?.trim() ? `Line ${i + 1} (${l.description.trim()})` : `Line ${i + 1}`;

// One tax code per claim: the retention is a share of the whole claim, so it cannot be split by code.
function claimTaxCode(lines: readonly ClaimLineInput[]): TaxCode {
  const first = (lines[0]?.tax_code ?? "SR") as TaxCode;
  if (!TAX_CODES.includes(first)) throw new DocumentError(`Line 1 has an unknown tax code "${first}"`);
  for (const [i, l] of lines.entries()) {
    if ((l.tax_code ?? "SR") !== first) {
      throw new DocumentError(
        `A progressive claim is taxed at one code: line ${i + 1} is ${l.tax_code}, line 1 ${first}`,
      );
    }
  }
  return first;
}

const given = (v: unknown) => v !== null && v !== undefined && String(v).trim() !== "";
const PERCENT_PLACES = 4; // progressive_claim_line.cumulative_percent numeric(9,4)
const QTY_PLACES = 3; // quantities numeric(14,3)

// A line measured in quantity: within 0 … the contract quantity and not below what was claimed before; the amount to
// date is the contract amount × done / contract quantity (the whole amount when all is done), the percentage follows.
function measured(l: ClaimLineInput, i: number, contract: Decimal, prevPercent: Decimal, prevAmount: Decimal) {
  const unit = l.unit?.trim() ? ` ${l.unit.trim()}` : "";
  const done = dec(String(l.cumulative_qty), `The quantity done to date on line ${i + 1}`);
  const of = given(l.contract_qty) ? dec(String(l.contract_qty), `The contract quantity on line ${i + 1}`) : null;
  if (!of?.greaterThan(0)) {
    throw new DocumentError(
      `${name(l, i)} has no contract quantity to measure against: give its work done to date as a percentage`,
    );
  }
  if (done.isNegative()) throw new DocumentError(`${name(l, i)}: the quantity done to date cannot be negative`);
  if (done.greaterThan(of)) {
    throw new DocumentError(
      `${name(l, i)}: the quantity done to date cannot be more than the contract's ${plain(of)}${unit}`,
    );
  }
  // What was claimed before in quantity: as measured then, or as the percentage then of the contract quantity.
  const before = given(l.prev_qty) ? dec(String(l.prev_qty)) : of.times(prevPercent).dividedBy(HUNDRED);
  if (done.lessThan(before)) {
    throw new DocumentError(
      `${name(l, i)}: the quantity done to date cannot go down to ${plain(done)}${unit}; ${plain(before.toDecimalPlaces(QTY_PLACES))}${unit} was claimed before`,
    );
  }
  if (done.equals(before)) return { percent: prevPercent, toDate: prevAmount };
  return {
    percent: done.times(HUNDRED).dividedBy(of).toDecimalPlaces(PERCENT_PLACES),
    toDate: dec(money(contract.times(done).dividedBy(of))),
  };
}

// The one totals function of a claim: the server prices with it on every save and again on submit, over the
// previous claim's figures as they are then.
export function claimFigures(input: ClaimInput, rates: TaxRates = TAX_RATES): ClaimFigures {
  const code = claimTaxCode(input.lines);
  const rate = dec(rates[code]);
  const retPercent = percentOf(input.retention_percent, "The retention");
  const capPercent = percentOf(input.retention_cap_percent, "The retention cap");
  const prevGross = n(input.previous?.gross_to_date);
  const prevRetention = n(input.previous?.retention_to_date);

  if (input.kind === "release") {
    const amounts = input.lines.map((l, i) => {
      const a = dec(String(l.contract_amount), `The amount released on line ${i + 1}`);
      if (!a.greaterThan(0)) throw new DocumentError(`${name(l, i)}: the amount released must be more than 0`);
      return dec(money(a));
    });
    const released = sum(amounts);
    const tax = dec(money(released.times(rate)));
    return {
      lines: amounts.map((a) => ({ cumulative_percent: "0", amount_to_date: money(a), line_total: money(a) })),
      tax_code: code,
      contract_sum: "0.00",
      gross_to_date: money(prevGross),
      previous_gross: money(prevGross),
      this_claim_gross: "0.00",
      retention_cap: "0.00",
      retention_to_date: money(prevRetention),
      previous_retention: money(prevRetention),
      retention_this_claim: money(released.negated()),
      subtotal: money(released),
      tax_total: money(tax),
      total: money(released.plus(tax)),
    };
  }

  const lines = input.lines.map((l, i) => {
    const contract = dec(String(l.contract_amount), `The contract amount on line ${i + 1}`);
    if (contract.isNegative()) throw new DocumentError(`${name(l, i)}: the contract amount cannot be negative`);
    const prevPercent = n(l.prev_percent);
    const prevAmount = n(l.prev_amount);
    if (given(l.cumulative_qty)) {
      const { percent, toDate } = measured(l, i, contract, prevPercent, prevAmount);
      return { contract, percent, toDate, prevAmount };
    }
    const cumulative = dec(String(l.cumulative_percent ?? "0"), `The work done to date on line ${i + 1}`);
    if (cumulative.isNegative()) throw new DocumentError(`${name(l, i)}: the work done to date cannot be negative`);
    if (cumulative.greaterThan(HUNDRED)) {
      throw new DocumentError(`${name(l, i)}: the work done to date cannot be more than 100%`);
    }
    if (cumulative.lessThan(prevPercent)) {
      throw new DocumentError(
        `${name(l, i)}: the work done to date cannot go down to ${cumulative.toFixed()}%; ${prevPercent.toFixed()}% was claimed before`,
      );
    }
    // Unchanged since the previous claim: the amount it claimed to date, so rounding never drifts.
    const toDate = cumulative.equals(prevPercent)
      ? prevAmount
      : dec(money(contract.times(cumulative).dividedBy(HUNDRED)));
    return { contract, percent: cumulative, toDate, prevAmount };
  });
  const contractSum = sum(lines.map((l) => l.contract));
  const grossToDate = sum(lines.map((l) => l.toDate));
  const previousGross = sum(lines.map((l) => l.prevAmount));
  const cap = dec(money(contractSum.times(capPercent).dividedBy(HUNDRED)));
  const held = Dec.min(dec(money(grossToDate.times(retPercent).dividedBy(HUNDRED))), cap);
  // Never less than what earlier claims already held (a cap can only grow with the contract sum).
  const retentionToDate = Dec.max(held, prevRetention);
  const thisGross = grossToDate.minus(previousGross);
  const retentionThis = retentionToDate.minus(prevRetention);
  const subtotal = thisGross.minus(retentionThis);
  const tax = dec(money(subtotal.times(rate)));
  return {
    lines: lines.map((l) => ({
      cumulative_percent: l.percent.toFixed(4),
      amount_to_date: money(l.toDate),
      line_total: money(l.toDate.minus(l.prevAmount)),
    })),
    tax_code: code,
    contract_sum: money(contractSum),
    gross_to_date: money(grossToDate),
    previous_gross: money(previousGross),
    this_claim_gross: money(thisGross),
    retention_cap: money(cap),
    retention_to_date: money(retentionToDate),
    previous_retention: money(prevRetention),
    retention_this_claim: money(retentionThis),
    subtotal: money(subtotal),
    tax_total: money(tax),
    total: money(subtotal.plus(tax)),
  };
}

// ---- Security of Payment dates ---------------------------------------------------------------------------------

const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const days = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v));

// s11 and s8 (see above): contract days count only up to the Act's limits; a silent contract gets the Act's.
export function sopDates(
  claimDate: string,
  contract: { response_days?: unknown; payment_days?: unknown },
): { response_due: string; payment_due: string } {
  const r = days(contract.response_days);
  const p = days(contract.payment_days);
  const response = r === null ? SOP_RESPONSE_DAYS_SILENT : Math.min(r, SOP_RESPONSE_DAYS_MAX);
  const payment = p === null ? SOP_PAYMENT_DAYS_SILENT : Math.min(p, SOP_PAYMENT_DAYS_MAX);
  const responseDue = addDays(claimDate, response);
  return { response_due: responseDue, payment_due: addDays(responseDue, payment) };
}

// ---- the release share -----------------------------------------------------------------------------------------

// What a release claim of `stage` may release: at practical completion the share of the retention held to date
// less what was released already; at the end of the defects liability period everything still held.
export function releasable(
  stage: ReleaseStage,
  figures: { retained: string; released: string; share_percent: string },
): string {
  const retained = n(figures.retained);
  const released = n(figures.released);
  if (stage === "final") return money(Dec.max(retained.minus(released), 0));
  const share = dec(money(retained.times(percentOf(figures.share_percent, "The release share")).dividedBy(HUNDRED)));
  return money(Dec.max(share.minus(released), 0));
}

// ---- the machine -----------------------------------------------------------------------------------------------

const OPEN = ["claimed", "certified", "partly_paid", "paid", "overdue"] as const;

// A submitted claim is owed like an invoice (quantities.ts invoicePaymentStatus, in its order): Paid when nothing is
// left, Overdue past its payment due date (s8) while something is — partly paid or not, as the overdue sweep marks
// it — Partly paid, else Claimed or Certified by whether the customer's payment response is recorded.
// `certifying`: the response is being recorded now (the certify action), before its figures are written.
export function claimStatus(doc: DocSnapshot, certifying = false): (typeof OPEN)[number] {
  const total = n(doc.header.total);
  const outstanding = doc.status === "draft" ? total : n(doc.header.outstanding ?? doc.header.total);
  if (!outstanding.greaterThan(0)) return "paid";
  const due = doc.header.due_date == null ? null : String(doc.header.due_date).slice(0, 10);
  if (due && doc.today > due) return "overdue";
  if (outstanding.lessThan(total)) return "partly_paid";
  return doc.header.certified_amount == null && !certifying ? "claimed" : "certified";
}

// Why a claim with these figures cannot be submitted (nothing billed), or null: the submit guard's and, once the
// claim is priced again on submit, the submit effect's.
export const nothingClaimed = (header: DocSnapshot["header"]): string | null =>
  n(header.total).greaterThan(0) || n(header.this_claim_gross).greaterThan(0)
    ? null
    : header.kind === "release"
      ? "Nothing is released by this claim"
      : "Nothing is claimed: raise the work done to date on at least one line";

export const PROGRESSIVE_CLAIM = defineDocumentType({
  type: "progressive_claim",
  title: "Progressive claim",
  plural: "Progressive claims",
  feature: "projects",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    claimed: { label: "Claimed", color: "yellow" },
    certified: { label: "Certified", color: "blue" },
    partly_paid: { label: "Partly paid", color: "cyan" },
    paid: { label: "Paid", color: "green" },
    overdue: { label: "Overdue", color: "red" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      label: "Claim",
      past: "claimed",
      does: "submit this progressive claim",
      from: ["draft"],
      to: "claimed",
      permission: "progressive_claim.submit",
      guard: (doc: DocSnapshot) => needsLines("progressive claim", "submitting")(doc) ?? nothingClaimed(doc.header),
    },
    // The customer's payment response (s11): recorded with its certified amount by claim_response.
    {
      action: "certify",
      label: "Record payment response",
      past: "certified",
      from: ["claimed", "overdue", "partly_paid"],
      to: "certified",
      permission: "progressive_claim.certify",
      byConvert: "Record the payment response with its certified amount (claim_response)",
      guard: (doc: DocSnapshot) =>
        doc.header.certified_amount == null ? null : "The payment response to this claim is already recorded",
    },
    {
      action: "cancel",
      from: ["draft", "claimed", "certified", "overdue"],
      to: "cancelled",
      permission: "progressive_claim.cancel",
      guard: (doc: DocSnapshot) =>
        doc.status !== "draft" && n(doc.header.outstanding ?? doc.header.total).lessThan(n(doc.header.total))
          ? "A payment is allocated to this claim; it cannot be cancelled"
          : null,
    },
  ],
  settle: (doc: DocSnapshot, to) =>
    (OPEN as readonly string[]).includes(to) ? claimStatus(doc, to === "certified") : to,
});

// A claim is made from a submitted sales order (the contract) that is not cancelled or on hold: document_convert
// {type: "sales_order", id, to: "progressive_claim", header?: {kind: "release", release_stage}}.
export const PROGRESSIVE_CLAIM_MADE_FROM = [
  { from: "sales_order", sourceStatuses: ["to_deliver_and_bill", "to_deliver", "to_bill", "completed", "closed"] },
] as const;
