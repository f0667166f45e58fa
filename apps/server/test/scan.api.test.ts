import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopOcr } from "../src/modules/scan/ocr.ts";
import { type InvoiceTruth, invoicePdf, rasterise } from "../src/modules/scan/test-fixtures.ts";
import { baseUrl } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 24 "OCR" (DESIGN §2.3.2 "Scans"): a stored supplier invoice (a PDF with its text layer, and a photo read by
// tesseract.js) becomes a draft with each field's confidence — supplier by UEN or name, number, dates, lines,
// totals — never a submitted one; arithmetic that does not add up and an unknown supplier send it to review with
// the reason; a bad path, another workspace's file, a role that may not make supplier invoices and a tier without
// OCR are refused and make nothing.

const own = ownServer({}, 300_000);
const FINANCE = "finance@demo.test"; // supplier_invoice.* and files; adds no companies
const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const OTHER = "owner@orchard.test";
const PRO = "owner@pro.test";

type Answer = { status: number; text: string; body: Record<string, unknown> & { message?: string } };
const call = async (email: string, fn: string, args: unknown) =>
  (await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) })) as unknown as Answer;

async function upload(email: string, path: string, bytes: Buffer, type: string) {
  const headers = { apikey: await getAnonKey(), authorization: `Bearer ${await tokenFor(email)}` };
  await fetch(`${baseUrl()}/storage/v1/bucket`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "files", public: false }),
  });
  const res = await fetch(`${baseUrl()}/storage/v1/object/files/${path}`, {
    method: "POST",
    headers: { ...headers, "content-type": type, "x-upsert": "true" },
    body: new Uint8Array(bytes),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const SUPPLIER = { name: "Kallang Scan Supplies Pte Ltd", uen: "201811122R" };
const truth = (over: Partial<InvoiceTruth> = {}): InvoiceTruth => ({
  kind: "invoice",
  supplier: SUPPLIER.name,
  uen: SUPPLIER.uen,
  number: `KSS-${Date.now() % 100000}`,
  date: "2026-11-12",
  due: "2026-12-12",
  lines: [
    { description: "Cable ties 300mm", qty: 20, price: 3.2 },
    { description: "Steel bolts M8", qty: 100, price: 0.45 },
  ],
  gst: true,
  layout: 0,
  ...over,
});
const invoiceCount = async () =>
  Number((await own.q<{ n: string }>(sql`select count(*)::text as n from supplier_invoice`))[0].n);

let supplierId = 0;
beforeAll(async () => {
  const made = await restFetch(ADMIN, "company", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ ...SUPPLIER, is_supplier: true }),
  });
  expect(made.status, made.text).toBe(201);
  supplierId = Number((made.body as Array<{ id: number }>)[0].id);
}, 120_000);
afterAll(() => stopOcr());

