import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatMoney } from "@workmetrics/domain/money";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, inRequest } from "../src/platform/db/database.ts";
import { type Doc, ok, type Product, products, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { baseUrl, useServer } from "./http.ts";
import { guest, makeForm, submit as submitOrder } from "./orders-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 10 §3 and DESIGN §2.3.1 "Printing": GET /api/documents/{type}/{id}/pdf for every selling type, the customer
// statement, and document_email through a real SMTP server. The PDFs are read back with poppler's pdftotext, so
// the assertions are about what a customer would read on the page.

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";
const DRIVER = "driver@demo.test";
let server: TestServer;
let db: Db;
let ws = "";
let item: Product;
let location = 0;
let company = 0;
let contact = 0;
let workspaceName = "";
const tmp = mkdtempSync(path.join(os.tmpdir(), "workmetrics-pdf-"));
// PDF_OUT=/some/dir keeps every PDF the tests print, to look at them (pdftoppm -png -r 60 file.pdf page).
const keep = process.env.PDF_OUT;
// A 48×16 PNG in the brand's blue: the workspace's logo (a data URL on the workspace, migration 0007).
const LOGO =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADAAAAAQCAIAAADfzGvmAAAAKElEQVR4nGMwW3h+UCGGAXfBqINGHTTqoFEHDbQLRh006qBRB9EZAQAeKPI9kU4AOQAAAABJRU5ErkJggg==";

// A real SMTP receiver keeping each message whole (the attachment is checked, not only the text).
type Caught = { to: string[]; raw: string };
const caught: Caught[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      caught.push({
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        raw: Buffer.concat(chunks).toString("utf8"),
      });
      callback();
    });
  },
});

const q = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  inRequest(
    db,
    { workspaceId: ws, userId: null, role: "authenticated" },
    async (tx) => (await tx.execute(query)).rows as T[],
  );

