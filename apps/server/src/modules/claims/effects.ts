import { CLAIM_RULE } from "@workmetrics/domain/documents/postings";
import { toBase } from "@workmetrics/domain/documents/totals";
import {
  type ClaimKind,
  nothingClaimed,
  type ReleaseStage,
  sopDates,
} from "@workmetrics/domain/documents/types/progressive-claim";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect } from "../../platform/documents/registry.ts";
import { insertLines } from "../../platform/documents/save.ts";
import { deleteLines, lockHeader, type Row, today, updateRow } from "../../platform/documents/store.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { laterClaim, releaseClaim } from "./contract.ts";
import { checkReleaseStage, priceClaim, shapeClaim } from "./prepare.ts";

// What a claim does besides its status. Submit, under the contract's lock (claims of one contract are numbered and
// chained one at a time): shapes and prices the claim again over the claims submitted since its draft was saved (a
// percentage below what is now claimed before is refused, naming the line), fixes the SOP Act dates, makes it owed
// like an invoice and posts Dr 1100 Trade debtors (the total) + Dr 1110 Retention receivable (this claim's
// retention) / Cr 4010 Contract revenue (this claim's work) / Cr 2200 GST output; a release claim's negative
// retention moves 1110 to 1100 with its GST. Cancel refuses while a later claim of the contract stands (or, for a
// progress claim, a release of its retention) and posts the reversing entry.

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const id = Number(doc.header.id);
  const contractId = Number(doc.header.source_id);
  await lockHeader(tx, documentSpec("sales_order"), ws, contractId);
  const kind = String(doc.header.kind) as ClaimKind;
  if (kind === "release") await checkReleaseStage(tx, ws, doc.header, doc.header.release_stage as ReleaseStage);
  const shaped = await shapeClaim(tx, ws, { id, contractId, kind, header: doc.header, lines: doc.lines });
  const priced = priceClaim(shaped.header, shaped.lines);
  const nothing = nothingClaimed({ ...priced.header, kind });
  if (nothing) throw conflict(nothing);
  const dates = sopDates(String(doc.header.doc_date), doc.header);
  const figures: Row = Object.fromEntries(
    [
      "previous_claim_id",
      "retention_percent",
      "retention_cap_percent",
      "response_days",
      "payment_days",
      "contract_sum",
      "gross_to_date",
      "previous_gross",
      "this_claim_gross",
      "retention_cap",
      "retention_to_date",
      "previous_retention",
      "retention_this_claim",
      "subtotal",
      "net_total",
      "tax_total",
      "total",
      "base_total",
    ].map((k) => [k, priced.header[k] ?? null]),
  );
  const set: Row = { ...figures, response_due: dates.response_due, due_date: dates.payment_due };
  await updateRow(tx, spec.header, ws, id, set);
  // The lines as priced now (their previous percentages may have moved since the draft was saved).
  await deleteLines(tx, spec, ws, id);
  await insertLines(tx, spec, ws, id, priced.lines, ["prev_percent", "prev_amount", "prev_qty", "amount_to_date"]);
  const header = { ...doc.header, ...set };
  await settleReceivable(tx, caller, spec, id, undefined, { header, lines: priced.lines });
  const rate = String(doc.header.rate ?? "1");
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id, number: step.number, date: String(doc.header.doc_date) },
    CLAIM_RULE,
    {
      total: String(priced.header.base_total),
      retention_this_claim: toBase(String(priced.header.retention_this_claim), rate),
      this_claim_gross: toBase(String(priced.header.this_claim_gross), rate),
      tax_total: toBase(String(priced.header.tax_total), rate),
    },
  );
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const ws = caller.workspaceId as string;
  const id = Number(doc.header.id);
  const later = await laterClaim(tx, ws, id);
  if (later) throw conflict(`${later} was claimed after this claim: cancel it first`, { reason: "later_claim" });
  if (doc.header.kind === "progress") {
    const release = await releaseClaim(tx, ws, Number(doc.header.source_id));
    if (release) {
      throw conflict(`${release} releases the retention this contract held: cancel it first`, { reason: "released" });
    }
  }
  await reverseJournals(tx, caller, {
    type: spec.machine.type,
    id,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const PROGRESSIVE_CLAIM_EFFECTS = { submit, cancel };
