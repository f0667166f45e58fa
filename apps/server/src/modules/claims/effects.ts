import { progressiveClaim } from "@workmetrics/domain/db/claims-schema";
import { CLAIM_RULE, type PostingDoc } from "@workmetrics/domain/documents/postings";
import { toBase } from "@workmetrics/domain/documents/totals";
import {
  type ClaimKind,
  nothingClaimed,
  type ReleaseStage,
  sopDates,
} from "@workmetrics/domain/documents/types/progressive-claim";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { type DocumentSpec, documentSpec } from "../../platform/documents/registry.ts";
import { rowOf } from "../../platform/documents/rows.ts";
import { insertLines } from "../../platform/documents/save.ts";
import { deleteLines, lockHeader, type Row, updateRow } from "../../platform/documents/store.ts";
import type { Locked } from "../../platform/documents/transition.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { type Owed, receivableEffects } from "../documents/receivable.effects.ts";
import { laterClaim, releaseClaim } from "./contract.ts";
import { checkReleaseStage, priceClaim, shapeClaim } from "./prepare.ts";

// What a claim does besides its status. Submit, under the contract's lock (claims of one contract are numbered and
// chained one at a time): shapes and prices the claim again over the claims submitted since its draft was saved (a
// percentage below what is now claimed before is refused, naming the line), fixes the SOP Act dates, makes it owed
// like an invoice and posts Dr 1100 Trade debtors (the total) + Dr 1110 Retention receivable (this claim's
// retention) / Cr 4010 Contract revenue (this claim's work) / Cr 2200 GST output; a release claim's negative
// retention moves 1110 to 1100 with its GST. Cancel refuses while a later claim of the contract stands (or, for a
// progress claim, a release of its retention) and posts the reversing entry. The settling, posting and reversing are
// every receivable's (receivable.effects.ts); this file is what a claim adds.

// Shaped and priced again under the contract's lock: the header and lines it is owed and posted from.
const reprice = async (tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked): Promise<Owed> => {
  const ws = caller.workspaceId as string;
  const claim = rowOf(progressiveClaim, doc.header);
  const id = claim.id;
  const contractId = Number(claim.source_id);
  await lockHeader(tx, documentSpec("sales_order"), ws, contractId);
  const kind = claim.kind as ClaimKind;
  if (kind === "release") await checkReleaseStage(tx, ws, doc.header, claim.release_stage as ReleaseStage);
  const shaped = await shapeClaim(tx, ws, { id, contractId, kind, header: doc.header, lines: doc.lines });
  const priced = priceClaim(shaped.header, shaped.lines);
  const nothing = nothingClaimed({ ...priced.header, kind });
  if (nothing) throw conflict(nothing);
  const dates = sopDates(claim.doc_date, doc.header);
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
  return { header: { ...doc.header, ...set }, lines: priced.lines };
};

// Dr 1100 the total + Dr 1110 this claim's retention / Cr 4010 this claim's work / Cr 2200 the tax, in base currency.
const claimFigures = (row: Row): PostingDoc => {
  const h = rowOf(progressiveClaim, row);
  return {
    total: h.base_total ?? "0",
    retention_this_claim: toBase(h.retention_this_claim ?? "0", h.rate),
    this_claim_gross: toBase(h.this_claim_gross ?? "0", h.rate),
    tax_total: toBase(h.tax_total ?? "0", h.rate),
  };
};

// Refused while a later claim of the contract stands or, for a progress claim, a release of its retention.
const refuseCancel = async (tx: Tx, caller: Caller, _spec: DocumentSpec, doc: Locked): Promise<void> => {
  const ws = caller.workspaceId as string;
  const claim = rowOf(progressiveClaim, doc.header);
  const later = await laterClaim(tx, ws, claim.id);
  if (later) throw conflict(`${later} was claimed after this claim: cancel it first`, { reason: "later_claim" });
  if (claim.kind === "progress") {
    const release = await releaseClaim(tx, ws, Number(claim.source_id));
    if (release) {
      throw conflict(`${release} releases the retention this contract held: cancel it first`, { reason: "released" });
    }
  }
};

export const PROGRESSIVE_CLAIM_EFFECTS = receivableEffects({
  rule: CLAIM_RULE,
  figures: claimFigures,
  prepare: reprice,
  refuseCancel,
});
