import { SYSTEM_ROLES } from "@workmetrics/domain";
import {
  type CommissionFigures,
  type CommissionRule,
  collectedShare,
  commissionFor,
  ruleFor,
} from "@workmetrics/domain/commission";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { salespersonOf } from "../reports/analytics/salesperson.ts";

// Issue 12 "Commission": a salesperson's statement for a period, computed from the documents.
// Who sold an invoice: salespersonOf, the one rule sales by salesperson and the team challenge follow too (the
// salesperson of the quotation or sales order it bills, not the accounts clerk who raised it). A credit note belongs
// to the salesperson of the invoice it credits and counts in the period it is issued (an approved period is never
// reopened: the next statement carries it as a negative line). Credit notes that credit no invoice earn and take
// back nothing.
// Basis "invoiced": submitted invoices dated in the period, net of GST and of the document discount, in base
// currency. Basis "collected": each receipt dated in the period counts the share of its invoice's commissionable net
// that it paid (allocation ÷ invoice total); money never collected earns nothing, so credit notes — which lower
// what is left to collect — are not subtracted again. Lines of excluded categories (and their sub-categories) earn
// nothing on either basis.

export type StatementLine = {
  doc_type: "invoice" | "credit_note" | "receipt";
  doc_id: number;
  number: string | null;
  doc_date: string;
  customer: string;
  reference: string | null; // the invoice a credit note or receipt is for
  invoice_id: number | null; // …and its id (a receipt has no page of its own: it opens its invoice)
  net: string; // net of GST, base currency (a receipt: the part of its invoice's net it paid)
  excluded: string; // of which in excluded categories
  base: string; // net − excluded: what commission is earned on
};

export type Seller = { id: string; name: string; email: string; role_id: number };

export type Statement = CommissionFigures & {
  salesperson: Seller;
  rule: CommissionRule;
  rule_label: string;
  basis: CommissionRule["basis"];
  from: string;
  to: string;
  lines: StatementLine[];
};

export async function loadRules(tx: Tx, ws: string): Promise<CommissionRule[]> {
  const res = await tx.execute(sql`select r.id, r.user_id, r.role_id, r.basis, r.rate_percent::text as rate_percent,
      r.period, r.target::text as target, r.tiers,
      coalesce((select json_agg(x.category_id order by x.category_id) from commission_rule_category x
        where x.workspace_id = r.workspace_id and x.rule_id = r.id), '[]'::json) as excluded_category_ids
    from commission_rule r where r.workspace_id = ${ws}::uuid order by r.user_id nulls last, r.role_id, r.id`);
  return (res.rows as Array<Record<string, unknown>>).map((r) => ({
    id: Number(r.id),
    user_id: (r.user_id as string | null) ?? null,
    role_id: r.role_id == null ? null : Number(r.role_id),
    basis: r.basis as CommissionRule["basis"],
    rate_percent: String(r.rate_percent),
    period: r.period as CommissionRule["period"],
    target: (r.target as string | null) ?? null,
    tiers: (r.tiers as CommissionRule["tiers"]) ?? [],
    excluded_category_ids: ((r.excluded_category_ids as Array<number | string>) ?? []).map(Number),
  }));
}

export async function loadSellers(tx: Tx, ws: string, only?: string): Promise<Seller[]> {
  const res = await tx.execute(sql`select u.id, u.name, u.email, u.role_id from "user" u
    where u.workspace_id = ${ws}::uuid and (${only ?? null}::uuid is null or u.id = ${only ?? null}::uuid)
    order by u.name, u.id`);
  return (res.rows as Array<Record<string, unknown>>).map((r) => ({
    id: String(r.id),
    name: String(r.name),
    email: String(r.email),
    role_id: Number(r.role_id),
  }));
}

export const ruleLabel = (rule: CommissionRule): string =>
  rule.user_id ? "Own rule" : `Role: ${SYSTEM_ROLES.find((r) => r.id === rule.role_id)?.title ?? rule.role_id}`;

// The salesperson of each submitted invoice (see above), and the categories the rule leaves out.
function attributed(ws: string, ruleId: number): SQL {
  return sql`excluded(id) as (
      select category_id from commission_rule_category where workspace_id = ${ws}::uuid and rule_id = ${ruleId}
      union select c.id from category c join excluded x on c.parent_id = x.id where c.workspace_id = ${ws}::uuid
    ),
    inv as (
      select i.id, i.number, i.doc_date, i.company_id, i.rate, i.total, ${salespersonOf("invoice", "i")} as seller
      from invoice i
      where i.workspace_id = ${ws}::uuid and i.status not in ('draft', 'cancelled')
    )`;
}

// A document's lines summed: its net and the part in excluded categories, in base currency.
const netOf = (line: string, rate: string) =>
  sql.raw(`round(sum(${line}.net_amount) * ${rate}, 2)::numeric(14,2)::text as net,
    round(coalesce(sum(${line}.net_amount) filter (where p.category_id in (select id from excluded)), 0) * ${rate},
      2)::numeric(14,2)::text as excluded`);

type Raw = Record<string, string | number | null>;

