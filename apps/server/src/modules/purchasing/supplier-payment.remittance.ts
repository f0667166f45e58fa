import { decide } from "@workmetrics/domain";
import { dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { amount, day, moneyOf } from "../documents/pdf/format.ts";
import type { Cell, Printable } from "../documents/pdf/layout.ts";
import { loadWorkspace } from "../documents/pdf/letterhead.ts";
import { renderPdf } from "../documents/pdf/render.ts";

// Issue 11 "a remittance advice PDF": what a supplier payment paid, sent to the supplier so they can match it —
// GET /api/documents/supplier_payment/{id}/pdf. Each supplier invoice it settles with our number, the supplier's
// own invoice number, its date and total and the amount paid on it; what was not allocated is named as credit on
// account. A cancelled payment prints with the CANCELLED watermark. Who may print it is who reads supplier payments.

const READ = {
  audience: "member",
  permission: "supplier_payment.read",
  feature: "erp",
  subject: "Supplier payments",
  does: "read supplier payments",
} as const;

const METHOD: Record<string, string> = {
  bank_transfer: "Bank transfer",
  paynow: "PayNow",
  cheque: "Cheque",
  card: "Card",
  cash: "Cash",
};

type Paid = { number: string; supplier_invoice_number: string | null; doc_date: string; total: string; paid: string };

type Payment = {
  number: string;
  status: string;
  doc_date: string;
  amount: string;
  unallocated: string;
  method: string;
  reference: string | null;
  notes: string | null;
  company: Record<string, unknown>;
  paid: Paid[];
};

// The PDF, with the payment and workspace it was printed from (the e-mail that sends it words its letter from them).
export async function printRemittance(
  tx: Tx,
  caller: Caller,
  id: number,
): Promise<{ pdf: Buffer; filename: string; payment: Payment; workspace: Awaited<ReturnType<typeof loadWorkspace>> }> {
  const need = decide(memberOf(caller), READ);
  if (!need.allowed) throw refusalError(need);
  const ws = caller.workspaceId as string;
  // One statement: the payment, its supplier and what it paid (or paid before it was cancelled: the audit row).
  const res = await tx.execute(sql`select p.number, p.status, p.doc_date::text as doc_date, p.amount::text as amount,
      p.unallocated::text as unallocated, p.method, p.reference, p.notes, to_jsonb(c) as company,
      coalesce((select json_agg(json_build_object('number', i.number, 'supplier_invoice_number',
          i.supplier_invoice_number, 'doc_date', i.doc_date::text, 'total', i.total::text, 'paid', a.amount::text)
          order by i.doc_date, i.id)
        from (select a.document_id, a.amount from payment_allocation a
              where a.workspace_id = p.workspace_id and a.payment_type = 'supplier_payment' and a.payment_id = p.id
            union all
            select (x.value->>'document_id')::bigint, (x.value->>'amount')::numeric
            from document_event e, jsonb_array_elements(e.changes->'allocations') x
            where p.status = 'cancelled' and e.workspace_id = p.workspace_id and e.doc_type = 'supplier_payment'
              and e.doc_id = p.id and e.action = 'cancel') a
        join supplier_invoice i on i.workspace_id = p.workspace_id and i.id = a.document_id), '[]') as paid
    from supplier_payment p join company c on c.workspace_id = p.workspace_id and c.id = p.company_id
    where p.workspace_id = ${ws}::uuid and p.id = ${id}`);
  const p = res.rows[0] as Payment | undefined;
  if (!p) throw new RestError(404, "PGRST116", `There is no supplier payment ${id} in this workspace`);
  const workspace = await loadWorkspace(tx, ws);
  const currency = workspace.baseCurrency;
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const address = (text(p.company.billing_address) || text(p.company.shipping_address))
    .split("\n")
    .filter((l) => l.trim());
  const rows: Cell[][] = p.paid.map((i) => [
    i.number,
    i.supplier_invoice_number ?? "",
    day(i.doc_date),
    amount(i.total),
    amount(i.paid),
  ]);
  const allocated = dec(p.amount).minus(dec(p.unallocated)).toFixed(2);
  const page: Printable = {
    title: "Remittance Advice",
    reference: p.number,
    status: p.status === "cancelled" ? "Cancelled" : null,
    watermark: p.status === "cancelled" ? "CANCELLED" : null,
    party: {
      heading: "Paid to",
      name: text(p.company.name),
      lines: [...address, ...(text(p.company.uen) ? [`UEN ${text(p.company.uen)}`] : [])],
    },
    facts: [
      ["Payment", p.number],
      ["Date", day(p.doc_date)],
      ["Method", METHOD[p.method] ?? p.method],
      ...(p.reference ? [["Reference", p.reference] as [string, string]] : []),
      ["Amount paid", moneyOf(p.amount, currency)],
    ],
    body: [
      {
        kind: "table",
        heading: "Invoices paid",
        columns: [
          { label: "Our reference", width: 18 },
          { label: "Your invoice", width: 22, wrap: true },
          { label: "Invoice date", width: 16 },
          { label: "Invoice total", width: 18, align: "right" },
          { label: "Paid", width: 18, align: "right" },
        ],
        rows,
        empty: "This payment is held on account: it pays no invoice yet.",
      },
      {
        kind: "totals",
        rows: [
          { label: "Paid on invoices", value: moneyOf(allocated, currency) },
          ...(dec(p.unallocated).isZero()
            ? []
            : [{ label: "Credit on account", value: moneyOf(p.unallocated, currency) }]),
          { label: "Total paid", value: moneyOf(p.amount, currency), strong: true },
        ],
      },
      ...(p.notes ? [{ kind: "text" as const, heading: "Notes", text: p.notes }] : []),
    ],
    filename: `${p.number}.pdf`,
  };
  return { pdf: await renderPdf(workspace.head, page), filename: page.filename, payment: p, workspace };
}
