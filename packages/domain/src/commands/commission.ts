import { z } from "zod";
import { COMMISSION_BASES, COMMISSION_PERIODS, CommissionRuleInput } from "../commission.ts";
import { decimal, defineCommand, id } from "./define.ts";
import { dayArg } from "./inputs.ts";

// Issue 12 "Commission" (modules/commission on the server): the rules (workspace settings), approving a
// salesperson's period (frozen, posted) and paying it.

export const commissionRule = z.object({
  id: z.number(),
  user_id: z.string().nullable(),
  role_id: z.number().nullable(),
  basis: z.enum(COMMISSION_BASES),
  rate_percent: decimal,
  period: z.enum(COMMISSION_PERIODS),
  target: decimal.nullable(),
  tiers: z.array(z.object({ from_percent: decimal, rate_percent: decimal })),
  excluded_category_ids: z.array(z.number()),
});

const statementLine = z.object({
  doc_type: z.enum(["invoice", "credit_note", "receipt"]),
  doc_id: z.number(),
  number: z.string().nullable(),
  doc_date: z.string(),
  customer: z.string(),
  reference: z.string().nullable(),
  invoice_id: z.number().nullable(),
  net: decimal,
  excluded: decimal,
  base: decimal,
});

// An approved or paid statement as listed (its lines are the commission_statement report's).
export const commissionStatement = z.object({
  id: z.number(),
  salesperson_id: z.string(),
  salesperson: z.string(),
  period_from: z.string(),
  period_to: z.string(),
  status: z.enum(["approved", "paid"]),
  basis: z.string(),
  base: decimal,
  target: decimal.nullable(),
  achievement_percent: decimal.nullable(),
  rate_percent: decimal,
  commission: decimal,
  journal_entry_id: z.number().nullable(),
  payment_entry_id: z.number().nullable(),
  paid_date: z.string().nullable(),
  paid_account: z.string().nullable(),
  approved_at: z.string(),
});
const frozenStatement = commissionStatement.extend({ lines: z.array(statementLine) });

export const commissionRules = defineCommand({
  name: "commission_rules",
  args: z.object({}).optional(),
  result: z.array(
    commissionRule.extend({ label: z.string(), user_name: z.string().nullable(), role_title: z.string().nullable() }),
  ),
  permission: "commission.read",
  does: "read commission rules",
  feature: "commission",
});

export const commissionRuleSave = defineCommand({
  name: "commission_rule_save",
  args: CommissionRuleInput,
  result: commissionRule,
  permission: "commission.update",
  does: "change commission rules",
  feature: "commission",
});

export const commissionRuleDelete = defineCommand({
  name: "commission_rule_delete",
  args: z.object({ id }),
  result: z.object({ id: z.number(), deleted: z.boolean() }),
  permission: "commission.update",
  does: "change commission rules",
  feature: "commission",
});

// The approved and paid statements (newest first); a salesperson sees their own.
export const commissionStatements = defineCommand({
  name: "commission_statements",
  args: z.object({ salesperson: z.uuid().optional() }).optional(),
  result: z.array(commissionStatement),
  permission: null, // COMMISSION_STATEMENT_ACCESS, with its "own" scope, inside
  feature: "commission",
});

const period = { from: dayArg("The period's first day"), to: dayArg("The period's last day") };

export const commissionApprove = defineCommand({
  name: "commission_approve",
  args: z.object({ salesperson: z.uuid("Choose a salesperson"), ...period }),
  result: frozenStatement,
  permission: "commission.approve",
  does: "approve commission",
  feature: "commission",
});

export const commissionPay = defineCommand({
  name: "commission_pay",
  args: z.object({
    statement_id: id,
    date: dayArg("The date paid"),
    account: z
      .string()
      .trim()
      .regex(/^\d{3,6}$/, "Choose the bank account it was paid from")
      .default("1010"),
  }),
  result: frozenStatement,
  permission: "commission.approve",
  does: "pay commission",
  feature: "commission",
});

export const COMMISSION_COMMANDS = [
  commissionRules,
  commissionRuleSave,
  commissionRuleDelete,
  commissionStatements,
  commissionApprove,
  commissionPay,
] as const;
