import type { PosOrderView, PosZReport } from "@workmetrics/domain/commands/pos";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { printable } from "../documents/pdf/render.ts";

// Issue 22 "Point of sale": the receipt (text for the e-mail, an 80 mm PDF for the counter's printer, the public
// e-receipt page) and the Z report PDF. Prices include GST; the receipt states the GST they include.

const METHOD: Record<string, string> = { cash: "Cash", card: "Card", paynow: "PayNow", voucher: "Voucher" };
const W = 42; // characters across an 80 mm receipt in a monospace face

const pad = (left: string, right: string, width = W) =>
  `${left}${" ".repeat(Math.max(1, width - left.length - right.length))}${right}`;
const amt = (v: string) => money(v);
const when = (v: string) => new Date(v).toISOString().slice(0, 16).replace("T", " ");

export function receiptRows(o: PosOrderView): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const l of o.lines) {
    rows.push([`${l.description}`, ""]);
    const disc = dec(l.discount_percent).isZero() ? "" : ` -${l.discount_percent}%`;
    rows.push([`  ${l.qty} x ${amt(l.unit_price)}${disc}`, amt(l.line_total)]);
  }
  return rows;
}

export function receiptText(o: PosOrderView): string {
  const out = [
    o.workspace_name,
    o.location_name,
    `${o.kind === "refund" ? "REFUND" : "Receipt"} ${o.number}`,
    `${when(String(o.created_at))}${o.cashier_name ? `  Cashier: ${o.cashier_name}` : ""}`,
    ...(o.refund_of_number ? [`Refund of ${o.refund_of_number}`] : []),
    ...(o.customer_name ? [`Customer: ${o.customer_name}`] : []),
    "-".repeat(W),
    ...receiptRows(o).map(([a, b]) => (b ? pad(a, b) : a)),
    "-".repeat(W),
    ...(dec(o.discount_total).isZero() ? [] : [pad("Discounts", amt(o.discount_total))]),
    pad("TOTAL (incl. GST)", `S$${amt(o.total)}`),
    pad("GST 9% included", amt(o.tax_total)),
    ...o.payments.map((p) => pad(METHOD[p.method] ?? p.method, amt(p.method === "cash" ? p.tendered : p.amount))),
    ...(dec(o.change_given).isZero() ? [] : [pad("Change", amt(o.change_given))]),
    "",
    "Prices include GST. Thank you!",
  ];
  return out.join("\n");
}

const MM = 72 / 25.4;
const RECEIPT_WIDTH = 80 * MM;

