import { decide } from "@workmetrics/domain";
import { COMMISSION_STATEMENT_ACCESS, ruleFor } from "@workmetrics/domain/commission";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import type { ReportDrill, ReportResult } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { defineReport } from "../reports/registry.ts";
import { computeStatement, loadRules, loadSellers, ruleLabel, type Seller, type StatementLine } from "./statement.ts";

// DESIGN §2.3.1 `report {name: "commission_statement", from, to, salesperson?}`: without a salesperson, one row per
// salesperson a rule applies to (drilling into their statement); with one, their statement's documents, each
// opening its document. A period already approved answers its frozen figures and lines. A salesperson reads only
// their own (COMMISSION_STATEMENT_ACCESS scope "own").

export type FrozenStatement = {
  id: number;
  salesperson_id: string;
  salesperson: string;
  period_from: string;
  period_to: string;
  status: "approved" | "paid";
  basis: string;
  base: string;
  target: string | null;
  achievement_percent: string | null;
  rate_percent: string;
  commission: string;
  lines: StatementLine[];
  journal_entry_id: number | null;
  payment_entry_id: number | null;
  paid_date: string | null;
  paid_account: string | null;
  approved_at: string;
};

export async function frozenStatements(
  tx: Tx,
  ws: string,
  where: { id?: number; salesperson?: string; from?: string; to?: string; exact?: boolean },
): Promise<FrozenStatement[]> {
  const res = await tx.execute(sql`select s.id, s.salesperson_id, u.name as salesperson,
      s.period_from::text as period_from, s.period_to::text as period_to, s.status, s.basis, s.base::text as base,
      s.target::text as target, s.achievement_percent::text as achievement_percent,
      s.rate_percent::text as rate_percent, s.commission::text as commission, s.lines, s.journal_entry_id,
      s.payment_entry_id, s.paid_date::text as paid_date, s.paid_account, s.approved_at::text as approved_at
    from commission_statement s
    join "user" u on u.workspace_id = s.workspace_id and u.id = s.salesperson_id
    where s.workspace_id = ${ws}::uuid
      and (${where.id ?? null}::bigint is null or s.id = ${where.id ?? null})
      and (${where.salesperson ?? null}::uuid is null or s.salesperson_id = ${where.salesperson ?? null}::uuid)
      and (${where.from ?? null}::date is null or ${where.exact ? sql`s.period_from = ${where.from ?? null}::date` : sql`s.period_to >= ${where.from ?? null}::date`})
      and (${where.to ?? null}::date is null or ${where.exact ? sql`s.period_to = ${where.to ?? null}::date` : sql`s.period_from <= ${where.to ?? null}::date`})
    order by s.period_from desc, u.name, s.id`);
  return (res.rows as Array<Record<string, unknown>>).map((r) => ({
    ...(r as FrozenStatement),
    id: Number(r.id),
    journal_entry_id: r.journal_entry_id == null ? null : Number(r.journal_entry_id),
    payment_entry_id: r.payment_entry_id == null ? null : Number(r.payment_entry_id),
  }));
}

// Whose statements the caller reads: everyone's, or only their own.
export function readScope(caller: Caller, salesperson: string | undefined): string | undefined {
  const d = decide(memberOf(caller), COMMISSION_STATEMENT_ACCESS);
  if (!d.allowed || d.scope === "all") return salesperson;
  if (salesperson && salesperson !== caller.userId) {
    throw new RestError(403, "42501", "You may read only your own commission statements");
  }
  return caller.userId as string;
}

const params = z
  .object({ from: z.iso.date(), to: z.iso.date(), salesperson: z.uuid("Choose a salesperson").optional() })
  .refine((p) => p.from <= p.to, { message: "The report's from date is after its to date", path: ["from"] });

const DOC_LABEL: Record<StatementLine["doc_type"], string> = {
  invoice: "Invoice",
  credit_note: "Credit note",
  receipt: "Receipt",
};

export const commissionStatementReport = defineReport({
  name: "commission_statement",
  params,
  need: COMMISSION_STATEMENT_ACCESS,
  async run(tx, p, caller) {
    const who = readScope(caller, p.salesperson);
    return who ? detail(tx, caller.workspaceId, who, p.from, p.to) : summary(tx, caller.workspaceId, p.from, p.to);
  },
});

