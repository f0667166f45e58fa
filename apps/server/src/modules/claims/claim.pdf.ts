import { dec } from "@workmetrics/domain/documents/decimal";
import { SOP_STATEMENT } from "@workmetrics/domain/documents/types/progressive-claim";
import { progressiveClaimResource } from "@workmetrics/domain/resources/claims";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, requireAllowed } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { amount, day, moneyOf, percent, quantity } from "../documents/pdf/format.ts";
import type { Block, Cell, Printable, TotalRow } from "../documents/pdf/layout.ts";
import { loadWorkspace } from "../documents/pdf/letterhead.ts";
import { renderPdf } from "../documents/pdf/render.ts";

// Issue 12 "a claim PDF with the cumulative table that a quantity surveyor would accept" — GET
// /api/documents/progressive_claim/{id}/pdf. Per line: contract amount, previous % and amount, this claim, to date %
// and amount (variations marked) — for lines measured in quantity, the contract quantity and the quantities previous
// and to date beside their percentages; then the valuation — work done to date, less previous claims, this claim; the
// retention to date, previously held and this claim's; the amount due before GST, GST and total; the SOP Act dates
// and the statutory words that make it a payment claim. A release claim prints what it releases of the retention
// held. Who may print it is who reads progressive claims.

type Line = {
  description: string;
  contract_amount: string;
  prev_percent: string;
  prev_amount: string;
  cumulative_percent: string;
  amount_to_date: string;
  line_total: string;
  is_variation: boolean;
  unit: string | null;
  contract_qty: string | null;
  cumulative_qty: string | null;
  prev_qty: string | null;
};

const STATUS: Record<string, string> = { draft: "Draft", cancelled: "Cancelled" };

const measuredLine = (l: Line) => l.cumulative_qty != null;

// The cumulative table. With a line measured in quantity, a contract quantity column, and the previous and to-date
// and to-date "done" columns give that line's quantity with its percentage below; a line claimed by percentage keeps
// its percentage there.
function valuation(lines: Line[]): Block {
  const measured = lines.some(measuredLine);
  const qty = (v: string, l: Line) => `${quantity(v)}${l.unit?.trim() ? ` ${l.unit.trim()}` : ""}`;
  // What the previous claim had to date in quantity: as measured then, or its percentage of the contract quantity.
  const prevQty = (l: Line) =>
    l.prev_qty ??
    dec(l.contract_qty ?? "0")
      .times(dec(l.prev_percent))
      .dividedBy(100)
      .toDecimalPlaces(3)
      .toFixed();
  const share = (l: Line, v: string, pct: string): Cell =>
    measuredLine(l) ? { text: qty(v, l), note: percent(pct) } : percent(pct);
  return {
    kind: "table",
    heading: "Valuation of work done",
    columns: [
      { label: "Description", width: measured ? 19 : 26, wrap: true },
      ...(measured ? [{ label: "Qty", width: 10, align: "right" as const }] : []),
      { label: "Contract", width: 13, align: "right" },
      { label: measured ? "Prev done" : "Prev %", width: measured ? 11 : 8, align: "right" },
      { label: "Previous", width: 13, align: "right" },
      { label: measured ? "Done to date" : "To date %", width: measured ? 12 : 9, align: "right" },
      { label: "To date", width: 13, align: "right" },
      { label: "This claim", width: 13, align: "right" },
    ],
    rows: lines.map((l): Cell[] => [
      l.is_variation ? { text: l.description, note: "Variation" } : l.description,
      ...(measured ? [measuredLine(l) && l.contract_qty != null ? qty(l.contract_qty, l) : ""] : []),
      amount(l.contract_amount),
      share(l, prevQty(l), l.prev_percent),
      amount(l.prev_amount),
      share(l, l.cumulative_qty ?? "0", l.cumulative_percent),
      amount(l.amount_to_date),
      amount(l.line_total),
    ]),
  };
}

