import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { sameWorkspace } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";

// Tables for progressive claims and retention (issue 12, DESIGN §2.3.1 "Progressive claims"). Written only through
// the document commands; /rest/v1 reads them, lines embedded as select=*,lines:progressive_claim_line(*). Every figure
// below the terms is the server's (documents/types/progressive-claim.ts claimFigures), never a client's.

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const percent = (name: string) => numeric(name, { precision: 9, scale: 4 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });

export const progressiveClaim = pgTable(
  "progressive_claim",
  {
    ...documentHeaderColumns,
    kind: text("kind", { enum: ["progress", "release"] })
      .notNull()
      .default("progress"),
    releaseStage: text("release_stage", { enum: ["practical_completion", "final"] }),
    // The contract's terms, carried from one claim to the next.
    retentionPercent: numeric("retention_percent", { precision: 5, scale: 2 }).notNull().default(sql`5`),
    retentionCapPercent: numeric("retention_cap_percent", { precision: 5, scale: 2 }).notNull().default(sql`5`),
    responseDays: integer("response_days"), // null: the contract is silent (SOP Act s11: 14 days)
    paymentDays: integer("payment_days"), // null: the contract is silent (s8: 14 days after the response is due)
    // The cumulative figures.
    contractSum: money("contract_sum"),
    grossToDate: money("gross_to_date"),
    previousGross: money("previous_gross"),
    thisClaimGross: money("this_claim_gross"),
    retentionCap: money("retention_cap"),
    retentionToDate: money("retention_to_date"),
    previousRetention: money("previous_retention"),
    retentionThisClaim: money("retention_this_claim"),
    previousClaimId: bigint("previous_claim_id", { mode: "number" }),
    // SOP Act dates, fixed on submit; due_date is when payment is due (s8).
    responseDue: date("response_due"),
    dueDate: date("due_date"),
    outstanding: money("outstanding"),
    // The customer's payment response (s11).
    certifiedAmount: numeric("certified_amount", { precision: 14, scale: 2 }),
    withheldAmount: numeric("withheld_amount", { precision: 14, scale: 2 }),
    withheldReasons: text("withheld_reasons"),
    responseDate: date("response_date"),
  },
  (t) => [
    ...documentHeaderKeys("progressive_claim", t),
    index("progressive_claim_due_idx").on(t.workspaceId, t.status, t.dueDate),
    sameWorkspace("progressive_claim_previous_fk", [t.workspaceId, t.previousClaimId], t),
    check("progressive_claim_release_stage", sql`(${t.kind} = 'release') = (${t.releaseStage} is not null)`),
    check(
      "progressive_claim_terms",
      sql`${t.retentionPercent} between 0 and 100 and ${t.retentionCapPercent} between 0 and 100`,
    ),
  ],
).enableRLS();

export const progressiveClaimLine = pgTable(
  "progressive_claim_line",
  {
    ...documentLineColumns,
    contractAmount: money("contract_amount"),
    cumulativePercent: percent("cumulative_percent"),
    prevPercent: percent("prev_percent"),
    prevAmount: money("prev_amount"),
    amountToDate: money("amount_to_date"),
    // Measured work (issue 12 "or quantity"): the contract line's quantity, and the quantity done to date when the
    // line is claimed by quantity (null: by percentage; cumulative_percent is then derived from it).
    contractQty: qty("contract_qty"),
    cumulativeQty: qty("cumulative_qty"),
    prevQty: qty("prev_qty"),
    isVariation: boolean("is_variation").notNull().default(false),
    prevLineId: bigint("prev_line_id", { mode: "number" }), // the previous claim's line this one continues
    progressiveClaimId: bigint("progressive_claim_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("progressive_claim_line", t, { column: t.progressiveClaimId, table: progressiveClaim }),
    check("progressive_claim_line_percent", sql`${t.cumulativePercent} between 0 and 100`),
    check(
      "progressive_claim_line_measured",
      sql`${t.cumulativeQty} is null or (${t.contractQty} > 0 and ${t.cumulativeQty} between 0 and ${t.contractQty})`,
    ),
  ],
).enableRLS();
