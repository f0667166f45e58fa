import { progressiveClaim, progressiveClaimLine } from "../db/claims-schema.ts";
import {
  CLAIM_KINDS,
  PROGRESSIVE_CLAIM,
  RELEASE_STAGES,
  SOP_PAYMENT_DAYS_MAX,
  SOP_PAYMENT_DAYS_SILENT,
  SOP_RESPONSE_DAYS_MAX,
  SOP_RESPONSE_DAYS_SILENT,
} from "../documents/types/progressive-claim.ts";
import { CATALOG } from "./catalog.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { f } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 12: progressive claims, read through /rest/v1 (written by the document commands, made from a contract with
// document_convert), page at /dashboard/progressive-claims. The terms are the clerk's; every figure is the server's.

const ro = { readOnly: true };

// The contract's days for one of the SOP Act's dates, its help saying the Act's days and cap as sopDates uses them.
const sopDays = (name: string, label: string, silent: number, max: number) =>
  f.integer(name, label, {
    min: 0,
    help: `Empty when the contract is silent: the SOP Act gives ${silent} days; never more than ${max}`,
  });

export const [progressiveClaimResource, progressiveClaimLineResource] = documentResources(
  "progressive_claim",
  {
    entry: CATALOG.progressive_claim,
    table: progressiveClaim,
    fields: documentHeaderFields(PROGRESSIVE_CLAIM.statusNames, [
      f.enum("kind", "Kind", CLAIM_KINDS, { list: true, width: 100, form: false }),
      f.enum("release_stage", "Release", RELEASE_STAGES, { form: false }),
      f.percent("retention_percent", "Retention %", { min: 0, max: 100 }),
      f.percent("retention_cap_percent", "Retention cap % of contract", { min: 0, max: 100 }),
      sopDays("response_days", "Response days (contract)", SOP_RESPONSE_DAYS_SILENT, SOP_RESPONSE_DAYS_MAX),
      sopDays(
        "payment_days",
        "Payment days after the response (contract)",
        SOP_PAYMENT_DAYS_SILENT,
        SOP_PAYMENT_DAYS_MAX,
      ),
      f.money("contract_sum", "Contract sum", { ...ro, list: true, width: 130 }),
      f.money("gross_to_date", "Work done to date", ro),
      f.money("previous_gross", "Less previous claims", ro),
      f.money("this_claim_gross", "This claim (gross)", { ...ro, list: true, width: 130 }),
      f.money("retention_cap", "Retention cap", ro),
      f.money("retention_to_date", "Retention to date", ro),
      f.money("previous_retention", "Retention previously held", ro),
      f.money("retention_this_claim", "Retention this claim", { ...ro, list: true, width: 130 }),
      f.ref("previous_claim_id", "Previous claim", "progressive_claim", "number", ro),
      f.date("response_due", "Response due", { ...ro, list: true, width: 120 }),
      f.date("due_date", "Payment due", { ...ro, list: true, width: 120 }),
      f.money("outstanding", "Outstanding", { ...ro, list: true, width: 120 }),
      f.money("certified_amount", "Certified amount", ro),
      f.money("withheld_amount", "Amount withheld", ro),
      f.textarea("withheld_reasons", "Reasons for withholding", ro),
      f.date("response_date", "Response date", ro),
    ]),
  },
  {
    entry: CATALOG.progressive_claim_line,
    table: progressiveClaimLine,
    fields: documentLineFields("progressive_claim", [
      f.money("contract_amount", "Contract amount", { min: 0 }),
      f.percent("cumulative_percent", "Done to date %", { min: 0, max: 100 }),
      f.number("contract_qty", "Contract quantity", {
        min: 0,
        help: "A contract line's is the contract's; a variation's is agreed once",
      }),
      f.number("cumulative_qty", "Done to date (quantity)", {
        min: 0,
        help: "Given: the work done to date is measured, and the percentage follows from it",
      }),
      f.number("prev_qty", "Previous quantity", ro),
      f.boolean("is_variation", "Variation"),
      f.integer("prev_line_id", "Continues line"),
      f.percent("prev_percent", "Previous %", ro),
      f.money("prev_amount", "Previous amount", ro),
      f.money("amount_to_date", "Amount to date", ro),
    ]),
  },
);

export const CLAIMS_RESOURCES: readonly ResourceDef[] = [progressiveClaimResource, progressiveClaimLineResource];