export async function printClaim(tx: Tx, caller: Caller, id: number): Promise<{ pdf: Buffer; filename: string }> {
  requireAllowed(progressiveClaimResource, caller, "read");
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select c.*, c.doc_date::text as doc_date, c.response_due::text as response_due,
      c.due_date::text as due_date, c.response_date::text as response_date, to_jsonb(co) as company,
      s.number as contract, pr.code as project_code, pr.name as project_name,
      (select p.number from progressive_claim p where p.workspace_id = c.workspace_id and p.id = c.previous_claim_id)
        as previous_number,
      coalesce((select json_agg(json_build_object('description', l.description,
          'contract_amount', l.contract_amount::text, 'prev_percent', l.prev_percent::text,
          'prev_amount', l.prev_amount::text, 'cumulative_percent', l.cumulative_percent::text,
          'amount_to_date', l.amount_to_date::text, 'line_total', l.line_total::text, 'is_variation', l.is_variation,
          'unit', l.unit, 'contract_qty', l.contract_qty::text, 'cumulative_qty', l.cumulative_qty::text,
          'prev_qty', l.prev_qty::text)
          order by l.line_no)
        from progressive_claim_line l where l.workspace_id = c.workspace_id and l.progressive_claim_id = c.id), '[]')
        as lines
    from progressive_claim c join company co on co.workspace_id = c.workspace_id and co.id = c.company_id
    left join sales_order s on s.workspace_id = c.workspace_id and s.id = c.source_id and c.source_type = 'sales_order'
    left join project pr on pr.workspace_id = c.workspace_id and pr.id = c.project_id
    where c.workspace_id = ${ws}::uuid and c.id = ${id}`);
  const c = res.rows[0] as Record<string, unknown> & { lines: Line[]; company: Record<string, unknown> };
  if (!c) throw new RestError(404, "PGRST116", `There is no progressive claim ${id} in this workspace`);
  const workspace = await loadWorkspace(tx, ws);
  const currency = String(c.currency ?? workspace.baseCurrency);
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const m = (v: unknown) => moneyOf(String(v ?? "0"), currency);
  const status = String(c.status);
  const release = c.kind === "release";
  const number = text(c.number) || "Draft";
  const address = (text(c.company.billing_address) || text(c.company.shipping_address)).split("\n").filter(Boolean);

  const table: Block = release
    ? {
        kind: "table",
        heading: "Retention released",
        columns: [
          { label: "Description", width: 70, wrap: true },
          { label: "Amount", width: 30, align: "right" },
        ],
        rows: c.lines.map((l) => [l.description, amount(l.line_total)]),
      }
    : valuation(c.lines);
  const retentionThis = dec(String(c.retention_this_claim ?? "0"));
  const totals: TotalRow[] = release
    ? [
        { label: "Retention held before this release", value: m(c.previous_retention) },
        { label: "Retention released", value: m(retentionThis.negated().toFixed(2)) },
        { label: `GST ${c.tax_total && !dec(String(c.tax_total)).isZero() ? "9%" : ""}`.trim(), value: m(c.tax_total) },
        { label: "Amount due", value: m(c.total), strong: true },
      ]
    : [
        { label: "Contract sum (with variations)", value: m(c.contract_sum) },
        { label: "Work done to date", value: m(c.gross_to_date) },
        { label: "Less previous claims", value: m(c.previous_gross) },
        { label: "This claim (gross)", value: m(c.this_claim_gross) },
        {
          label: "Retention held to date",
          value: m(c.retention_to_date),
        },
        { label: "Less retention previously held", value: m(c.previous_retention) },
        { label: "Retention this claim", value: m(c.retention_this_claim) },
        { label: "Amount due before GST", value: m(c.subtotal) },
        { label: "GST", value: m(c.tax_total) },
        { label: "Amount due", value: m(c.total), strong: true },
      ];
  const sop = [
    `Claim date: ${day(String(c.doc_date))}.`,
    c.response_due ? `Payment response due by ${day(String(c.response_due))} (SOP Act s11).` : "",
    c.due_date ? `Payment due by ${day(String(c.due_date))} (SOP Act s8).` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const response =
    c.certified_amount == null
      ? null
      : `Certified ${m(c.certified_amount)} on ${day(String(c.response_date))}` +
        (dec(String(c.withheld_amount ?? "0")).isZero()
          ? "."
          : `; withheld ${m(c.withheld_amount)}: ${text(c.withheld_reasons)}`);
  const page: Printable = {
    title: release ? "Payment Claim — Release of Retention" : "Progress Payment Claim",
    reference: number,
    status: STATUS[status] ?? null,
    watermark: status === "draft" ? "DRAFT" : status === "cancelled" ? "CANCELLED" : null,
    party: {
      heading: "Claim to",
      name: text(c.company.name),
      lines: [...address, ...(text(c.company.uen) ? [`UEN ${text(c.company.uen)}`] : [])],
    },
    facts: [
      ["Claim", number],
      ["Claim date", day(String(c.doc_date))],
      ...(c.contract ? [["Contract", String(c.contract)] as [string, string]] : []),
      ...(c.project_code ? [["Project", `${c.project_code} ${text(c.project_name)}`] as [string, string]] : []),
      ...(c.previous_number ? [["Previous claim", String(c.previous_number)] as [string, string]] : []),
      ...(release
        ? []
        : [
            [
              "Retention",
              `${percent(String(c.retention_percent))}, cap ${percent(String(c.retention_cap_percent))} (${amount(String(c.retention_cap))})`,
            ] as [string, string],
          ]),
      ...(c.response_due ? [["Response due", day(String(c.response_due))] as [string, string]] : []),
      ...(c.due_date ? [["Payment due", day(String(c.due_date))] as [string, string]] : []),
    ],
    body: [
      table,
      { kind: "totals", rows: totals },
      { kind: "text", heading: "Security of Payment", text: `${SOP_STATEMENT}. ${sop}` },
      ...(response ? [{ kind: "text" as const, heading: "Payment response", text: response }] : []),
      ...(text(c.notes) ? [{ kind: "text" as const, heading: "Notes", text: text(c.notes) }] : []),
      { kind: "signature", heading: "Claimed by", fields: ["Name", "Signature", "Date"] },
    ],
    filename: `${number}.pdf`,
  };
  return { pdf: await renderPdf(workspace.head, page), filename: page.filename };
}