async function summary(tx: Tx, ws: string, from: string, to: string): Promise<ReportResult> {
  const [rules, sellers, frozen] = await Promise.all([
    loadRules(tx, ws),
    loadSellers(tx, ws),
    frozenStatements(tx, ws, { from, to, exact: true }),
  ]);
  const rows: ReportResult["rows"] = [];
  const drill: ReportDrill[] = [];
  for (const seller of sellers) {
    const f = frozen.find((s) => s.salesperson_id === seller.id);
    const live = f ? null : await computeStatement(tx, ws, rules, seller, from, to);
    if (!f && !live) continue;
    const rule = ruleFor(rules, { user_id: seller.id, role_id: seller.role_id });
    rows.push({
      salesperson_id: seller.id,
      salesperson: seller.name,
      rule: rule ? ruleLabel(rule) : "—",
      basis: f?.basis ?? live?.basis ?? null,
      base: f?.base ?? live?.base ?? "0.00",
      achievement_percent: f?.achievement_percent ?? live?.achievement_percent ?? null,
      rate_percent: f?.rate_percent ?? live?.rate_percent ?? null,
      commission: f?.commission ?? live?.commission ?? "0.00",
      status: f?.status ?? "open",
      statement_id: f?.id ?? null,
    });
    drill.push({ report: "commission_statement", params: { from, to, salesperson: seller.id } });
  }
  const total = (k: string) => money(rows.reduce((a, r) => a.plus(dec(String(r[k] ?? "0"))), dec("0")));
  return {
    columns: [
      { key: "salesperson", label: "Salesperson", kind: "text" },
      { key: "rule", label: "Rule", kind: "text" },
      { key: "basis", label: "Basis", kind: "text" },
      { key: "base", label: "Commissionable", kind: "money" },
      { key: "achievement_percent", label: "Of target %", kind: "text" },
      { key: "rate_percent", label: "Rate %", kind: "text" },
      { key: "commission", label: "Commission", kind: "money" },
      { key: "status", label: "Status", kind: "text" },
    ],
    rows,
    totals: { base: total("base"), commission: total("commission") },
    key: "salesperson_id",
    drill,
  };
}

const LINE_COLUMNS: ReportResult["columns"] = [
  { key: "doc_date", label: "Date", kind: "date" },
  { key: "document", label: "Document", kind: "text" },
  { key: "number", label: "Number", kind: "text" },
  { key: "customer", label: "Customer", kind: "text" },
  { key: "reference", label: "For invoice", kind: "text" },
  { key: "net", label: "Net", kind: "money" },
  { key: "excluded", label: "Excluded", kind: "money" },
  { key: "base", label: "Commissionable", kind: "money" },
];

async function detail(tx: Tx, ws: string, who: string, from: string, to: string): Promise<ReportResult> {
  const [seller] = await loadSellers(tx, ws, who);
  if (!seller)
    throw new RestError(422, "validation_failed", "Choose a salesperson of this workspace", [
      { field: "salesperson", message: "Choose a salesperson of this workspace" },
    ]);
  const rules = await loadRules(tx, ws);
  const [f] = await frozenStatements(tx, ws, { salesperson: who, from, to, exact: true });
  const live = f ? null : await computeStatement(tx, ws, rules, seller, from, to);
  const rule = ruleFor(rules, { user_id: seller.id, role_id: seller.role_id });
  const lines = f?.lines ?? live?.lines ?? [];
  const figures = f ?? live;
  return {
    columns: LINE_COLUMNS,
    rows: lines.map((l) => ({ ...l, document: DOC_LABEL[l.doc_type] })),
    drill: lines.map((l) =>
      l.doc_type === "receipt" && l.invoice_id
        ? { document: { type: "invoice", id: l.invoice_id, number: l.reference } }
        : { document: { type: l.doc_type, id: l.doc_id, number: l.number } },
    ),
    key: "number",
    totals: totalsOf(seller, figures, f, rule ? { label: ruleLabel(rule), period: rule.period } : null),
  };
}

function totalsOf(
  seller: Seller,
  figures: {
    base: string;
    target: string | null;
    achievement_percent: string | null;
    rate_percent: string;
    commission: string;
    basis: string;
  } | null,
  frozen: FrozenStatement | undefined,
  rule: { label: string; period: string } | null,
): ReportResult["totals"] {
  return {
    salesperson_id: seller.id,
    salesperson: seller.name,
    rule: rule?.label ?? "",
    period: rule?.period ?? "",
    basis: figures?.basis ?? "",
    base: figures?.base ?? "0.00",
    target: figures?.target ?? "",
    achievement_percent: figures?.achievement_percent ?? "",
    rate_percent: figures?.rate_percent ?? "",
    commission: figures?.commission ?? "0.00",
    // open: computed now; approved / paid: frozen; no_rule: no rule applies to this salesperson
    status: frozen?.status ?? (figures ? "open" : "no_rule"),
    statement_id: frozen?.id ?? 0,
  };
}