function pdfBuffer(doc: InstanceType<typeof PDFDocument>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

// A roll of 80 mm: monospace lines, then the QR code of the e-receipt.
async function rollPdf(title: string, lines: string[], qrUrl: string | null): Promise<Buffer> {
  const lineH = 10;
  const qrSize = qrUrl ? 110 : 0;
  const height = 24 + lines.length * lineH + (qrUrl ? qrSize + 30 : 0) + 20;
  const doc = new PDFDocument({ size: [RECEIPT_WIDTH, Math.max(200, height)], margin: 8, info: { Title: title } });
  doc.font("Courier").fontSize(7.6).fillColor("#000");
  let y = 12;
  for (const line of lines) {
    doc.text(printable(line), 8, y, { width: RECEIPT_WIDTH - 16, lineBreak: false });
    y += lineH;
  }
  if (qrUrl) {
    const png = await QRCode.toBuffer(qrUrl, { margin: 1, width: 300, errorCorrectionLevel: "M" });
    doc.image(png, (RECEIPT_WIDTH - qrSize) / 2, y + 6, { width: qrSize });
    doc.fontSize(6.5).text("Scan for your e-receipt", 8, y + qrSize + 10, {
      width: RECEIPT_WIDTH - 16,
      align: "center",
    });
  }
  return pdfBuffer(doc);
}

export const receiptUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, "")}/r/${token}`;

export const receiptPdf = (o: PosOrderView, url: string) =>
  rollPdf(`Receipt ${o.number}`, receiptText(o).split("\n"), url);

export function zReportLines(z: PosZReport): string[] {
  const s = z.session;
  return [
    z.workspace_name,
    `Z REPORT - session ${s.id}`,
    s.location_name,
    `Opened ${when(String(s.opened_at))}${s.opened_by_name ? ` by ${s.opened_by_name}` : ""}`,
    s.closed_at ? `Closed ${when(String(s.closed_at))}` : "Still open: figures to date",
    "-".repeat(W),
    pad("Sales", `${z.sales_count}`),
    pad("Gross sales (incl. GST)", amt(z.gross_sales)),
    pad("Discounts", amt(z.discounts)),
    pad("Net sales (incl. GST)", amt(z.net_sales)),
    pad(`Refunds (${z.refunds_count})`, amt(z.refunds)),
    "-".repeat(W),
    "By method            sales  refunds     net",
    ...z.by_method.map(
      (m) =>
        `${(METHOD[m.method] ?? m.method).padEnd(14)}${amt(m.sales).padStart(11)}${amt(m.refunds).padStart(9)}${amt(m.net).padStart(8)}`,
    ),
    "-".repeat(W),
    pad("GST on sales", amt(z.tax_sales)),
    pad("GST on refunds", amt(z.tax_refunds)),
    pad("GST net", amt(z.tax_net)),
    "-".repeat(W),
    pad("Opening float", amt(s.opening_float)),
    pad("+ Cash taken", amt(z.cash_sales)),
    pad("- Cash refunded", amt(z.cash_refunds)),
    pad("- Change given", amt(z.change_given)),
    pad("Expected cash", amt(z.expected_cash)),
    pad("Counted cash", s.counted_cash == null ? "-" : amt(s.counted_cash)),
    pad("Difference", s.difference == null ? "-" : amt(s.difference)),
  ];
}

export const zReportPdf = (z: PosZReport) => rollPdf(`Z report ${z.session.id}`, zReportLines(z), null);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// The public e-receipt (/r/{token}): only this receipt, no sign-in, nothing else of the workspace.
export async function receiptHtml(o: PosOrderView, url: string): Promise<string> {
  const qr = await QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  const rows = o.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}<br><small>${escapeHtml(l.qty)} × ${escapeHtml(amt(l.unit_price))}${dec(l.discount_percent).isZero() ? "" : ` −${escapeHtml(l.discount_percent)}%`}</small></td><td class="n">${escapeHtml(amt(l.line_total))}</td></tr>`,
    )
    .join("");
  const pays = o.payments
    .map(
      (p) =>
        `<tr><td>${escapeHtml(METHOD[p.method] ?? p.method)}</td><td class="n">${escapeHtml(amt(p.method === "cash" ? p.tendered : p.amount))}</td></tr>`,
    )
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(`${o.kind === "refund" ? "Refund" : "Receipt"} ${o.number} — ${o.workspace_name}`)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;padding:16px;color:#1d1d1f}
main{max-width:380px;margin:0 auto;background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 4px #0002}
h1{font-size:1.2rem;margin:0}p{margin:4px 0;color:#5f6b76}table{width:100%;border-collapse:collapse;margin-top:12px}
td{padding:6px 0;border-bottom:1px solid #eee;vertical-align:top}.n{text-align:right;white-space:nowrap}
.t td{font-weight:700;font-size:1.1rem;border:0}.qr{width:120px;margin:16px auto 0;display:block}
@media print{body{background:#fff;padding:0}main{box-shadow:none;max-width:80mm;padding:0}}</style></head>
<body><main><h1>${escapeHtml(o.workspace_name)}</h1><p>${escapeHtml(o.location_name)}</p>
<p><strong>${o.kind === "refund" ? "Refund" : "Receipt"} ${escapeHtml(o.number)}</strong> · ${escapeHtml(when(String(o.created_at)))}</p>
${o.refund_of_number ? `<p>Refund of ${escapeHtml(o.refund_of_number)}</p>` : ""}
<table>${rows}
${dec(o.discount_total).isZero() ? "" : `<tr><td>Discounts</td><td class="n">${escapeHtml(amt(o.discount_total))}</td></tr>`}
<tr class="t"><td>Total (incl. GST)</td><td class="n">S$${escapeHtml(amt(o.total))}</td></tr>
<tr><td>GST 9% included</td><td class="n">${escapeHtml(amt(o.tax_total))}</td></tr>${pays}
${dec(o.change_given).isZero() ? "" : `<tr><td>Change</td><td class="n">${escapeHtml(amt(o.change_given))}</td></tr>`}</table>
<div class="qr" aria-label="QR code of this e-receipt">${qr}</div><p style="text-align:center">Prices include GST. Thank you!</p></main></body></html>`;
}
