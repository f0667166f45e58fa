import { describe, expect, it } from "vitest";
import { mailboxTo, some } from "./auth-helpers.ts";
import { ok, rpc } from "./documents-helpers.ts";
import { baseUrl } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { supplierInvoice } from "./payables-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11 gap "remittances are not e-mailed": supplier_payment_email sends the payment's remittance advice PDF to
// the supplier's contact through the documents' mail path (the built-in mailbox here); a supplier with no address is asked for one (422, nothing sent), a member who may not read
// supplier payments is refused, a cancelled payment is not sent.

const ADMIN = "admin@demo.test";
const FINANCE = "finance@demo.test";
const SALES = "sales@demo.test";

// A server of its own: the supplier invoice receives the demo's first product at 50, which moves its cost (moving
// average) for every later test on a shared server — the documents tests price that product at its list price and
// were refused as below cost.
ownServer({}, 300_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;

const mail = (to: string) => mailboxTo(baseUrl(), to, some);

describe("e-mailing a supplier payment's remittance advice", () => {
  it("goes to the supplier's contact with the PDF; asks for an address when there is none; refusals", async () => {
    const name = `Remit Supplies ${Date.now()}`;
    const made = await restFetch(ADMIN, "company", {
      method: "POST",
      body: JSON.stringify({ name, is_supplier: true, payment_terms_days: 30 }),
      headers: { prefer: "return=representation" },
    });
    expect(made.status, made.text).toBe(201);
    const companyId = (made.body as Array<{ id: number }>)[0].id;
    const invoice = await supplierInvoice(ADMIN, { companyId, ordered: "2", poPrice: "50" });
    const payment = await ok(FINANCE, "record_payment", {
      type: "supplier_payment",
      company_id: companyId,
      amount: "109.00",
      method: "bank_transfer",
      allocations: [{ document_type: "supplier_invoice", document_id: invoice.id, amount: "109.00" }],
    });

    // No address anywhere: asked for one, nothing sent.
    const none = await rpc(FINANCE, "supplier_payment_email", { id: payment.id });
    expect(none.status).toBe(422);
    expect(message(none)).toBe(`Neither a contact of ${name} nor ${name} has an e-mail address; enter one to send to`);

    // The supplier's primary contact gets it.
    const to = `ap-${payment.id}@supplier.test`;
    const contact = await restFetch(ADMIN, "contact", {
      method: "POST",
      body: JSON.stringify({ company_id: companyId, name: "Mei Ling Tan", email: to, is_primary: true }),
    });
    expect(contact.status, contact.text).toBe(201);
    const sent = await ok(FINANCE, "supplier_payment_email", { id: payment.id, message: "Paid in full, thank you." });
    expect(sent).toMatchObject({ number: payment.number, to: [to], attachment: `${payment.number}.pdf` });
    const got = await mail(to);
    expect(got.map((m) => m.subject)).toEqual([expect.stringContaining(`Remittance advice ${payment.number} from`)]);
    expect(got[0].text).toContain("Dear Mei Ling Tan,");
    expect(got[0].text).toContain("Paid in full, thank you.");
    expect(got[0].text).toContain("SGD 109.00");
    expect(got[0].text).toContain(`Attached: ${payment.number}.pdf`);
    // Sales read no supplier payments: refused, nothing sent.
    const refused = await rpc(SALES, "supplier_payment_email", { id: payment.id, to: "x@example.test" });
    expect(refused.status).toBe(403);
    // A cancelled payment is not sent.
    await ok(FINANCE, "supplier_payment_cancel", { id: payment.id, reason: "Paid twice" });
    const cancelled = await rpc(FINANCE, "supplier_payment_email", { id: payment.id });
    expect(cancelled.status).toBe(409);
    expect(message(cancelled)).toBe(`${payment.number} is cancelled; its remittance advice is not sent`);
    expect(await mailboxTo(baseUrl(), "x@example.test")).toEqual([]);
  });
});
