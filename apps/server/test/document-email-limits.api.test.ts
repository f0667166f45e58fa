import { describe, expect, it } from "vitest";
import { act, ok, rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 21 §2, "document_email is an open relay": POS staff sent an invoice to 20 outside addresses 30 times in a row
// with "our bank details changed…" in the message. Now: at most 10 addresses, 30 e-mails an hour per person; roles
// without "E-mail to any address" (the POS) send only to the customer's own addresses; every send is in the history.
const OWNER = "owner@demo.test";
const POS = "pos@demo.test";
const MANAGER = "manager@demo.test";
const tag = Date.now().toString(36);

type Issue = { field: string; message: string };

async function customerWithContact() {
  const made = await restFetch(OWNER, "company", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ name: `Relay Test ${tag}`, is_customer: true, email: `accounts-${tag}@customer.example` }),
  });
  expect(made.status, made.text).toBe(201);
  const company = (made.body as Array<{ id: number }>)[0].id;
  const contact = await restFetch(OWNER, "contact", {
    method: "POST",
    body: JSON.stringify({ name: "Buyer", company_id: company, email: `buyer-${tag}@customer.example` }),
  });
  expect(contact.status, contact.text).toBe(201);
  return company;
}

async function invoiceFor(company: number) {
  const product = (await restFetch(OWNER, "product?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  const inv = await ok(OWNER, "document_save", {
    type: "invoice",
    header: { company_id: company },
    lines: [{ product_id: product[0].id, qty: "1" }],
  });
  expect((await act(OWNER, "invoice", inv.id, "submit")).status).toBe(200);
  return inv.id;
}

describe("document_email is no open relay", () => {
  it("lets the POS send only to the customer's own addresses, and the office anywhere", async () => {
    const company = await customerWithContact();
    const id = await invoiceFor(company);
    const outside = await rpc(POS, "document_email", {
      type: "invoice",
      id,
      to: ["victim@elsewhere.example"],
      message: "Our bank details changed",
    });
    expect(outside.status, outside.text).toBe(422);
    const issue = (outside.body as { details: Issue[] }).details[0];
    expect(issue.field).toBe("to");
    expect(issue.message).toMatch(
      /can be sent only to Relay Test .*'s own addresses .*victim@elsewhere\.example is not one of them/,
    );
    const cc = await rpc(POS, "document_email", {
      type: "invoice",
      id,
      to: [`buyer-${tag}@customer.example`],
      cc: ["victim@elsewhere.example"],
    });
    expect(cc.status).toBe(422);
    expect((cc.body as { details: Issue[] }).details[0].field).toBe("cc");
    // The customer's e-mail and its contact's are fine (any case), and so is the default address.
    for (const to of [[`Buyer-${tag}@Customer.example`], [`accounts-${tag}@customer.example`], undefined]) {
      const res = await rpc(POS, "document_email", { type: "invoice", id, ...(to ? { to } : {}) });
      expect(res.status, res.text).toBe(200);
    }
    const office = await rpc(OWNER, "document_email", { type: "invoice", id, to: ["someone@elsewhere.example"] });
    expect(office.status, office.text).toBe(200);
    const history = await rpc(OWNER, "document_history", { type: "invoice", id });
    expect(history.status, history.text).toBe(200);
    expect(JSON.stringify(history.body)).toContain("E-mail to someone@elsewhere.example");
  });

  it("caps the addresses of one e-mail and the e-mails one person sends in an hour (429 with a retry time)", async () => {
    const company = await customerWithContact();
    const id = await invoiceFor(company);
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@elsewhere.example`);
    const tooMany = await rpc(MANAGER, "document_email", {
      type: "invoice",
      id,
      to: many.slice(0, 6),
      cc: many.slice(6),
    });
    expect(tooMany.status).toBe(422);
    expect((tooMany.body as { message: string }).message).toBe(
      "An e-mail can go to at most 10 addresses (to and cc together)",
    );
    for (let i = 0; i < 30; i++) {
      const res = await rpc(MANAGER, "document_email", { type: "invoice", id });
      expect(res.status, `${i}: ${res.text}`).toBe(200);
    }
    const refused = await rpc(MANAGER, "document_email", { type: "invoice", id });
    expect(refused.status).toBe(429);
    expect((refused.body as { message: string }).message).toMatch(
      /^You have e-mailed 30 documents in the last hour, the most allowed\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Someone else in the workspace is not held back by it.
    expect((await rpc(OWNER, "document_email", { type: "invoice", id })).status).toBe(200);
  });
});
