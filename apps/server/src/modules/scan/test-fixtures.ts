import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import PDFDocument from "pdfkit";

// Test fixtures for the scan tests (issue 24): supplier invoices and receipts drawn by our own PDF renderer (pdfkit)
// in a few layouts, and the same pages rasterised to PNG (poppler's pdftoppm) with speckle noise and a small
// rotation, as a phone or a scanner gives them. Each fixture carries the truth the reading is scored against.

const run = promisify(execFile);

export type InvoiceTruth = {
  kind: "invoice";
  supplier: string;
  uen: string;
  number: string;
  date: string; // yyyy-mm-dd
  due: string;
  lines: Array<{ description: string; qty: number; price: number }>;
  gst: boolean;
  layout: 0 | 1 | 2;
  // Print a total this far off (a supplier's arithmetic slip).
  totalError?: number;
};

export type ReceiptTruth = {
  kind: "receipt";
  merchant: string;
  uen: string;
  number: string;
  date: string;
  items: Array<{ description: string; amount: number }>;
  layout: 0 | 1;
};

const r2 = (n: number) => Math.round(n * 100) / 100;
const m2 = (n: number) => n.toLocaleString("en-SG", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const dMonY = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

export function invoiceFigures(t: InvoiceTruth) {
  const subtotal = r2(t.lines.reduce((s, l) => s + r2(l.qty * l.price), 0));
  const gst = t.gst ? r2(subtotal * 0.09) : 0;
  return { subtotal, gst, total: r2(subtotal + gst + (t.totalError ?? 0)) };
}

export function receiptFigures(t: ReceiptTruth) {
  const total = r2(t.items.reduce((s, i) => s + i.amount, 0));
  const gst = r2((total * 9) / 109);
  return { total, gst };
}

function pdf(size: [number, number] | "A4", draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size, margin: 40 });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    draw(doc);
    doc.end();
  });
}

export function invoicePdf(t: InvoiceTruth): Promise<Buffer> {
  const f = invoiceFigures(t);
  return pdf("A4", (doc) => {
    const row = (y: number, cols: Array<[number, string, ("left" | "right")?]>) => {
      for (const [x, text, align] of cols) {
        if (align === "right") doc.text(text, x - 100, y, { width: 100, align: "right" });
        else doc.text(text, x, y, { lineBreak: false });
      }
    };
    doc.font("Helvetica-Bold").fontSize(t.layout === 1 ? 16 : 20);
    if (t.layout === 1) {
      doc.text("INVOICE", 40, 40);
      doc.text(t.supplier, 40, 64);
    } else {
      doc.text(t.supplier, 40, 40);
    }
    doc.font("Helvetica").fontSize(11);
    let y = t.layout === 1 ? 90 : 70;
    doc.text(t.layout === 2 ? `Co. Reg. No. ${t.uen}` : `UEN: ${t.uen}   GST Reg No: ${t.uen}`, 40, y);
    doc.text("10 Ubi Crescent, #05-12, Singapore 408564", 40, y + 16);
    y += 50;
    if (t.layout !== 1) {
      doc
        .font("Helvetica-Bold")
        .fontSize(15)
        .text(t.gst ? "TAX INVOICE" : "INVOICE", 40, y);
      doc.font("Helvetica").fontSize(11);
      y += 30;
    }
    const labels: Array<[string, string]> =
      t.layout === 0
        ? [
            ["Invoice No:", t.number],
            ["Invoice Date:", dMonY(t.date)],
            ["Due Date:", dmy(t.due)],
          ]
        : t.layout === 1
          ? [
              ["Invoice #", t.number],
              ["Date", dmy(t.date)],
              ["Payment due", dMonY(t.due)],
            ]
          : [
              ["Inv No.", t.number],
              ["Date:", t.date],
              ["Due date:", dMonY(t.due)],
            ];
    for (const [label, value] of labels) {
      doc.text(`${label} ${value}`, t.layout === 1 ? 330 : 40, y);
      y += 16;
    }
    doc.text("Bill To: Workmetrics Demo Pte Ltd", 40, y + 4);
    y += 36;
    doc.font("Helvetica-Bold");
    row(y, [
      [40, "Description"],
      [330, "Qty", "right"],
      [440, "Unit Price", "right"],
      [550, "Amount", "right"],
    ]);
    doc.font("Helvetica");
    y += 20;
    for (const l of t.lines) {
      row(y, [
        [40, l.description],
        [330, String(l.qty), "right"],
        [440, m2(l.price), "right"],
        [550, m2(r2(l.qty * l.price)), "right"],
      ]);
      y += 18;
    }
    y += 12;
    const totals: Array<[string, number]> = [[t.layout === 2 ? "Sub-total" : "Subtotal", f.subtotal]];
    if (t.gst) totals.push([t.layout === 1 ? "Add GST @ 9%" : "GST 9%", f.gst]);
    totals.push([t.layout === 0 ? "Total (SGD)" : t.layout === 1 ? "Amount Due" : "Grand Total SGD", f.total]);
    for (const [label, v] of totals) {
      row(y, [
        [330, label],
        [550, m2(v), "right"],
      ]);
      y += 18;
    }
    doc.fontSize(9).text("Payment by PayNow or bank transfer within 30 days. Thank you for your business.", 40, y + 30);
  });
}

