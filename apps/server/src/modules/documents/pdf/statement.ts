import { decideResource } from "@workmetrics/domain";
import { Dec, dec } from "@workmetrics/domain/documents/decimal";
import { receiptResource } from "@workmetrics/domain/resources/payments";
import type Decimal from "decimal.js";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";
import { type DocumentSpec, documentSpec } from "../../../platform/documents/registry.ts";
import { type Caller, memberOf, refusalError } from "../../../platform/rest/access.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { amount, day, moneyOf } from "./format.ts";
import type { Cell, Printable } from "./layout.ts";
import { loadWorkspace } from "./letterhead.ts";
import { renderPdf } from "./render.ts";

// A customer's statement of account (issue 10 §2 "Accounts receivable … a customer statement PDF"): the balance
// brought forward at `from`, every invoice, debit note, receipt and credit note dated in the period with the
// running balance, the balance at `to`, and how what is still owed ages at `to`.
//
// Decisions: amounts are the documents' own totals (receipts' amounts), so the closing balance is what the
// customer owes less the payments not yet allocated (their credit); drafts and cancelled documents are left out;
// ageing is by days past due at `to` — Current (not yet due), 1–30, 31–60, 61–90 and over 90 days — over each open
// invoice's outstanding today. Credit and debit notes count once their types are registered.

type Side = "debit" | "credit";
// The documents a statement lists besides receipts; a type not (yet) registered is skipped.
const DOCUMENTS: Array<{ type: string; side: Side; ages: boolean }> = [
  { type: "invoice", side: "debit", ages: true },
  { type: "debit_note", side: "debit", ages: true },
  { type: "credit_note", side: "credit", ages: false },
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isoDate(value: string | undefined, field: string): string | null {
  if (value === undefined || value === "") return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new RestError(400, "PGRST100", `${field} must be a date like 2026-01-31`, [{ field, message: "not a date" }]);
  }
  return value;
}

const registered = (type: string): DocumentSpec | null => {
  try {
    return documentSpec(type);
  } catch {
    return null;
  }
};

export type StatementEntry = {
  kind: string;
  number: string;
  doc_date: string;
  due_date: string | null;
  debit: string;
  credit: string;
  method: string | null;
  reference: string | null;
};

export type Ageing = { current: string; d1_30: string; d31_60: string; d61_90: string; over_90: string };

export type Statement = {
  from: string;
  to: string;
  opening: string;
  entries: Array<StatementEntry & { balance: string }>;
  debits: string;
  credits: string;
  closing: string;
  ageing: Ageing;
  unapplied: string; // receipts' unallocated amounts dated up to `to`
};

