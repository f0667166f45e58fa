import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS, type ReportDrill } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";
import { defineReport } from "../registry.ts";
import { closedPeriod } from "./ledger-sql.ts";

// DOCUMENTS.md §3, DESIGN §2.3.1 `report {name: "gst_f5", from, to}`: the GST F5 return's boxes 1–8 for a period
// (normally a quarter) from the documents themselves, by tax code, in base currency (SGD: IRAS takes GST in SGD):
//   supplies (invoices, debit notes, progressive claims; credit notes negative, in the period they are issued):
//     SR → box 1 (value) and box 6 (output tax); ZR → box 2; ES → box 3; OS is out of scope and not reported;
//   purchases (supplier invoices; goods returned to a supplier that the supplier had invoiced, negative):
//     SR (our purchase lines carry SR where IRAS says TX) → box 5 and box 7; ZR → box 5; ES and OS are not taxable
//     purchases and stay out;
//   box 4 = 1 + 2 + 3, box 8 = 6 − 7 (positive: payable to IRAS; negative: refundable).
// Only submitted documents count (not drafts, not cancelled ones), each by its document date. Per document and tax
// code, the value is Σ net_amount (after the document discount) × rate and the tax is the document's tax × rate, each
// rounded to cents — exactly what toBaseTotals gave the ledger, so box 6 equals what the documents credited to 2200.
// The boxes keep their cents (they must tie to the books); the return as typed into myTax drops the cents of the
// value boxes 1–5 (IRAS asks for whole dollars there), shown beside as `as_filed`.

export const F5_BOXES = ["1", "2", "3", "4", "5", "6", "7", "8"] as const;
export type F5Box = (typeof F5_BOXES)[number];

export const BOX_LABELS: Record<F5Box, string> = {
  "1": "Total value of standard-rated supplies",
  "2": "Total value of zero-rated supplies",
  "3": "Total value of exempt supplies",
  "4": "Total value of (1) + (2) + (3)",
  "5": "Total value of taxable purchases",
  "6": "Output tax due",
  "7": "Less: input tax and refunds claimed",
  "8": "Net GST to be paid to / claimed from IRAS",
};

// Documents whose lines carry tax codes: the header table, its line table and the line's parent column; `sign`
// −1 for documents that take back (credit notes).
const DOCUMENT_SOURCES = [
  { type: "invoice", side: "supply", sign: 1 },
  { type: "debit_note", side: "supply", sign: 1 },
  { type: "credit_note", side: "supply", sign: -1 },
  { type: "supplier_invoice", side: "purchase", sign: 1 },
] as const;

