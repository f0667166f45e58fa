import { describe, expect, it } from "vitest";
import {
  amountsIn,
  arithmeticProblems,
  dateIn,
  extractInvoiceFields,
  extractReceiptFields,
  invoiceLines,
  toLines,
  uenIn,
} from "./extract.ts";

const INVOICE = `Lim Hardware Pte Ltd
UEN: 201912345K   GST Reg No: 201912345K
TAX INVOICE
Invoice No: INV-2026-0412
Invoice Date: 12 Nov 2026
Due Date: 12/12/2026
Description  Qty  Unit Price  Amount
Steel bolts M8  100  0.45  45.00
Cable ties 300mm  20  3.20  64.00
Subtotal  109.00
GST 9%  9.81
Total SGD  118.81`;

describe("scan extractors", () => {
  it("reads amounts, dates and UENs as printed in Singapore", () => {
    expect(amountsIn("Total S$1,234.56 and 7.00")).toEqual([1234.56, 7]);
    expect(amountsIn("GST 9% 9.8O")).toEqual([9.8]);
    expect(dateIn("Date: 05/03/2026")).toBe("2026-03-05");
    expect(dateIn("12 Nov 2026")).toBe("2026-11-12");
    expect(dateIn("Nov 3, 2026")).toBe("2026-11-03");
    expect(dateIn("2026-11-27")).toBe("2026-11-27");
    expect(dateIn("31/02/2026")).toBeNull();
    expect(uenIn("UEN 53123456A")).toBe("53123456A");
    expect(uenIn("Reg T09LL0001B")).toBe("T09LL0001B");
    expect(uenIn("Tel 61234567")).toBeNull();
  });

  it("reads a supplier invoice: supplier, number, dates, lines and totals, each with a confidence", () => {
    const f = extractInvoiceFields(INVOICE);
    expect(f.supplier_name?.value).toBe("Lim Hardware Pte Ltd");
    expect(f.supplier_uen?.value).toBe("201912345K");
    expect(f.invoice_number?.value).toBe("INV-2026-0412");
    expect(f.invoice_date?.value).toBe("2026-11-12");
    expect(f.due_date?.value).toBe("2026-12-12");
    expect(f.currency?.value).toBe("SGD");
    expect(f.subtotal?.value).toBe(109);
    expect(f.gst?.value).toBe(9.81);
    expect(f.total?.value).toBe(118.81);
    expect(f.lines.map((l) => [l.description.value, l.qty.value, l.unit_price.value, l.amount.value])).toEqual([
      ["Steel bolts M8", 100, 0.45, 45],
      ["Cable ties 300mm", 20, 3.2, 64],
    ]);
    expect(f.invoice_number?.confidence).toBeGreaterThan(0.9);
    expect(arithmeticProblems(f)).toEqual([]);
  });

  it("carries the reading's own confidence into each field", () => {
    const lines = toLines(INVOICE).map((l) => (l.text.startsWith("Invoice No") ? { ...l, confidence: 0.5 } : l));
    const f = extractInvoiceFields(lines);
    expect(f.invoice_number?.confidence).toBeLessThan(0.5);
    expect(f.total?.confidence).toBeGreaterThan(0.9);
  });

  it("says in words what does not add up", () => {
    const f = extractInvoiceFields(INVOICE.replace("Total SGD  118.81", "Total SGD  128.81"));
    expect(arithmeticProblems(f)).toEqual(["109.00 + GST 9.81 is 118.81, but the total reads 128.81"]);
    const g = extractInvoiceFields(INVOICE.replace("GST 9%  9.81", "GST 9%  7.63"));
    expect(arithmeticProblems(g)[0]).toBe("GST reads 7.63, but 9% of 109.00 is 9.81");
    const lines = invoiceLines(toLines("Widgets  3  2.00  7.00"));
    expect(arithmeticProblems({ lines, total: lines[0].amount })[0]).toBe("Line 1: 3 × 2.00 is 6.00, not 7.00");
    expect(arithmeticProblems({})).toEqual(["No total could be read"]);
  });

  it("reads another layout: labels on the right, dd-mm-yy, Amount Due", () => {
    const f = extractInvoiceFields(`INVOICE
Tan & Sons Trading
Co. Reg. No. 53123456A
Bill To: Workmetrics Demo Pte Ltd
Inv # 88123     Date 03-11-26
Payment due 03 Dec 2026
1. Printer paper A4  10 x 5.50  55.00
Sub-total 55.00
Add GST @ 9% 4.95
Amount Due S$59.95`);
    expect(f.supplier_name?.value).toBe("Tan & Sons Trading");
    expect(f.supplier_uen?.value).toBe("53123456A");
    expect(f.invoice_number?.value).toBe("88123");
    expect(f.invoice_date?.value).toBe("2026-11-03");
    expect(f.due_date?.value).toBe("2026-12-03");
    expect(f.lines[0].description.value).toBe("Printer paper A4");
    expect(f.total?.value).toBe(59.95);
    expect(arithmeticProblems(f)).toEqual([]);
  });

  it("reads a receipt: merchant, date, GST and total", () => {
    const r = extractReceiptFields(`KOPI CORNER
GST Reg No: M2-0012345-6
123 Tanjong Pagar Road
Receipt No: R0098
Date: 27/11/2026 12:31
Kopi O  1.80
Kaya toast set  4.50
Subtotal  6.30
GST 9%  0.57
TOTAL  6.87
Paid by Card`);
    expect(r.merchant?.value).toBe("KOPI CORNER");
    expect(r.receipt_number?.value).toBe("R0098");
    expect(r.date?.value).toBe("2026-11-27");
    expect(r.subtotal?.value).toBe(6.3);
    expect(r.gst?.value).toBe(0.57);
    expect(r.total?.value).toBe(6.87);
  });
});