describe("document_from_scan: a supplier invoice", () => {
  it("a stored PDF becomes a draft with what was read, each field with its confidence", async () => {
    const t = truth();
    await upload(FINANCE, "scans/invoice-1.pdf", await invoicePdf(t), "application/pdf");
    const res = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/invoice-1.pdf",
    });
    expect(res.status, res.text).toBe(200);
    const a = res.body as {
      id: number;
      fields: Record<string, unknown>;
      confidence: Record<string, number>;
      review_reasons: string[];
      needs_review: boolean;
      source: string;
    };
    expect(a.source).toBe("text_layer");
    expect(a.review_reasons).toEqual([]);
    expect(a.needs_review).toBe(false);
    expect(a.fields).toMatchObject({
      supplier_name: SUPPLIER.name,
      supplier_uen: SUPPLIER.uen,
      supplier_id: supplierId,
      supplier_matched_by: "uen",
      invoice_number: t.number,
      invoice_date: "2026-11-12",
      due_date: "2026-12-12",
      subtotal: 109,
      gst: 9.81,
      total: 118.81,
    });
    expect(a.confidence.invoice_number).toBeGreaterThan(0.9);
    expect(a.confidence["lines.1.qty"]).toBeGreaterThan(0.9);

    const doc = await restFetch(
      FINANCE,
      `supplier_invoice?id=eq.${a.id}&select=status,number,company_id,supplier_invoice_number,doc_date,due_date,net_total,tax_total,total,lines:supplier_invoice_line(description,qty,unit_price)`,
    );
    const [row] = doc.body as Array<Record<string, unknown> & { lines: Array<Record<string, string>> }>;
    expect(row).toMatchObject({
      status: "draft",
      number: null,
      company_id: supplierId,
      supplier_invoice_number: t.number,
      doc_date: "2026-11-12",
      due_date: "2026-12-12",
      net_total: "109.00",
      tax_total: "9.81",
      total: "118.81",
    });
    expect(row.lines.map((l) => [l.description, Number(l.qty), Number(l.unit_price)])).toEqual([
      ["Cable ties 300mm", 20, 3.2],
      ["Steel bolts M8", 100, 0.45],
    ]);
    // The scanned file is kept beside the draft.
    const files = await own.q<{ name: string }>(sql`select name from storage_object
      where name like ${`documents/supplier_invoice/${a.id}/%`}`);
    expect(files.map((f) => f.name)).toEqual([`documents/supplier_invoice/${a.id}/scan-invoice-1.pdf`]);
    // The draft's page reads the scan back.
    const back = await call(FINANCE, "document_scan_get", { type: "supplier_invoice", id: a.id });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ id: a.id, fields: { total: 118.81 }, review_reasons: [] });
  });

  it("a total that does not add up, and a supplier only matched by name, go to review with the reason", async () => {
    const t = truth({ totalError: 10, uen: "201899999Z", supplier: "Kallang Scan Supplies", layout: 2 });
    await upload(FINANCE, "scans/invoice-2.pdf", await invoicePdf(t), "application/pdf");
    const res = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/invoice-2.pdf",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.fields).toMatchObject({ supplier_id: supplierId, supplier_matched_by: "name", total: 128.81 });
    expect(res.body.needs_review).toBe(true);
    expect(res.body.review_reasons).toContain("109.00 + GST 9.81 is 118.81, but the total reads 128.81");
    const row = (await restFetch(FINANCE, `supplier_invoice?id=eq.${res.body.id}&select=status`)).body;
    expect(row).toEqual([{ status: "draft" }]);
  });

  it("an unknown supplier: refused to a clerk who adds no companies, added for review by one who may", async () => {
    const t = truth({ supplier: "Brand New Vendor Pte Ltd", uen: "202455555D" });
    await upload(FINANCE, "scans/invoice-3.pdf", await invoicePdf(t), "application/pdf");
    const args = { type: "supplier_invoice", bucket: "files", path: "scans/invoice-3.pdf" };
    const before = await invoiceCount();
    const refused = await call(FINANCE, "document_from_scan", args);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'No supplier "Brand New Vendor Pte Ltd" in this workspace: add it, then scan again',
    );
    expect(await invoiceCount()).toBe(before);
    const made = await call(ADMIN, "document_from_scan", args);
    expect(made.status, made.text).toBe(200);
    expect((made.body.review_reasons as string[])[0]).toBe(
      'Supplier not found by UEN 202455555D or name: "Brand New Vendor Pte Ltd" was added as a new supplier — check it',
    );
  });

  it("a photo is read by OCR into a draft", { timeout: 180_000 }, async () => {
    const t = truth({ number: "PHOTO-4417", layout: 1 });
    const png = await rasterise(await invoicePdf(t), { dpi: 130, heightPt: 500, degrees: 0.7, noise: 0.0005, seed: 9 });
    await upload(FINANCE, "scans/photo.png", png, "image/png");
    const res = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/photo.png",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.source).toBe("ocr");
    expect(res.body.fields).toMatchObject({ supplier_id: supplierId, total: 118.81 });
    const conf = res.body.confidence as Record<string, number>;
    expect(conf.total).toBeGreaterThan(0.5);
    expect(conf.total).toBeLessThanOrEqual(1);
  });
});

describe("document_from_scan: refusals change nothing", () => {
  it("a missing file, a bad type, and another workspace's file", async () => {
    const before = await invoiceCount();
    const missing = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/none.pdf",
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('There is no file "scans/none.pdf" in bucket "files" of this workspace');
    const badType = await call(FINANCE, "document_from_scan", {
      type: "quotation",
      bucket: "files",
      path: "scans/invoice-1.pdf",
    });
    expect([400, 422]).toContain(badType.status);
    expect(badType.text).toMatch(/supplier_invoice/);
    const noPath = await call(FINANCE, "document_from_scan", { type: "supplier_invoice", bucket: "files" });
    expect([400, 422]).toContain(noPath.status);
    expect(noPath.text).toMatch(/path/);

    await upload(OTHER, "scans/theirs.pdf", await invoicePdf(truth()), "application/pdf");
    const theirs = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/theirs.pdf",
    });
    expect(theirs.status).toBe(404);
    expect(await invoiceCount()).toBe(before);
  });

  it("a role that makes no supplier invoices, and a tier without OCR, are refused", async () => {
    const args = { type: "supplier_invoice", bucket: "files", path: "scans/invoice-1.pdf" };
    const sales = await call(SALES, "document_from_scan", args);
    expect(sales.status, sales.text).toBe(403);
    const pro = await call(PRO, "document_from_scan", args);
    expect(pro.status, pro.text).toBe(403);
    expect(pro.body.message).toMatch(/Premium/);
  });

  it("a file that is no invoice is refused in words", async () => {
    await upload(FINANCE, "scans/notes.txt", Buffer.from("just some notes"), "text/plain");
    const res = await call(FINANCE, "document_from_scan", {
      type: "supplier_invoice",
      bucket: "files",
      path: "scans/notes.txt",
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("A text/plain cannot be read: upload a PDF, PNG, JPEG or WebP");
  });
});