// One row per document and tax code in the period: its side, base-currency value and tax (signed).
export function gstDocuments(ws: string, from: string, to: string): SQL {
  const byDocument = DOCUMENT_SOURCES.map(
    (s) => sql`select ${s.type}::text as type, h.id, h.number, h.doc_date, h.company_id, ${s.side}::text as side,
        l.tax_code, (${s.sign} * round(sum(l.net_amount) * h.rate, 2)) as net,
        (case when l.tax_code = 'SR' then ${s.sign} * round(h.tax_total * h.rate, 2) else 0 end) as tax
      from ${sql.identifier(s.type)} h
      join ${sql.identifier(`${s.type}_line`)} l on l.workspace_id = h.workspace_id
        and l.${sql.identifier(`${s.type}_id`)} = h.id
      where h.workspace_id = ${ws}::uuid and l.workspace_id = ${ws}::uuid
        and h.status not in ('draft', 'cancelled') and h.doc_date between ${from}::date and ${to}::date
      group by h.workspace_id, h.id, l.tax_code`,
  );
  // A progressive claim bills this claim's work less the retention it holds back (net_total): GST is charged on that,
  // and on the retention when a release claim bills it; one tax code per claim (its lines').
  const claims = sql`select 'progressive_claim'::text as type, h.id, h.number, h.doc_date, h.company_id,
      'supply'::text as side, c.tax_code, round(h.net_total * h.rate, 2) as net,
      (case when c.tax_code = 'SR' then round(h.tax_total * h.rate, 2) else 0 end) as tax
    from progressive_claim h
    cross join lateral (select min(l.tax_code) as tax_code from progressive_claim_line l
      where l.workspace_id = h.workspace_id and l.progressive_claim_id = h.id) c
    where h.workspace_id = ${ws}::uuid and h.status not in ('draft', 'cancelled')
      and h.doc_date between ${from}::date and ${to}::date and c.tax_code is not null`;
  // Goods returned to a supplier debit what the supplier had invoiced (SUPPLIER_DEBIT_RULE: Dr 2000 the total,
  // Cr 1300 its GST); the debit's value is the total less that tax.
  const supplierDebits = sql`select 'goods_return_note'::text as type, g.id, g.number, g.doc_date, g.company_id,
      'purchase'::text as side, (case when sum(j.credit) filter (where j.account_code = '1300') > 0 then 'SR' else 'ZR' end) as tax_code,
      -(coalesce(sum(j.debit) filter (where j.account_code = '2000'), 0)
        - coalesce(sum(j.credit) filter (where j.account_code = '1300'), 0)) as net,
      -coalesce(sum(j.credit) filter (where j.account_code = '1300'), 0) as tax
    from goods_return_note g
    join journal_entry e on e.workspace_id = g.workspace_id and e.source_type = 'goods_return_note'
      and e.source_id = g.id and e.reversal_of is null
    join journal_line j on j.workspace_id = e.workspace_id and j.entry_id = e.id
    where g.workspace_id = ${ws}::uuid and e.workspace_id = ${ws}::uuid and j.workspace_id = ${ws}::uuid
      and g.direction = 'supplier' and g.status not in ('draft', 'cancelled')
      and g.doc_date between ${from}::date and ${to}::date
    group by g.id, g.number, g.doc_date, g.company_id
    having coalesce(sum(j.debit) filter (where j.account_code = '2000'), 0) > 0`;
  return sql`gst_docs as (${sql.join([...byDocument, claims, supplierDebits], sql` union all `)})`;
}

// Which rows make up a box, and which of their figures (value or tax) it sums; box 8 takes input tax negative.
const BOX_RULE: Record<F5Box, { where: SQL; amount: SQL }> = {
  "1": { where: sql`d.side = 'supply' and d.tax_code = 'SR'`, amount: sql`d.net` },
  "2": { where: sql`d.side = 'supply' and d.tax_code = 'ZR'`, amount: sql`d.net` },
  "3": { where: sql`d.side = 'supply' and d.tax_code = 'ES'`, amount: sql`d.net` },
  "4": { where: sql`d.side = 'supply' and d.tax_code in ('SR', 'ZR', 'ES')`, amount: sql`d.net` },
  "5": { where: sql`d.side = 'purchase' and d.tax_code in ('SR', 'ZR')`, amount: sql`d.net` },
  "6": { where: sql`d.side = 'supply' and d.tax <> 0`, amount: sql`d.tax` },
  "7": { where: sql`d.side = 'purchase' and d.tax <> 0`, amount: sql`d.tax` },
  "8": { where: sql`d.tax <> 0`, amount: sql`(case when d.side = 'purchase' then -d.tax else d.tax end)` },
};

export type F5Boxes = Record<`box${F5Box}`, string>;

export async function f5Boxes(tx: Tx, ws: string, from: string, to: string): Promise<F5Boxes> {
  const sums = F5_BOXES.map(
    (b) => sql`coalesce(sum(${BOX_RULE[b].amount}) filter (where ${BOX_RULE[b].where}), 0)::numeric(16,2)::text
      as ${sql.identifier(`box${b}`)}`,
  );
  const res = await tx.execute(sql`with ${gstDocuments(ws, from, to)}
    select ${sql.join(sums, sql`, `)} from gst_docs d`);
  return res.rows[0] as F5Boxes;
}