async function pdf(email: string | null, url: string) {
  const headers: Record<string, string> = email ? { authorization: `Bearer ${await tokenFor(email)}` } : {};
  const res = await fetch(`${baseUrl()}${url}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get("content-type") ?? "", body };
}

const json = (body: Buffer) => JSON.parse(body.toString("utf8")) as { message?: string; error?: string };

let n = 0;
function textOf(buf: Buffer): string {
  const file = path.join(keep ?? tmp, `doc-${++n}.pdf`);
  writeFileSync(file, buf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}
function pagesOf(buf: Buffer): number {
  const file = path.join(tmp, `doc-${++n}.pdf`);
  writeFileSync(file, buf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);
}
// -layout leaves rotated text (the watermark) out; -raw keeps it.
function rawTextOf(buf: Buffer): string {
  const file = path.join(tmp, `doc-${++n}.pdf`);
  writeFileSync(file, buf);
  return execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
}
// The images on a PDF's pages (pdfimages -list: two header lines, then one per image).
function imagesOf(buf: Buffer): number {
  const file = path.join(tmp, `doc-${++n}.pdf`);
  writeFileSync(file, buf);
  return execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").length - 2;
}

async function printed(type: string, id: number) {
  const res = await pdf(ADMIN, `/api/documents/${type}/${id}/pdf`);
  expect(res.status, res.body.toString("utf8").slice(0, 300)).toBe(200);
  expect(res.type).toBe("application/pdf");
  expect(res.body.subarray(0, 5).toString()).toBe("%PDF-");
  return textOf(res.body);
}

const save = (type: string, header: Record<string, unknown>, lines: Array<Record<string, unknown>>) =>
  ok(ADMIN, "document_save", { type, header: { company_id: company, ...header }, lines });
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });
const convert = (type: string, id: number, to: string, header?: Record<string, unknown>) =>
  ok(ADMIN, "document_convert", { type, id, to, ...(header ? { header } : {}) });

async function newCompany(fields: Record<string, unknown>): Promise<number> {
  const res = await restFetch(ADMIN, "company", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ is_customer: true, ...fields }),
  });
  expect(res.status, res.text).toBe(201);
  return (res.body as Array<{ id: number }>)[0].id;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const address = smtp.server.address();
  const port = address && typeof address === "object" ? address.port : 0;
  server = await startTestServer({ LOG_LEVEL: "silent", SMTP_URL: `smtp://127.0.0.1:${port}` });
  useServer(server.url);
  db = server.running.database.db;
  const row = (await db.execute(sql`select id, name from workspace where slug = 'demo'`)).rows[0] as {
    id: string;
    name: string;
  };
  ws = row.id;
  workspaceName = row.name;
  [item] = await products(ADMIN, 1);
  const locs = (await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  location = locs[0].id;
  await q(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
    values (${ws}::uuid, ${item.id}, ${location}, 1000, ${item.cost}, 'opening', 0)`);
  company = await newCompany({
    name: "Printwell Trading Pte Ltd",
    email: "accounts@printwell.example",
    billing_address: "8 Robinson Road #04-01\nSingapore 048544",
    shipping_address: "21 Tuas Avenue 3\nSingapore 639415",
  });
  const res = await restFetch(ADMIN, "contact", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ company_id: company, name: "Mei Lin Tan", email: "meilin@printwell.example" }),
  });
  expect(res.status, res.text).toBe(201);
  contact = (res.body as Array<{ id: number }>)[0].id;
}, 400_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

// Printed by the first test, used by the refusals and the statement.
let order: Doc;
let invoice: Doc;

describe("document PDFs", () => {
  it("a quotation, a sales order, a delivery order and a tax invoice print with their number and total", async () => {
    const quote = await submit(
      "quotation",
      (
        await save("quotation", { contact_id: contact, notes: "Prices valid for 30 days." }, [
          { product_id: item.id, qty: "3" },
        ])
      ).id,
    );
    let text = await printed("quotation", quote.id);
    expect(text).toContain("Quotation");
    expect(text).toContain(quote.number as string);
    expect(text).toContain(formatMoney(String(quote.total)));
    expect(text).toContain("Printwell Trading Pte Ltd");
    expect(text).toContain("Attn: Mei Lin Tan");
    expect(text).toContain("Prices valid for 30 days.");
    expect(text).toMatch(/Page 1 of 1/);
    expect(text).not.toContain("DRAFT");

    order = await submit("sales_order", (await convert("quotation", quote.id, "sales_order")).id);
    text = await printed("sales_order", order.id);
    expect(text).toContain("Sales Order");
    expect(text).toContain(order.number as string);
    expect(text).toContain(formatMoney(String(order.total)));
    expect(text).toContain(quote.number as string); // made from

    const delivery = await submit(
      "delivery_order",
      (await convert("sales_order", order.id, "delivery_order", { location_id: location })).id,
    );
    text = await printed("delivery_order", delivery.id);
    expect(text).toContain("Delivery Order");
    expect(text).toContain(delivery.number as string);
    expect(text).toContain("21 Tuas Avenue 3"); // delivered to the shipping address
    expect(text).toContain("Received by (name)");
    expect(text).not.toContain(formatMoney(String(delivery.total))); // a delivery note shows no prices

    invoice = await submit("invoice", (await convert("delivery_order", delivery.id, "invoice")).id);
    text = await printed("invoice", invoice.id);
    expect(text).toContain("Tax Invoice");
    expect(text).toContain(invoice.number as string);
    expect(text).toContain(formatMoney(String(invoice.total)));
    expect(text).toMatch(new RegExp(`Amount due\\s+${formatMoney(String(invoice.outstanding))}`));
    expect(text).toMatch(/GST 9% \(SR\) on [\d,]+\.\d\d\s+SGD [\d,]+\.\d\d/);
    expect(text).toContain(workspaceName);
  });

  it("prints the workspace's logo", async () => {
    const res = await fetch(`${baseUrl()}/api/workspace/logo`, {
      method: "PUT",
      headers: { authorization: `Bearer ${await tokenFor(ADMIN)}`, "content-type": "application/json" },
      body: JSON.stringify({ logo: LOGO }),
    });
    expect(res.status).toBe(200);
    const printed = await pdf(ADMIN, `/api/documents/invoice/${invoice.id}/pdf`);
    expect(imagesOf(printed.body)).toBe(1);
  });

  it("prints dates and amounts in the workspace's locale: en-SG (day first) for SGD, month first for USD (issue 21 §1)", async () => {
    const [y, m, d] = String(invoice.doc_date).slice(0, 10).split("-");
    const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(m) - 1];
    const text = await printed("invoice", invoice.id);
    expect(text).toMatch(new RegExp(`Date\\s+${Number(d)} ${mon} ${y}`));
    expect(text).not.toContain(`${mon} ${Number(d)}, ${y}`);
    expect(text).not.toContain(`${m}/${d}/${y}`);
    expect(text).toContain(formatMoney(String(invoice.total))); // SGD 1,234.50
    // The same invoice in a US-dollar workspace reads month first: the locale follows the workspace, not the server.
    await db.execute(sql`update workspace set base_currency = 'USD' where id = ${ws}::uuid`);
    try {
      const us = await printed("invoice", invoice.id);
      expect(us).toMatch(new RegExp(`Date\\s+${mon} ${Number(d)}, ${y}`));
    } finally {
      await db.execute(sql`update workspace set base_currency = 'SGD' where id = ${ws}::uuid`);
    }
    expect(await printed("invoice", invoice.id)).toMatch(new RegExp(`Date\\s+${Number(d)} ${mon} ${y}`));
  });

  it("a 60-line draft invoice breaks across pages with page numbers and a DRAFT watermark", async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      product_id: item.id,
      qty: "1",
      description: `Printed line ${i + 1} of sixty`,
    }));
    const draft = await save("invoice", {}, lines);
    const res = await pdf(ADMIN, `/api/documents/invoice/${draft.id}/pdf`);
    expect(res.status).toBe(200);
    const pages = pagesOf(res.body);
    expect(pages).toBeGreaterThan(1);
    const text = textOf(res.body);
    for (let i = 1; i <= pages; i++) expect(text).toContain(`Page ${i} of ${pages}`);
    for (const l of lines) expect(text).toContain(l.description);
    // The watermark on every page, and the status beside the title.
    expect(rawTextOf(res.body).match(/DRAFT/g)?.length).toBe(pages + 1);
    expect(text.match(/Unit price/g)?.length).toBe(pages); // the table header on every page
    expect(text).toContain(formatMoney(String(draft.total)));
  });

  it("is refused to the signed out (401), to a role that may not read invoices (403) and across workspaces (404)", async () => {
    const url = `/api/documents/invoice/${invoice.id}/pdf`;
    const anon = await pdf(null, url);
    expect(anon.status).toBe(401);
    expect(json(anon.body).error).toBe("not_authenticated");

    const driver = await pdf(DRIVER, url);
    expect(driver.status).toBe(403);
    expect(json(driver.body).message).toBe("You do not have permission to read invoices");

    const them = await pdf(THEM, url);
    expect(them.status).toBe(404);
    expect(json(them.body).message).toBe(`There is no invoice ${invoice.id} in this workspace`);
    expect(them.body.toString("utf8")).not.toContain(invoice.number as string);

    expect((await pdf(ADMIN, "/api/documents/invoice/999999/pdf")).status).toBe(404);
    expect((await pdf(ADMIN, "/api/documents/spaceship/1/pdf")).status).toBe(404);
    expect((await pdf(ADMIN, "/api/documents/invoice/abc/pdf")).status).toBe(400);
  });
});

describe("customer statement", () => {
  it("lists the period's invoices and receipts with a running balance that closes at what the customer owes", async () => {
    const a = await submit("invoice", (await save("invoice", {}, [{ product_id: item.id, qty: "2" }])).id);
    const b = await submit("invoice", (await save("invoice", {}, [{ product_id: item.id, qty: "5" }])).id);
    const part = (Math.floor(Number(a.total) * 50) / 100).toFixed(2);
    const paid = await rpc(ADMIN, "record_payment", {
      type: "receipt",
      company_id: company,
      amount: part,
      method: "bank_transfer",
      reference: "TT-889",
      allocations: [{ document_type: "invoice", document_id: a.id, amount: part }],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const owed = (
      await restFetch(ADMIN, `invoice?select=outstanding&company_id=eq.${company}&status=not.in.(draft,cancelled)`)
    ).body as Array<{ outstanding: string }>;
    const total = owed.reduce((s, r) => s + Math.round(Number(r.outstanding) * 100), 0) / 100;

    const res = await pdf(ADMIN, `/api/documents/statement/${company}/pdf`);
    expect(res.status, res.body.toString("utf8").slice(0, 300)).toBe(200);
    expect(res.type).toBe("application/pdf");
    const text = textOf(res.body);
    expect(text).toContain("Statement of Account");
    expect(text).toContain("Printwell Trading Pte Ltd");
    for (const d of [invoice, a, b]) expect(text).toContain(d.number as string);
    expect(text).toContain((paid.body as { number: string }).number);
    expect(text).toContain("TT-889"); // the receipt's reference
    expect(text).toMatch(new RegExp(`Balance due\\s+${formatMoney(total.toFixed(2))}`));
    expect(text).toContain("Over 90");

    // A period after everything: the balance is brought forward, nothing listed.
    const later = textOf(
      (await pdf(ADMIN, `/api/documents/statement/${company}/pdf?from=2099-01-01&to=2099-01-31`)).body,
    );
    expect(later).toMatch(new RegExp(`Balance brought forward\\s+${formatMoney(total.toFixed(2))}`));
    expect(later).not.toContain(a.number as string);
  });

  it("refuses bad periods, other workspaces' customers and roles that may not read the ledger", async () => {
    const bad = await pdf(ADMIN, `/api/documents/statement/${company}/pdf?from=2026-05-01&to=2026-04-01`);
    expect(bad.status).toBe(400);
    expect((await pdf(ADMIN, `/api/documents/statement/${company}/pdf?to=2026-02-30`)).status).toBe(400);
    const them = await pdf(THEM, `/api/documents/statement/${company}/pdf`);
    expect(them.status).toBe(404);
    const driver = await pdf(DRIVER, `/api/documents/statement/${company}/pdf`);
    expect(driver.status).toBe(403);
    expect(json(driver.body).message).toBe("You do not have permission to read accounts receivable");
    // Salespeople read invoices but not who owes what (REPORT_ACCESS.customer_statement).
    expect((await pdf("sales@demo.test", `/api/documents/statement/${company}/pdf`)).status).toBe(403);
    expect((await pdf(null, `/api/documents/statement/${company}/pdf`)).status).toBe(401);
  });
});

describe("document_email", () => {
  const events = (type: string, id: number) =>
    q<{ action: string; reason: string; changes: { to: string[] } }>(sql`select action, reason, changes
      from document_event where workspace_id = ${ws}::uuid and doc_type = ${type} and doc_id = ${id} and action = 'email'`);

  it("sends the PDF to the document's contact over SMTP and logs it in the audit history", async () => {
    const inv = await submit(
      "invoice",
      (await save("invoice", { contact_id: contact }, [{ product_id: item.id, qty: "1" }])).id,
    );
    const res = await rpc(ADMIN, "document_email", {
      type: "invoice",
      id: inv.id,
      message: "Thank you for your order.",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ number: inv.number, to: ["meilin@printwell.example"], mail: "queued" });
    await server.running.app.jobs.drained(); // the outbox: the server's worker sends it after the commit
    const mail = caught.find((m) => m.to.includes("meilin@printwell.example") && m.raw.includes(inv.number as string));
    expect(mail).toBeDefined();
    const raw = mail?.raw ?? "";
    expect(raw).toMatch(new RegExp(`^Subject: Invoice ${inv.number} from ${workspaceName}`, "m"));
    expect(raw).toContain("Thank you for your order.");
    // Issue 21 §1: the body spells the day as the workspace's locale (en-SG) does, day first.
    const [y, m, d] = String(inv.doc_date).slice(0, 10).split("-");
    const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(m) - 1];
    expect(raw.replace(/=\r?\n/g, "").replace(/\s+/g, " ")).toContain(`dated ${Number(d)} ${mon} ${y}`);
    expect(raw).toMatch(new RegExp(`^From: "?${workspaceName} via Workmetrics`, "m"));
    expect(raw).toMatch(/Content-Type: application\/pdf; name=.?INV-/);
    // The attachment is the invoice's PDF.
    const part = raw.split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/.test(p)) ?? "";
    const base64 = part.split(/\r?\n\r?\n/)[1]?.replace(/\s+/g, "") ?? "";
    const attached = Buffer.from(base64, "base64");
    expect(attached.subarray(0, 5).toString()).toBe("%PDF-");
    expect(textOf(attached)).toContain(inv.number as string);

    const logged = await events("invoice", inv.id);
    expect(logged).toHaveLength(1);
    expect(logged[0].reason).toBe("E-mail to meilin@printwell.example");
  });

  it("sends to the address given (and copies), else the customer's e-mail; refuses drafts and no address", async () => {
    const quote = await submit("quotation", (await save("quotation", {}, [{ product_id: item.id, qty: "1" }])).id);
    const res = await rpc(ADMIN, "document_email", {
      type: "quotation",
      id: quote.id,
      to: "buyer@elsewhere.example",
      cc: ["boss@elsewhere.example"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await server.running.app.jobs.drained();
    const mail = caught.find((m) => m.raw.includes(quote.number as string));
    expect(mail?.to.sort()).toEqual(["boss@elsewhere.example", "buyer@elsewhere.example"]);
    expect((await events("quotation", quote.id))[0].reason).toBe(
      "E-mail to buyer@elsewhere.example (cc boss@elsewhere.example)",
    );

    const plain = await submit("quotation", (await save("quotation", {}, [{ product_id: item.id, qty: "1" }])).id);
    expect((await rpc(ADMIN, "document_email", { type: "quotation", id: plain.id })).body).toMatchObject({
      to: ["accounts@printwell.example"],
    });

    const draft = await save("quotation", {}, [{ product_id: item.id, qty: "1" }]);
    const refused = await rpc(ADMIN, "document_email", { type: "quotation", id: draft.id });
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe(
      "A draft quotation has no number yet; submit it before e-mailing it",
    );

    const silent = await newCompany({ name: "No Mail Pte Ltd" });
    const q2 = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id: silent },
      lines: [{ product_id: item.id, qty: "1" }],
    });
    const sent = await submit("quotation", q2.id);
    const none = await rpc(ADMIN, "document_email", { type: "quotation", id: q2.id });
    expect(none.status).toBe(422);
    expect((none.body as { message: string }).message).toBe(
      `Neither the contact nor No Mail Pte Ltd has an e-mail address; enter one to send ${sent.number} to`,
    );
    expect(await events("quotation", q2.id)).toHaveLength(0);

    const bad = await rpc(ADMIN, "document_email", { type: "quotation", id: quote.id, to: "not-an-address" });
    expect(bad.status).toBe(422);
  });

  it("is refused across workspaces and to roles that may not read the document", async () => {
    const inv = await submit("invoice", (await save("invoice", {}, [{ product_id: item.id, qty: "1" }])).id);
    const before = caught.length;
    const them = await rpc(THEM, "document_email", { type: "invoice", id: inv.id, to: "x@example.com" });
    expect(them.status).toBe(404);
    const driver = await rpc(DRIVER, "document_email", { type: "invoice", id: inv.id, to: "x@example.com" });
    expect(driver.status).toBe(403);
    await server.running.app.jobs.drained();
    expect(caught.length).toBe(before);
    expect(await events("invoice", inv.id)).toHaveLength(0);
  });
});

