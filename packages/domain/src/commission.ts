import { z } from "zod";
import type { Requirement } from "./access.ts";
import { COMMISSION_BASES, COMMISSION_PERIODS } from "./db/commission-schema.ts";
import { Dec, dec, money } from "./documents/decimal.ts";
import { leg, type PostingRule } from "./documents/postings.ts";
import { REPORT_ACCESS } from "./reports.ts";

// Issue 12 "Commission" (Premium; DOCUMENTS.md "Commission": ERPNext invoice-based, OCA invoiced or paid basis with
// refunds reversing, Odoo plans with targets). The pure part: which rule applies, the tier reached, the commission.
//
// Decisions where the issue is silent:
// - A tiered rule applies the rate of the tier reached to the WHOLE period's base (not marginally per band): the
//   salesperson reads one rate on the statement, as Odoo's achievement plans pay. A tier starts at its from_percent
//   inclusive: at exactly 100% of target the "from 100%" tier applies.
// - The target is per period of the rule (a month or a quarter); achievement = base ÷ target × 100, shown cut (not
//   rounded) to 2 decimals, so 79.999% reads 79.99% and earns the tier below 80%.
// - A negative base (more credited than sold in a period) earns the first tier's rate on it: a negative commission
//   that approval books back (Dr 2400 / Cr 6000).

export { COMMISSION_BASES, COMMISSION_PERIODS };
export type CommissionBasis = (typeof COMMISSION_BASES)[number];
export type CommissionPeriod = (typeof COMMISSION_PERIODS)[number];
export type CommissionTier = { from_percent: string; rate_percent: string };

export type CommissionRule = {
  id: number;
  user_id: string | null;
  role_id: number | null;
  basis: CommissionBasis;
  rate_percent: string;
  period: CommissionPeriod;
  target: string | null;
  tiers: CommissionTier[];
  excluded_category_ids: number[];
};

// Who reads statements: finance and managers (commission.read) all of them; a salesperson (commission.read_own,
// permissions.ts) only their own — scope "own" of the one access rule. Approving and paying is commission.approve.
export const COMMISSION_STATEMENT_ACCESS: Requirement = REPORT_ACCESS.commission_statement;
export const COMMISSION_APPROVE_ACCESS: Requirement = {
  audience: "member",
  permission: "commission.approve",
  feature: "commission",
  does: "approve and pay commission",
  subject: "Commission statements",
};
// The rules live in workspace settings: reading them is commission.read, changing them commission.update.
export const COMMISSION_RULES_ACCESS: Requirement = {
  audience: "member",
  permission: "commission.update",
  feature: "commission",
  does: "change commission rules",
  subject: "Commission rules",
};

const NUMBER = /^\d+(\.\d+)?$/;

const percent = (label: string) =>
  z
    .string({ error: `Give the ${label}` })
    .trim()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, `The ${label} must be a number with at most 2 decimals, such as 5 or 2.5`)
    .refine((v) => !NUMBER.test(v) || dec(v).lte(100), `The ${label} must be at most 100%`);

const amount = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, "The target must be an amount such as 50000 or 50000.00")
  .refine((v) => !NUMBER.test(v) || dec(v).gt(0), "The target must be more than 0");

// What the settings page sends and the server validates (one schema for both sides).
export const CommissionRuleInput = z
  .object({
    id: z.number().int().positive().optional(),
    user_id: z.uuid("Choose a salesperson").nullish(),
    role_id: z.number().int().positive().nullish(),
    basis: z.enum(COMMISSION_BASES, { error: "Choose Invoiced or Collected" }),
    rate_percent: percent("rate"),
    period: z.enum(COMMISSION_PERIODS, { error: "Choose Monthly or Quarterly" }),
    target: amount.nullish(),
    tiers: z
      .array(
        z.object({
          from_percent: z
            .string()
            .trim()
            .regex(/^\d{1,4}(\.\d{1,2})?$/, "Give the tier's start in %"),
          rate_percent: percent("tier's rate"),
        }),
      )
      .max(10, "At most 10 tiers")
      .default([]),
    excluded_category_ids: z.array(z.number().int().positive()).max(200).default([]),
  })
  .superRefine((r, ctx) => {
    if ((r.user_id == null) === (r.role_id == null)) {
      ctx.addIssue({ code: "custom", path: ["user_id"], message: "Choose either a salesperson or a role" });
    }
    if (r.tiers.length > 0) {
      if (r.target == null) {
        ctx.addIssue({ code: "custom", path: ["target"], message: "Tiers need a target per period" });
      }
      if (!dec(r.tiers[0].from_percent).isZero()) {
        ctx.addIssue({ code: "custom", path: ["tiers", 0, "from_percent"], message: "The first tier starts at 0%" });
      }
      for (let i = 1; i < r.tiers.length; i++) {
        if (dec(r.tiers[i].from_percent).lte(dec(r.tiers[i - 1].from_percent))) {
          ctx.addIssue({
            code: "custom",
            path: ["tiers", i, "from_percent"],
            message: "Each tier starts above the one before it",
          });
        }
      }
    }
  });