// IRAS takes the value boxes in whole dollars (cents dropped, not rounded); box 4 is the sum of what boxes 1–3 say.
export function asFiled(boxes: F5Boxes): F5Boxes {
  const dollars = (v: string) => money(dec(v).truncated());
  const out = { ...boxes };
  for (const b of ["box1", "box2", "box3", "box5"] as const) out[b] = dollars(boxes[b]);
  out.box4 = money(sum([out.box1, out.box2, out.box3]));
  return out;
}

export const gstF5 = defineReport({
  name: "gst_f5",
  params: closedPeriod,
  need: REPORT_ACCESS.gst_f5,
  async run(tx, p, caller) {
    const boxes = await f5Boxes(tx, caller.workspaceId, p.from, p.to);
    const filed = asFiled(boxes);
    const rows = F5_BOXES.map((b) => ({
      box: b,
      label: BOX_LABELS[b],
      kind: Number(b) <= 5 ? "value" : "tax",
      amount: boxes[`box${b}`],
      as_filed: filed[`box${b}`],
      row_kind: b === "4" || b === "8" ? "total" : "account",
    }));
    const drill: ReportDrill[] = F5_BOXES.map((b) => ({
      report: "journal_drill",
      params: { box: b, from: p.from, to: p.to },
    }));
    return {
      columns: [
        { key: "box", label: "Box", kind: "text" },
        { key: "label", label: "Description", kind: "text" },
        { key: "amount", label: "Amount (SGD)", kind: "money" },
        { key: "as_filed", label: "As filed (value boxes in whole dollars)", kind: "money" },
      ],
      rows,
      totals: { ...boxes, from: p.from, to: p.to },
      key: "box",
      drill,
    };
  },
});

// The documents behind one box: per document and tax code, its value, its tax and what it adds to the box.
export async function gstDrill(tx: Tx, ws: string, box: F5Box, from: string, to: string) {
  const rule = BOX_RULE[box];
  const res = await tx.execute(sql`with ${gstDocuments(ws, from, to)}
    select d.type, d.id, d.number, d.doc_date::text as doc_date, c.name as company, d.side, d.tax_code,
      d.net::numeric(16,2)::text as net, d.tax::numeric(16,2)::text as tax,
      (${rule.amount})::numeric(16,2)::text as amount
    from gst_docs d left join company c on c.workspace_id = ${ws}::uuid and c.id = d.company_id
    where ${rule.where}
    order by d.doc_date, d.type, d.id, d.tax_code`);
  const rows = res.rows as Array<{
    type: string;
    id: number | string;
    number: string | null;
    doc_date: string;
    company: string | null;
    side: string;
    tax_code: string;
    net: string;
    tax: string;
    amount: string;
  }>;
  return {
    columns: [
      { key: "doc_date", label: "Date", kind: "date" as const },
      { key: "document", label: "Document", kind: "text" as const },
      { key: "number", label: "Number", kind: "text" as const },
      { key: "company", label: "Customer or supplier", kind: "text" as const },
      { key: "tax_code", label: "Tax code", kind: "text" as const },
      { key: "net", label: "Value", kind: "money" as const },
      { key: "tax", label: "GST", kind: "money" as const },
      { key: "amount", label: `Box ${box}`, kind: "money" as const },
    ],
    rows: rows.map((r) => ({
      row_kind: "line",
      ...r,
      id: Number(r.id),
      document: r.type.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase()),
    })),
    totals: {
      box,
      label: BOX_LABELS[box],
      amount: money(sum(rows.map((r) => r.amount))),
      count: rows.length,
      from,
      to,
    },
    key: "number",
    drill: rows.map((r) => ({ document: { type: r.type, id: Number(r.id), number: r.number } })),
  };
}