async function invoicedLines(tx: Tx, ws: string, rule: CommissionRule, seller: string, from: string, to: string) {
  const res = await tx.execute(sql`with recursive ${attributed(ws, rule.id)}
    select * from (
      select 'invoice' as doc_type, inv.id as doc_id, inv.number, inv.doc_date::text as doc_date, co.name as customer,
        null::text as reference, null::bigint as invoice_id, ${netOf("l", "inv.rate")}
      from inv
      join invoice_line l on l.workspace_id = ${ws}::uuid and l.invoice_id = inv.id
      left join product p on p.workspace_id = l.workspace_id and p.id = l.product_id
      join company co on co.workspace_id = ${ws}::uuid and co.id = inv.company_id
      where inv.seller = ${seller}::uuid and inv.doc_date between ${from}::date and ${to}::date
      group by inv.id, inv.number, inv.doc_date, co.name, inv.rate
      union all
      select 'credit_note', c.id, c.number, c.doc_date::text, co.name, inv.number, inv.id, ${netOf("l", "c.rate")}
      from credit_note c
      join inv on inv.id = c.invoice_id
      join credit_note_line l on l.workspace_id = c.workspace_id and l.credit_note_id = c.id
      left join product p on p.workspace_id = l.workspace_id and p.id = l.product_id
      join company co on co.workspace_id = c.workspace_id and co.id = c.company_id
      where c.workspace_id = ${ws}::uuid and c.status = 'issued' and inv.seller = ${seller}::uuid
        and c.doc_date between ${from}::date and ${to}::date
      group by c.id, c.number, c.doc_date, co.name, inv.id, inv.number, c.rate
    ) d order by d.doc_date, d.doc_type desc, d.doc_id`);
  return (res.rows as Raw[]).map((r): StatementLine => {
    const sign = r.doc_type === "credit_note" ? -1 : 1;
    const net = dec(String(r.net)).times(sign);
    const excluded = dec(String(r.excluded)).times(sign);
    return line(r, money(net), money(excluded));
  });
}

async function collectedLines(tx: Tx, ws: string, rule: CommissionRule, seller: string, from: string, to: string) {
  const res = await tx.execute(sql`with recursive ${attributed(ws, rule.id)},
    eligible as (
      select inv.id as invoice_id, ${netOf("l", "inv.rate")}
      from inv
      join invoice_line l on l.workspace_id = ${ws}::uuid and l.invoice_id = inv.id
      left join product p on p.workspace_id = l.workspace_id and p.id = l.product_id
      where inv.seller = ${seller}::uuid
      group by inv.id, inv.rate
    )
    select 'receipt' as doc_type, r.id as doc_id, r.number, r.doc_date::text as doc_date, co.name as customer,
      inv.number as reference, inv.id as invoice_id, a.amount::text as collected, inv.total::text as invoice_total, e.net, e.excluded
    from payment_allocation a
    join receipt r on r.workspace_id = a.workspace_id and r.id = a.payment_id
    join inv on inv.id = a.document_id
    join eligible e on e.invoice_id = inv.id
    join company co on co.workspace_id = r.workspace_id and co.id = r.company_id
    where a.workspace_id = ${ws}::uuid and a.payment_type = 'receipt' and a.document_type = 'invoice'
      and r.status <> 'cancelled' and r.doc_date between ${from}::date and ${to}::date
    order by r.doc_date, r.id, inv.id`);
  return (res.rows as Raw[]).map((r): StatementLine => {
    const collected = String(r.collected);
    const total = String(r.invoice_total);
    return line(
      r,
      collectedShare(collected, total, String(r.net)),
      collectedShare(collected, total, String(r.excluded)),
    );
  });
}

const line = (r: Raw, net: string, excluded: string): StatementLine => ({
  doc_type: r.doc_type as StatementLine["doc_type"],
  doc_id: Number(r.doc_id),
  number: (r.number as string | null) ?? null,
  doc_date: String(r.doc_date),
  customer: String(r.customer),
  reference: (r.reference as string | null) ?? null,
  invoice_id: r.invoice_id == null ? null : Number(r.invoice_id),
  net,
  excluded,
  base: money(dec(net).minus(dec(excluded))),
});

// The statement as the documents stand now (not frozen): null when no rule applies to the salesperson.
export async function computeStatement(
  tx: Tx,
  ws: string,
  rules: readonly CommissionRule[],
  seller: Seller,
  from: string,
  to: string,
): Promise<Statement | null> {
  const rule = ruleFor(rules, { user_id: seller.id, role_id: seller.role_id });
  if (!rule) return null;
  const lines =
    rule.basis === "collected"
      ? await collectedLines(tx, ws, rule, seller.id, from, to)
      : await invoicedLines(tx, ws, rule, seller.id, from, to);
  const base = money(lines.reduce((acc, l) => acc.plus(dec(l.base)), dec("0")));
  return {
    ...commissionFor(rule, base),
    salesperson: seller,
    rule,
    rule_label: ruleLabel(rule),
    basis: rule.basis,
    from,
    to,
    lines,
  };
}