export function receiptPdf(t: ReceiptTruth): Promise<Buffer> {
  const f = receiptFigures(t);
  return pdf([260, 420], (doc) => {
    doc.font("Helvetica-Bold").fontSize(14).text(t.merchant, 20, 20);
    doc.font("Helvetica").fontSize(10);
    doc.text(`GST Reg No: ${t.uen}`, 20, 42);
    doc.text("1 Raffles Place, Singapore", 20, 56);
    doc.text(`${t.layout === 0 ? "Receipt No:" : "Bill No."} ${t.number}`, 20, 80);
    doc.text(`Date: ${t.layout === 0 ? dmy(t.date) : dMonY(t.date)} 12:34`, 20, 94);
    let y = 118;
    for (const i of t.items) {
      doc.text(i.description, 20, y, { lineBreak: false });
      doc.text(m2(i.amount), 140, y, { width: 100, align: "right" });
      y += 15;
    }
    y += 8;
    doc.font("Helvetica-Bold").text("TOTAL", 20, y, { lineBreak: false });
    doc.text(m2(f.total), 140, y, { width: 100, align: "right" });
    doc.font("Helvetica");
    y += 15;
    doc.text("Incl. GST 9%", 20, y, { lineBreak: false });
    doc.text(m2(f.gst), 140, y, { width: 100, align: "right" });
    doc.text("Thank you! Please come again.", 20, y + 30);
  });
}

// A PDF's first page as a PNG at `dpi`, with speckles and turned by `degrees` (pdftoppm, then the PNG redrawn by
// the canvas package pdf.js itself uses on Node).
export async function rasterise(
  pdfBytes: Buffer,
  opts: { dpi?: number; degrees?: number; noise?: number; seed?: number; heightPt?: number } = {},
) {
  const dir = await mkdtemp(path.join(tmpdir(), "scan-fixture-"));
  try {
    await writeFile(path.join(dir, "in.pdf"), pdfBytes);
    const dpi = opts.dpi ?? 150;
    // heightPt: only the top of the page, where the print is (as a phone frames it).
    const crop = opts.heightPt
      ? ["-x", "0", "-y", "0", "-W", "9999", "-H", String(Math.ceil((opts.heightPt * dpi) / 72))]
      : [];
    await run("pdftoppm", [
      "-png",
      "-r",
      String(dpi),
      ...crop,
      "-singlefile",
      path.join(dir, "in.pdf"),
      path.join(dir, "out"),
    ]);
    const png = await readFile(path.join(dir, "out.png"));
    const { createCanvas, loadImage } = await import("@napi-rs/canvas");
    const img = await loadImage(png);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, img.width, img.height);
    ctx.translate(img.width / 2, img.height / 2);
    ctx.rotate(((opts.degrees ?? 0) * Math.PI) / 180);
    ctx.drawImage(img, -img.width / 2, -img.height / 2);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    // Speckles: a seeded scatter of grey dots.
    let s = opts.seed ?? 1;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const dots = Math.round((img.width * img.height * (opts.noise ?? 0.002)) / 4);
    for (let i = 0; i < dots; i++) {
      const g = Math.floor(80 + rnd() * 150);
      ctx.fillStyle = `rgb(${g},${g},${g})`;
      ctx.fillRect(Math.floor(rnd() * img.width), Math.floor(rnd() * img.height), 2, 2);
    }
    return canvas.toBuffer("image/png");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
