import { decide } from "@workmetrics/domain";
import { Dec, dec } from "@workmetrics/domain/documents/decimal";
import { AGEING_BUCKETS, REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../../platform/rest/access.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { arAgeing } from "../../reports/ar-ageing.report.ts";
import { type CustomerStatement, customerStatement, type StatementLine } from "../../reports/statement.ts";
import { amount, day, moneyOf } from "./format.ts";
import type { Cell, Printable } from "./layout.ts";
import { loadWorkspace } from "./letterhead.ts";
import { renderPdf } from "./render.ts";

// A customer's statement of account (issue 10 §2 "Accounts receivable … a customer statement PDF"): the balance
// brought forward at `from`, every invoice, debit note, progressive claim, receipt and credit note dated in the period with the
// running balance, the balance at `to`, and how what is owed ages at `to`. The figures are the `customer_statement`
// and `ar_ageing` reports' own (modules/reports), in base currency, so the page and the screen never disagree; who
// may print it is who may read those reports (REPORT_ACCESS, the one access rule). What the statement's balance
// holds beyond the open invoices (payments not yet allocated, credit not yet applied) ages as "Unapplied credit".

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isoDate(value: string | undefined, field: string): string | null {
  if (value === undefined || value === "") return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new RestError(400, "PGRST100", `${field} must be a date like 2026-01-31`, [{ field, message: "not a date" }]);
  }
  return value;
}

const KIND: Record<StatementLine["type"], string> = {
  invoice: "Invoice",
  debit_note: "Debit note",
  progressive_claim: "Progressive claim",
  credit_note: "Credit note",
  receipt: "Payment received",
};

function describe(line: StatementLine): string {
  const words = KIND[line.type] ?? line.type;
  if (!line.reference) return words;
  if (line.type !== "receipt" && line.reference.startsWith("Due "))
    return `${words}, due ${day(line.reference.slice(4))}`;
  return `${words} (${line.reference.replaceAll("_", " ")})`;
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
): Promise<{ pdf: Buffer; filename: string; statement: CustomerStatement }> {
  const need = decide(memberOf(caller), REPORT_ACCESS.customer_statement);
  if (!need.allowed) throw refusalError(need);
  const ws = caller.workspaceId as string;
  const today = ((await tx.execute(sql`select current_date::text as d`)).rows[0] as { d: string }).d;
  const to = isoDate(period.to, "to") ?? today;
  const from = isoDate(period.from, "from") ?? firstOfMonthBefore(to, 2);
  if (from > to) throw new RestError(400, "PGRST100", "The statement's from date is after its to date");
  const s = await customerStatement(tx, ws, { companyId, from, to });
  const aged = await arAgeing.run(tx, { as_of: to, company_id: companyId }, { ...caller, workspaceId: ws });
  const c = (
    await tx.execute(
      sql`select to_jsonb(c) as row from company c where c.workspace_id = ${ws}::uuid and c.id = ${companyId}`,
    )
  ).rows[0] as { row: Record<string, unknown> };
  const workspace = await loadWorkspace(tx, ws);
  const currency = workspace.baseCurrency;
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const address = (text(c.row.billing_address) || text(c.row.shipping_address)).split("\n").filter((l) => l.trim());
  const rows: Cell[][] = [
    [day(from), "", "Balance brought forward", "", "", amount(s.opening)],
    ...s.lines.map((l) => [
      day(l.date),
      l.number,
      describe(l),
      dec(l.debit).isZero() ? "" : amount(l.debit),
      dec(l.credit).isZero() ? "" : amount(l.credit),
      amount(l.balance),
    ]),
  ];
  const buckets = AGEING_BUCKETS.map((b) => String(aged.totals[b.key] ?? "0"));
  const agedTotal = buckets.reduce((a, v) => a.plus(dec(v)), new Dec(0));
  const unapplied = dec(s.closing).minus(agedTotal);
  const page: Printable = {
    title: "Statement of Account",
    reference: `${day(from)} to ${day(to)}`,
    status: null,
    watermark: null,
    party: {
      heading: "Statement for",
      name: s.company.name,
      lines: [...address, ...(text(c.row.uen) ? [`UEN ${text(c.row.uen)}`] : [])],
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
          { label: "Invoiced and charged", value: moneyOf(s.debit, currency) },
          { label: "Paid and credited", value: moneyOf(dec(s.credit).negated().toFixed(2), currency) },
          { label: "Balance due", value: moneyOf(s.closing, currency), strong: true },
        ],
      },
      {
        kind: "table",
        heading: `Ageing at ${day(to)} (days past due)`,
        columns: [
          ...AGEING_BUCKETS.map((b) => ({ label: b.label.replace("–", "-"), width: 1, align: "right" as const })),
          ...(unapplied.isZero() ? [] : [{ label: "Unapplied credit", width: 1.1, align: "right" as const }]),
          { label: "Balance due", width: 1.1, align: "right" },
        ],
        rows: [
          [...buckets.map(amount), ...(unapplied.isZero() ? [] : [amount(unapplied.toFixed(2))]), amount(s.closing)],
        ],
      },
    ],
    filename: `statement-${s.company.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || companyId}-${to}.pdf`,
  };
  return { pdf: await renderPdf(workspace.head, page), filename: page.filename, statement: s };
}
