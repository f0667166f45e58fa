import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailboxTo } from "./auth-helpers.ts";
import { products } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { api, type Json, useServer } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11 "Supplier discount forms": staff ask a supplier to confirm a discount; Send e-mails a link with an
// unguessable token (only its SHA-256 kept) that the supplier answers without an account; expired and revoked links
// say so (410), an answered one says it was answered (409); a supplier user sees only their company's forms. A
// server of its own, to move a link's expiry into the past as time passing would.

const ADMIN = "admin@demo.test";
const PROCUREMENT = "procurement@demo.test";
const SALES = "sales@demo.test";
const SUPPLIER = "supplier@demo.test";
const PRO = "admin@pro.test";
const SUPPLIER_MAIL = "quotes@tuas-steel.example";

let server: TestServer;
let ws = "";
let tuas = 0;
let other = 0;
let catalog: Array<{ id: number; price: string }> = [];
let ip = 0;
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;

const rpc = async (email: string, fn: string, args: unknown) => {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  return { status: res.status, body: res.body as Json, text: res.text };
};
const view = (token: string) =>
  api(`/api/public/supplier-discount-forms/${token}`, { headers: { "x-forwarded-for": nextIp() } });
const answer = (token: string, body: unknown) =>
  api(`/api/public/supplier-discount-forms/${token}`, {
    method: "POST",
    json: body,
    headers: { "x-forwarded-for": nextIp() },
  });
const tokenOf = (link: string) => link.split("/").pop() as string;

const form = (extra: Record<string, unknown> = {}) => ({
  company_id: tuas,
  contact_email: SUPPLIER_MAIL,
  discount_kind: "percent",
  discount_percent: "7.5",
  min_qty: "10",
  valid_from: "2026-01-01",
  valid_to: "2099-12-31",
  message: "For the Tuas warehouse fit-out",
  ...extra,
});

async function sent(email = PROCUREMENT, extra: Record<string, unknown> = {}) {
  const saved = await rpc(email, "supplier_discount_form_save", {
    form: form(extra),
    items: [{ product_id: catalog[0].id }, { product_id: catalog[1].id }],
  });
  expect(saved.status, saved.text).toBe(200);
  const res = await rpc(email, "supplier_discount_form_send", { id: saved.body.id });
  expect(res.status, res.text).toBe(200);
  return { id: Number(saved.body.id), token: tokenOf(res.body.link), link: String(res.body.link) };
}

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent", TRUST_PROXY: "127.0.0.1,::1,::ffff:127.0.0.1" });
  useServer(server.url);
  const db = server.running.database.db;
  ws = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  const companies = (
    await db.execute(sql`select id, name from company where workspace_id = ${ws}::uuid and is_supplier order by id`)
  ).rows as Array<{ id: number; name: string }>;
  tuas = Number(companies.find((c) => c.name.startsWith("Tuas"))?.id);
  other = Number(companies.find((c) => !c.name.startsWith("Tuas"))?.id);
  catalog = await products(ADMIN, 3);
  // The supplier user belongs to Tuas Steel: a contact of that company with their e-mail address.
  const contact = await restFetch(ADMIN, "contact", {
    method: "POST",
    body: JSON.stringify({ company_id: tuas, name: "Steven Ho", email: SUPPLIER }),
  });
  expect(contact.status, contact.text).toBe(201);
}, 120_000);

afterAll(() => server?.close());