describe("the other document types print from their declarations", () => {
  it("credit note, debit note, goods return note and delivery instruction", async () => {
    const so = await submit("sales_order", (await save("sales_order", {}, [{ product_id: item.id, qty: "4" }])).id);
    const users = (await restFetch(ADMIN, "user?select=id,name&email=eq.driver@demo.test")).body as Array<{
      id: string;
      name: string;
    }>;
    const di = await convert("sales_order", so.id, "delivery_instruction", {
      planned_date: "2026-12-01",
      driver_id: users[0].id,
      location_id: location,
    });
    let text = await printed("delivery_instruction", di.id);
    expect(text).toContain("Delivery Instruction");
    expect(text).toContain("DRAFT");
    expect(text).toContain(users[0].name); // the driver, by name
    expect(text).toContain("1 Dec 2026");

    const delivery = await submit(
      "delivery_order",
      (await convert("sales_order", so.id, "delivery_order", { location_id: location })).id,
    );
    const inv = await submit("invoice", (await convert("delivery_order", delivery.id, "invoice")).id);

    const grn = await submit(
      "goods_return_note",
      (
        await ok(ADMIN, "document_convert", {
          type: "delivery_order",
          id: delivery.id,
          to: "goods_return_note",
          lines: [{ line_id: delivery.lines[0].id, qty: "1" }],
        })
      ).id,
    );
    text = await printed("goods_return_note", grn.id);
    expect(text).toContain("Goods Return Note");
    expect(text).toContain(grn.number as string);
    expect(text).toContain("Returned by (name)");
    expect(text).toContain(delivery.number as string); // made from

    const cn = await submit(
      "credit_note",
      (
        await ok(ADMIN, "document_convert", {
          type: "invoice",
          id: inv.id,
          to: "credit_note",
          lines: [{ line_id: inv.lines[0].id, qty: "1" }],
        })
      ).id,
    );
    text = await printed("credit_note", cn.id);
    expect(text).toContain("Credit Note");
    expect(text).toContain(cn.number as string);
    expect(text).toContain(inv.number as string);
    expect(text).toContain(formatMoney(String(cn.total)));

    const dn = await convert("invoice", inv.id, "debit_note");
    const charged = await submit(
      "debit_note",
      (
        await ok(ADMIN, "document_save", {
          type: "debit_note",
          id: dn.id,
          header: { company_id: company, invoice_id: inv.id },
          lines: [{ description: "Late delivery surcharge", qty: "1", unit_price: "50" }],
        })
      ).id,
    );
    text = await printed("debit_note", charged.id);
    expect(text).toContain("Debit Note");
    expect(text).toContain("Late delivery surcharge");
    expect(text).toMatch(new RegExp(`Amount due\\s+${formatMoney(String(charged.outstanding))}`));
  });
});

