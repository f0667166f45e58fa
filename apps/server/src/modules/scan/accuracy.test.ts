import { afterAll, describe, expect, it } from "vitest";
import { extractInvoiceFields, extractReceiptFields } from "./extract.ts";
import { stopOcr } from "./ocr.ts";
import { readDocumentText } from "./read.ts";
import {
  type InvoiceTruth,
  invoiceFigures,
  invoicePdf,
  type ReceiptTruth,
  rasterise,
  receiptFigures,
  receiptPdf,
} from "./test-fixtures.ts";

// Issue 24: how well the OCR reads what phones and scanners give it. 20 documents made here (12 supplier invoices in
// three layouts, 8 receipts in two), rasterised to PNG with speckles and a small turn, read by the one warm
// tesseract.js worker, and every field compared with what was printed: the share read right is printed, and the
// test fails below the floor set from the measured figure (see the report: measured minus a margin).

const FLOOR = Number(process.env.SCAN_ACCURACY_FLOOR ?? 0.8);

const SUPPLIERS = [
  ["Lim Hardware Pte Ltd", "201912345K"],
  ["Tan & Sons Trading", "53123456A"],
  ["Eastern Packaging Pte. Ltd.", "200601234M"],
  ["Kallang Office Supplies LLP", "T09LL0001B"],
  ["Harbourfront Marine Services Pte Ltd", "201533344W"],
  ["Jurong Steel Works", "52987654X"],
  ["Sunrise Electrical Enterprise", "48123456C"],
] as const;
const ITEMS = [
  ["Steel bolts M8", 0.45],
  ["Cable ties 300mm", 3.2],
  ["Printer paper A4 (ream)", 5.5],
  ["Safety gloves", 2.8],
  ["Carton box 40x30x30", 1.85],
  ["PVC pipe 20mm", 7.6],
  ["Copper wire 2.5mm", 58.9],
  ["Forklift servicing", 320],
  ["Bubble wrap roll", 24.5],
  ["LED panel light", 46],
] as const;

function invoices(): InvoiceTruth[] {
  return Array.from({ length: 12 }, (_, i) => {
    const [supplier, uen] = SUPPLIERS[i % SUPPLIERS.length];
    const n = 1 + (i % 4);
    const lines = Array.from({ length: n }, (_, k) => {
      const [description, price] = ITEMS[(i * 3 + k) % ITEMS.length];
      return { description, qty: 1 + ((i * 7 + k * 5) % 40), price };
    });
    const day = 1 + ((i * 5) % 27);
    const month = 1 + (i % 11);
    const date = `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    const due = `2026-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    return {
      kind: "invoice",
      supplier,
      uen,
      number: [`INV-2026-${String(400 + i * 17).padStart(4, "0")}`, `${88100 + i * 31}`, `SI/${26}/${700 + i}`][i % 3],
      date,
      due,
      lines,
      gst: i % 5 !== 4,
      layout: (i % 3) as 0 | 1 | 2,
    };
  });
}

function receipts(): ReceiptTruth[] {
  const shops = [
    ["KOPI CORNER", "M90012345A"],
    ["FairPrice Xtra", "198300319Z"],
    ["Grab Holdings Taxi", "201606012K"],
  ] as const;
  return Array.from({ length: 8 }, (_, i) => {
    const [merchant, uen] = shops[i % shops.length];
    return {
      kind: "receipt",
      merchant,
      uen,
      number: `R${String(1000 + i * 97)}`,
      date: `2026-11-${String(2 + i * 3).padStart(2, "0")}`,
      items: Array.from({ length: 1 + (i % 3) }, (_, k) => ({
        description: ["Kopi O", "Kaya toast set", "Mineral water", "Trip fare", "Printer ink"][(i + k) % 5],
        amount: [1.8, 4.5, 2.2, 18.6, 36.9][(i + k) % 5],
      })),
      layout: (i % 2) as 0 | 1,
    };
  });
}

type Score = { right: number; total: number; misses: string[] };
const check = (s: Score, name: string, got: unknown, want: unknown) => {
  s.total++;
  const same =
    typeof want === "number"
      ? typeof got === "number" && Math.abs(got - want) < 0.005
      : String(got ?? "") === String(want);
  if (same) s.right++;
  else s.misses.push(`${name}: read ${JSON.stringify(got)}, printed ${JSON.stringify(want)}`);
};

describe("OCR accuracy over generated invoices and receipts", () => {
  afterAll(() => stopOcr());

  it("reads most fields right", { timeout: 300_000 }, async () => {
    const score: Score = { right: 0, total: 0, misses: [] };
    let ocrMs = 0;
    let pages = 0;
    const docs = [...invoices(), ...receipts()];
    for (const [i, t] of docs.entries()) {
      const pdf = t.kind === "invoice" ? await invoicePdf(t) : await receiptPdf(t);
      const png = await rasterise(pdf, {
        dpi: t.kind === "invoice" ? 120 : 150,
        heightPt: t.kind === "invoice" ? 500 : undefined,
        degrees: ((i % 5) - 2) * 0.6,
        noise: 0.0006,
        seed: i + 1,
      });
      const read = await readDocumentText(png, "image/png");
      ocrMs += read.ms;
      pages++;
      const tag = `${t.kind} ${i + 1}`;
      if (t.kind === "invoice") {
        const f = extractInvoiceFields(read.lines);
        const fig = invoiceFigures(t);
        check(score, `${tag} supplier`, f.supplier_name?.value, t.supplier);
        check(score, `${tag} uen`, f.supplier_uen?.value, t.uen);
        check(score, `${tag} number`, f.invoice_number?.value, t.number);
        check(score, `${tag} date`, f.invoice_date?.value, t.date);
        check(score, `${tag} due`, f.due_date?.value, t.due);
        check(score, `${tag} subtotal`, f.subtotal?.value, fig.subtotal);
        if (t.gst) check(score, `${tag} gst`, f.gst?.value, fig.gst);
        check(score, `${tag} total`, f.total?.value, fig.total);
        // Each printed line against the line read with its description (else the one in its place).
        for (const [k, l] of t.lines.entries()) {
          const got = f.lines.find((r) => r.description.value === l.description) ?? f.lines[k];
          check(score, `${tag} line ${k + 1} description`, got?.description.value, l.description);
          check(score, `${tag} line ${k + 1} qty`, got?.qty.value, l.qty);
          check(score, `${tag} line ${k + 1} price`, got?.unit_price.value, l.price);
        }
      } else {
        const f = extractReceiptFields(read.lines);
        const fig = receiptFigures(t);
        check(score, `${tag} merchant`, f.merchant?.value, t.merchant);
        check(score, `${tag} number`, f.receipt_number?.value, t.number);
        check(score, `${tag} date`, f.date?.value, t.date);
        check(score, `${tag} total`, f.total?.value, fig.total);
        check(score, `${tag} gst`, f.gst?.value, fig.gst);
      }
    }
    const accuracy = score.right / score.total;
    console.log(
      `OCR accuracy: ${score.right}/${score.total} fields = ${(accuracy * 100).toFixed(1)}% over ${docs.length} documents; ` +
        `${(ocrMs / pages / 1000).toFixed(2)} s per page (first includes the worker's start)\n  misses:\n  ${score.misses.join("\n  ")}`,
    );
    expect(docs.length).toBeGreaterThanOrEqual(20);
    expect(accuracy).toBeGreaterThanOrEqual(FLOOR);
  });
});