describe("staff draft and send a discount form", () => {
  it("refuses a form without a discount, a price per product with a category, and a product twice, on the field", async () => {
    const noPercent = await rpc(PROCUREMENT, "supplier_discount_form_save", {
      form: form({ discount_percent: null }),
      items: [{ product_id: catalog[0].id }],
    });
    expect(noPercent.status).toBe(422);
    expect(noPercent.body.details[0]).toEqual({ field: "form.discount_percent", message: "Give the discount %" });
    const priceNoPrice = await rpc(PROCUREMENT, "supplier_discount_form_save", {
      form: form({ discount_kind: "price" }),
      items: [{ product_id: catalog[0].id, price: "12.50" }, { product_id: catalog[1].id }],
    });
    expect(priceNoPrice.status).toBe(422);
    expect(priceNoPrice.body.details[0].field).toBe("items.1.price");
    const twice = await rpc(PROCUREMENT, "supplier_discount_form_save", {
      form: form(),
      items: [{ product_id: catalog[0].id }, { product_id: catalog[0].id }],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe("This product is already on the form");
    const dates = await rpc(PROCUREMENT, "supplier_discount_form_save", {
      form: form({ valid_from: "2026-06-01", valid_to: "2026-05-01" }),
      items: [{ product_id: catalog[0].id }],
    });
    expect(dates.status).toBe(422);
    expect(dates.body.details[0].field).toBe("form.valid_to");
  });

  it("is not offered to a salesperson (no permission) nor to a Pro workspace (Premium feature)", async () => {
    const sales = await rpc(SALES, "supplier_discount_form_save", { form: form(), items: [] });
    expect(sales.status).toBe(403);
    const pro = await rpc(PRO, "supplier_discount_form_save", { form: form(), items: [] });
    expect(pro.status).toBe(403);
    expect(pro.body.code).toBe("tier_required");
  });

  it("sends a link of 64 hex digits by e-mail; only its SHA-256 is stored", async () => {
    const { id, token, link } = await sent();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(link).toMatch(/^http:\/\/demo\.localhost:\d+\/auth\/supplier-discount-forms\/[0-9a-f]{64}$/);
    const row = await restFetch(ADMIN, `supplier_discount_form?id=eq.${id}&select=*`);
    const stored = (row.body as Json[])[0];
    expect(stored.status).toBe("sent");
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const mail = await mailboxTo(server.url, SUPPLIER_MAIL, (m) => m.some((x) => x.text.includes(link)));
    expect(mail[0].subject).toContain("asks you to confirm a discount");
    expect(mail[0].text).toContain(link);
  });
});

describe("the public page", () => {
  it("shows the request, then takes a confirmation with the name and note; a second answer is refused as answered", async () => {
    const { id, token } = await sent();
    const shown = await view(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: "sent",
      supplier: expect.stringMatching(/^Tuas/),
      discount_kind: "percent",
      discount_percent: "7.50",
      min_qty: "10.000",
      valid_from: "2026-01-01",
      valid_to: "2099-12-31",
    });
    expect(shown.body.products).toHaveLength(2);
    expect(shown.body).not.toHaveProperty("id");

    const bad = await answer(token, { decision: "maybe", name: " " });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: Json) => d.field).sort()).toEqual(["decision", "name"]);

    const yes = await answer(token, { decision: "confirm", name: "Lim Wei", note: "Valid for full pallets" });
    expect(yes.status, JSON.stringify(yes.body)).toBe(200);
    expect(yes.body.status).toBe("confirmed");
    const row = (
      await restFetch(ADMIN, `supplier_discount_form?id=eq.${id}&select=status,responder_name,responder_note`)
    ).body as Json[];
    expect(row[0]).toEqual({
      status: "confirmed",
      responder_name: "Lim Wei",
      responder_note: "Valid for full pallets",
    });

    const again = await answer(token, { decision: "reject", name: "Someone else" });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already answered: confirmed by Lim Wei/);
    expect((await view(token)).body.status).toBe("confirmed");
  });

  it("takes a rejection", async () => {
    const { token } = await sent();
    const no = await answer(token, { decision: "reject", name: "Lim Wei", note: "Our margins do not allow it" });
    expect(no.status).toBe(200);
    expect(no.body.status).toBe("rejected");
  });

  it("answers 404 to a malformed or unknown token", async () => {
    expect((await view("nope")).status).toBe(404);
    const unknown = await view("a".repeat(64));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/not valid/);
    expect((await answer("b".repeat(64), { decision: "confirm", name: "X" })).status).toBe(404);
  });

  it("a revoked link says it was withdrawn (410), and nothing can be answered", async () => {
    const { id, token } = await sent();
    const revoked = await rpc(PROCUREMENT, "supplier_discount_form_revoke", { id });
    expect(revoked.status, revoked.text).toBe(200);
    const shown = await view(token);
    expect(shown.status).toBe(410);
    expect(shown.body.message).toMatch(/withdrew this discount request/);
    expect((await answer(token, { decision: "confirm", name: "Lim Wei" })).status).toBe(410);
  });

  it("an expired link says when it expired (410) and the form shows Expired; sending again makes a new link", async () => {
    const { id, token } = await sent();
    await server.running.database.db.execute(sql`update supplier_discount_form
      set link_expires_at = now() - interval '1 day' where workspace_id = ${ws}::uuid and id = ${id}`);
    const shown = await view(token);
    expect(shown.status).toBe(410);
    expect(shown.body.message).toMatch(/This link expired on \d{4}-\d{2}-\d{2}/);
    expect((await answer(token, { decision: "confirm", name: "Lim Wei" })).status).toBe(410);
    const row = (await restFetch(ADMIN, `supplier_discount_form?id=eq.${id}&select=status`)).body as Json[];
    expect(row[0].status).toBe("expired");

    const again = await rpc(PROCUREMENT, "supplier_discount_form_send", { id });
    expect(again.status, again.text).toBe(200);
    const fresh = tokenOf(again.body.link);
    expect(fresh).not.toBe(token);
    expect((await view(token)).status).toBe(404); // the old link is gone
    expect((await view(fresh)).status).toBe(200);
  });

  it("limits answers per network (429 with Retry-After)", async () => {
    const { token } = await sent();
    const from = "10.78.0.1";
    let last = 0;
    for (let i = 0; i < 21; i++) {
      const res = await api(`/api/public/supplier-discount-forms/${token}`, {
        method: "POST",
        json: {},
        headers: { "x-forwarded-for": from },
      });
      last = res.status;
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toBeTruthy();
        break;
      }
    }
    expect(last).toBe(429);
  });
});