// One statement's figures, all in SQL scoped to the workspace (first wall) under RLS (second).
export async function customerStatement(
  tx: Tx,
  ws: string,
  companyId: number,
  from: string,
  to: string,
): Promise<Statement> {
  const parts: SQL[] = [];
  const ageing: SQL[] = [];
  for (const d of DOCUMENTS) {
    const spec = registered(d.type);
    if (!spec) continue;
    const table = sql.identifier(spec.header.name);
    const value = sql`abs(total)`;
    parts.push(sql`select ${d.type}::text as kind, id, number, doc_date,
        ${d.ages ? sql`due_date` : sql`null::date`} as due_date,
        ${d.side === "debit" ? value : sql`0::numeric`} as debit, ${d.side === "credit" ? value : sql`0::numeric`} as credit,
        null::text as method, null::text as reference
      from ${table} where workspace_id = ${ws}::uuid and company_id = ${companyId}
        and status not in (${spec.machine.initial}, 'cancelled') and doc_date <= ${to}::date`);
    if (d.ages) {
      ageing.push(sql`select outstanding, ${to}::date - coalesce(due_date, doc_date) as late from ${table}
        where workspace_id = ${ws}::uuid and company_id = ${companyId} and outstanding > 0
          and status not in (${spec.machine.initial}, 'cancelled') and doc_date <= ${to}::date`);
    }
  }
  parts.push(sql`select 'receipt'::text as kind, id, number, doc_date, null::date as due_date, 0::numeric as debit,
      amount as credit, method, reference
    from receipt where workspace_id = ${ws}::uuid and company_id = ${companyId} and status <> 'cancelled'
      and doc_date <= ${to}::date`);
  const rows = (
    await tx.execute(sql`select kind, number, doc_date::text as doc_date, due_date::text as due_date,
        debit::text as debit, credit::text as credit, method, reference, doc_date < ${from}::date as before
      from (${sql.join(parts, sql` union all `)}) e
      order by e.doc_date, case when e.debit > 0 then 0 else 1 end, e.id`)
  ).rows as Array<StatementEntry & { before: boolean }>;
  const aged = ageing.length
    ? ((
        await tx.execute(sql`select
          coalesce(sum(outstanding) filter (where late <= 0), 0)::text as current,
          coalesce(sum(outstanding) filter (where late between 1 and 30), 0)::text as d1_30,
          coalesce(sum(outstanding) filter (where late between 31 and 60), 0)::text as d31_60,
          coalesce(sum(outstanding) filter (where late between 61 and 90), 0)::text as d61_90,
          coalesce(sum(outstanding) filter (where late > 90), 0)::text as over_90
        from (${sql.join(ageing, sql` union all `)}) a`)
      ).rows[0] as Ageing)
    : { current: "0", d1_30: "0", d31_60: "0", d61_90: "0", over_90: "0" };
  const unapplied = (
    (
      await tx.execute(sql`select coalesce(sum(unallocated), 0)::text as n from receipt
        where workspace_id = ${ws}::uuid and company_id = ${companyId} and status <> 'cancelled'
          and doc_date <= ${to}::date`)
    ).rows[0] as { n: string }
  ).n;

  let balance: Decimal = new Dec(0);
  let debits: Decimal = new Dec(0);
  let credits: Decimal = new Dec(0);
  const entries: Statement["entries"] = [];
  let opening = "0.00";
  for (const r of rows) {
    if (r.before) {
      balance = balance.plus(dec(r.debit)).minus(dec(r.credit));
      continue;
    }
    if (entries.length === 0) opening = balance.toFixed(2);
    balance = balance.plus(dec(r.debit)).minus(dec(r.credit));
    debits = debits.plus(dec(r.debit));
    credits = credits.plus(dec(r.credit));
    const { before: _, ...entry } = r;
    entries.push({ ...entry, balance: balance.toFixed(2) });
  }
  if (entries.length === 0) opening = balance.toFixed(2);
  return {
    from,
    to,
    opening,
    entries,
    debits: debits.toFixed(2),
    credits: credits.toFixed(2),
    closing: balance.toFixed(2),
    ageing: aged,
    unapplied,
  };
}

const KIND: Record<string, string> = {
  invoice: "Invoice",
  debit_note: "Debit note",
  credit_note: "Credit note",
  receipt: "Payment received",
};

function describe(e: StatementEntry): string {
  if (e.kind === "receipt") {
    const how = [e.method?.replaceAll("_", " "), e.reference ? `ref. ${e.reference}` : null].filter(Boolean);
    return how.length ? `${KIND.receipt} (${how.join(", ")})` : KIND.receipt;
  }
  return e.due_date ? `${KIND[e.kind] ?? e.kind}, due ${day(e.due_date)}` : (KIND[e.kind] ?? e.kind);
}

const firstOfMonthBefore = (iso: string, months: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
};