export type CommissionRuleInputValue = z.input<typeof CommissionRuleInput>;

// The most specific rule wins: the user's own, else their role's.
export function ruleFor<R extends Pick<CommissionRule, "user_id" | "role_id">>(
  rules: readonly R[],
  who: { user_id: string; role_id: number },
): R | null {
  return rules.find((r) => r.user_id === who.user_id) ?? rules.find((r) => r.role_id === who.role_id) ?? null;
}

export type CommissionFigures = {
  base: string;
  target: string | null;
  achievement_percent: string | null;
  rate_percent: string;
  commission: string;
};

// The period's commission: the rate (the tier reached, or the rule's rate) × the whole base, to the cent.
export function commissionFor(rule: Pick<CommissionRule, "rate_percent" | "target" | "tiers">, base: string) {
  const b = dec(base);
  const target = rule.target == null ? null : dec(rule.target);
  const achievement = target?.gt(0) ? b.div(target).times(100) : null;
  let rate = dec(rule.rate_percent);
  if (rule.tiers.length > 0 && achievement) {
    rate = dec(rule.tiers[0].rate_percent);
    for (const t of rule.tiers) if (achievement.gte(dec(t.from_percent))) rate = dec(t.rate_percent);
  }
  return {
    base: money(b),
    target: target ? money(target) : null,
    achievement_percent: achievement ? achievement.toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2) : null,
    rate_percent: rate.toFixed(2),
    commission: money(b.times(rate).div(100)),
  } satisfies CommissionFigures;
}

// A collected amount's share of an invoice's commissionable net: collected ÷ invoice total × eligible net.
export function collectedShare(collected: string, invoiceTotal: string, eligibleNet: string): string {
  const total = dec(invoiceTotal);
  if (total.isZero()) return "0.00";
  return money(dec(collected).div(total).times(dec(eligibleNet)));
}

// ---- periods ---------------------------------------------------------------------------------------------------

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

// The month or quarter holding `date` (YYYY-MM-DD).
export function periodOf(period: CommissionPeriod, date: string): { from: string; to: string } {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const first = period === "monthly" ? m : Math.floor((m - 1) / 3) * 3 + 1;
  const last = period === "monthly" ? m : first + 2;
  return { from: iso(y, first, 1), to: iso(y, last, lastDay(y, last)) };
}

export const isWholePeriod = (period: CommissionPeriod, from: string, to: string): boolean => {
  const p = periodOf(period, from);
  return p.from === from && p.to === to;
};

// ---- postings (DOCUMENTS.md §2: 6000 Commission, 2400 Commission Payable) ----------------------------------------

// Approval books the period's commission as owed; a negative statement (credit notes beyond sales) books it back
// (buildJournal turns a negative figure's legs round: Dr 2400 / Cr 6000).
export const COMMISSION_APPROVAL_RULE: PostingRule = {
  name: "commission_statement",
  memo: "Commission",
  legs: [leg("debit", "6000", "expense", "commission"), leg("credit", "2400", "payable", "commission")],
};
// Paying clears what approval owed, from the bank account chosen (1010 unless another is named).
export const COMMISSION_PAYMENT_RULE: PostingRule = {
  name: "commission_payment",
  memo: "Commission paid",
  legs: [leg("debit", "2400", "payable", "commission"), leg("credit", "1010", "bank", "commission")],
};