describe("a supplier user, signed in", () => {
  it("sees only the forms addressed to their company, and answers one", async () => {
    const mine = await sent();
    const others = await sent(PROCUREMENT, { company_id: other, contact_email: "sales@other.example" });
    const list = await rpc(SUPPLIER, "supplier_discount_forms_mine", {});
    expect(list.status, list.text).toBe(200);
    const ids = (list.body as Json[]).map((f) => f.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(others.id);
    expect((list.body as Json[]).every((f) => f.supplier.startsWith("Tuas"))).toBe(true);

    const notTheirs = await rpc(SUPPLIER, "supplier_discount_form_respond", {
      id: others.id,
      decision: "confirm",
      name: "Steven Ho",
    });
    expect(notTheirs.status).toBe(404);
    const yes = await rpc(SUPPLIER, "supplier_discount_form_respond", {
      id: mine.id,
      decision: "confirm",
      name: "Steven Ho",
    });
    expect(yes.status, yes.text).toBe(200);
    expect(yes.body.status).toBe("confirmed");
    // They do not read the staff's list of every supplier's forms.
    expect((await restFetch(SUPPLIER, "supplier_discount_form?select=id")).status).toBe(403);
  });
});

describe("a confirmed discount prices the next purchase order", () => {
  it("a price form sets the line's price from its minimum; a % form sets its discount; the line names the form", async () => {
    const saved = await rpc(PROCUREMENT, "supplier_discount_form_save", {
      form: form({ discount_kind: "price", discount_percent: null, min_qty: "5" }),
      items: [{ product_id: catalog[2].id, price: "3.21" }],
    });
    expect(saved.status, saved.text).toBe(200);
    const link = await rpc(PROCUREMENT, "supplier_discount_form_send", { id: saved.body.id });
    expect((await answer(tokenOf(link.body.link), { decision: "confirm", name: "Lim Wei" })).status).toBe(200);
    const pct = await sent(PROCUREMENT, { discount_percent: "12", min_qty: "10" });
    expect((await answer(pct.token, { decision: "confirm", name: "Lim Wei" })).status).toBe(200);
    // A pending (sent, unanswered) form of a bigger discount prices nothing.
    await sent(PROCUREMENT, { discount_percent: "50", min_qty: "1" });

    const po = await rpc(PROCUREMENT, "document_save", {
      type: "purchase_order",
      header: { company_id: tuas },
      lines: [
        { product_id: catalog[2].id, qty: "10" },
        { product_id: catalog[2].id, qty: "2" },
        { product_id: catalog[0].id, qty: "20" },
        { product_id: catalog[0].id, qty: "20", unit_price: "9.99" },
      ],
    });
    expect(po.status, po.text).toBe(200);
    const lines = (
      await restFetch(
        ADMIN,
        `purchase_order_line?purchase_order_id=eq.${po.body.id}&order=line_no&select=unit_price,discount_percent,supplier_discount_form_id`,
      )
    ).body as Json[];
    expect(lines[0]).toMatchObject({ supplier_discount_form_id: saved.body.id });
    expect(Number(lines[0].unit_price)).toBe(3.21);
    expect(Number(lines[0].discount_percent)).toBe(0);
    expect(lines[1].supplier_discount_form_id).toBeNull(); // 2 is below the form's minimum of 5
    expect(lines[2]).toMatchObject({ supplier_discount_form_id: pct.id });
    expect(Number(lines[2].discount_percent)).toBe(12);
    expect(lines[3].supplier_discount_form_id).toBeNull(); // the buyer's own price stands
    expect(Number(lines[3].unit_price)).toBe(9.99);
  });
});