export async function printStatement(
  tx: Tx,
  caller: Caller,
  companyId: number,
  period: { from?: string; to?: string },
): Promise<{ pdf: Buffer; filename: string; statement: Statement }> {
  // The whole ledger of a customer: reading every invoice and receipt of the workspace, through the one rule.
  const who = memberOf(caller);
  for (const def of [documentSpec("invoice").header, receiptResource]) {
    const d = decideResource(who, def, "read");
    if (!d.allowed) throw refusalError(d);
    if (d.scope !== "all") {
      throw new RestError(403, "42501", "You do not have permission to print customer statements", null, null);
    }
  }
  const ws = caller.workspaceId as string;
  const today = ((await tx.execute(sql`select current_date::text as d`)).rows[0] as { d: string }).d;
  const to = isoDate(period.to, "to") ?? today;
  const from = isoDate(period.from, "from") ?? firstOfMonthBefore(to, 2);
  if (from > to) throw new RestError(400, "PGRST100", "The period must start on or before it ends (from ≤ to)");
  const company = (
    await tx.execute(
      sql`select to_jsonb(c) as row from company c where c.workspace_id = ${ws}::uuid and c.id = ${companyId}`,
    )
  ).rows[0] as { row: Record<string, unknown> } | undefined;
  if (!company) throw new RestError(404, "PGRST116", `There is no customer ${companyId} in this workspace`);
  const c = company.row;
  const workspace = await loadWorkspace(tx, ws);
  const s = await customerStatement(tx, ws, companyId, from, to);
  const currency = workspace.baseCurrency;
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const address = (text(c.billing_address) || text(c.shipping_address)).split("\n").filter((l) => l.trim());
  const rows: Cell[][] = [
    [day(from), "", "Balance brought forward", "", "", amount(s.opening)],
    ...s.entries.map((e) => [
      day(e.doc_date),
      e.number,
      describe(e),
      dec(e.debit).isZero() ? "" : amount(e.debit),
      dec(e.credit).isZero() ? "" : amount(e.credit),
      amount(e.balance),
    ]),
  ];
  const unapplied = dec(s.unapplied);
  const ageingTotal = Object.values(s.ageing).reduce((a: Decimal, v) => a.plus(dec(v)), new Dec(0));
  const page: Printable = {
    title: "Statement of Account",
    reference: `${day(from)} to ${day(to)}`,
    status: null,
    watermark: null,
    party: {
      heading: "Statement for",
      name: text(c.name) || "Customer",
      lines: [...address, ...(text(c.uen) ? [`UEN ${text(c.uen)}`] : [])],
    },
    facts: [
      ["Statement date", day(to)],
      ["Period", `${day(from)} to ${day(to)}`],
      ["Currency", currency],
      ["Balance due", moneyOf(s.closing, currency)],
    ],
    body: [
      {
        kind: "table",
        columns: [
          { label: "Date", width: 13 },
          { label: "Document", width: 17 },
          { label: "Description", width: 30, wrap: true },
          { label: "Debit", width: 13, align: "right" },
          { label: "Credit", width: 13, align: "right" },
          { label: "Balance", width: 14, align: "right" },
        ],
        rows,
      },
      {
        kind: "totals",
        rows: [
          { label: "Balance brought forward", value: moneyOf(s.opening, currency) },
          { label: "Invoiced and charged", value: moneyOf(s.debits, currency) },
          { label: "Paid and credited", value: moneyOf(dec(s.credits).negated().toFixed(2), currency) },
          { label: "Balance due", value: moneyOf(s.closing, currency), strong: true },
        ],
      },
      {
        kind: "table",
        heading: `Ageing of what is owed at ${day(to)} (days past due)`,
        columns: [
          { label: "Current", width: 1, align: "right" },
          { label: "1-30 days", width: 1, align: "right" },
          { label: "31-60 days", width: 1, align: "right" },
          { label: "61-90 days", width: 1, align: "right" },
          { label: "Over 90 days", width: 1, align: "right" },
          ...(unapplied.isZero() ? [] : [{ label: "Unapplied payments", width: 1.2, align: "right" as const }]),
          { label: "Total", width: 1, align: "right" },
        ],
        rows: [
          [
            amount(s.ageing.current),
            amount(s.ageing.d1_30),
            amount(s.ageing.d31_60),
            amount(s.ageing.d61_90),
            amount(s.ageing.over_90),
            ...(unapplied.isZero() ? [] : [amount(unapplied.negated().toFixed(2))]),
            amount(ageingTotal.minus(unapplied).toFixed(2)),
          ],
        ],
      },
    ],
    filename: `statement-${
      text(c.name)
        .replace(/[^A-Za-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || companyId
    }-${to}.pdf`,
  };
  return { pdf: await renderPdf(workspace.head, page), filename: page.filename, statement: s };
}