describe("an amendment", () => {
  it("names the cancelled document it replaces", async () => {
    const quote = await submit("quotation", (await save("quotation", {}, [{ product_id: item.id, qty: "1" }])).id);
    await ok(ADMIN, "document_transition", {
      type: "quotation",
      id: quote.id,
      action: "cancel",
      reason: "Wrong price",
    });
    const amended = await ok(ADMIN, "document_amend", { type: "quotation", id: quote.id });
    const text = await printed("quotation", amended.id);
    expect(text).toMatch(new RegExp(`Amends\\s+${quote.number}`));
    expect(text).toContain("DRAFT");
  });
});

describe("an order from the public form", () => {
  it("prints and e-mails to the guest who placed it, with no customer record", async () => {
    const form = await makeForm(ADMIN);
    const placed = await submitOrder(
      form.token,
      guest(form.items.map((i) => ({ product_id: i.product_id, qty: "5" }))),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const number = (placed.body as { number: string }).number;
    const order = ((await restFetch(ADMIN, `customer_order?number=eq.${number}&select=id,total`)).body as Doc[])[0];
    const text = await printed("customer_order", order.id);
    expect(text).toContain("Order");
    expect(text).not.toContain("DRAFT"); // it came numbered from the form
    expect(text).toContain(number);
    expect(text).toContain("Tan Trading");
    expect(text).toContain("10 Anson Road");
    expect(text).toContain(formatMoney(String(order.total)));
    const res = await rpc(ADMIN, "document_email", { type: "customer_order", id: order.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ to: ["mei.ling@tan-trading.example"] });
  });
});
