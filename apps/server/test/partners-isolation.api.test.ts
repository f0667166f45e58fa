import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness.ts";
import { api, type Json, useServer } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11, DESIGN §2.2: nothing of one workspace's supplier discount forms and project registrations is read or
// changed from another — every id the partners' commands take is checked to be the caller's. The victim needs the
// Premium tier to hold discount forms, so a server of its own where workspace pro is moved to Premium (the shared
// suite's pro stays Pro).

const A = "admin@demo.test"; // attacker
const B = "admin@pro.test"; // victim

let server: TestServer;
const b = { form: 0, item: 0, company: 0, product: 0, category: 0, registration: 0 };
const a = { product: 0, supplier: 0, registration: 0 };

const rpc = async (email: string, fn: string, args: unknown) => {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  return { status: res.status, body: res.body as Json, text: res.text };
};
const first = async (email: string, path: string) => ((await restFetch(email, path)).body as Json[])[0];
const register = (slug: string, extra: Record<string, unknown> = {}) =>
  api(`/api/public/project-registrations/${slug}`, {
    method: "POST",
    json: {
      end_customer: "Iso Pte Ltd",
      project_name: "Iso tower",
      contact_name: "Iso",
      contact_email: "iso@x.example",
      ...extra,
    },
  });

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  await server.running.database.db.execute(sql`update workspace set tier_id = 12 where slug = 'pro'`);
  b.company = (await restFetch(B, "company", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ name: "Victim supplier", is_supplier: true }),
  }).then((r) => (r.body as Json[])[0].id)) as number;
  b.product = (await first(B, "product?select=id&order=id&limit=1")).id;
  b.category = (await first(B, "category?select=id&order=id&limit=1")).id;
  const saved = await rpc(B, "supplier_discount_form_save", {
    form: {
      company_id: b.company,
      contact_email: "victim@supplier.example",
      discount_kind: "percent",
      discount_percent: "5",
      valid_from: "2026-01-01",
      valid_to: "2099-12-31",
    },
    items: [{ product_id: b.product }],
  });
  expect(saved.status, saved.text).toBe(200);
  b.form = saved.body.id;
  expect((await rpc(B, "supplier_discount_form_send", { id: b.form })).status).toBe(200);
  b.item = (await first(B, `supplier_discount_form_item?supplier_discount_form_id=eq.${b.form}&select=id`)).id;
  const reg = await register("pro");
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  b.registration = Number(String(reg.body.reference).replace("REG-", ""));
  a.product = (await first(A, "product?select=id&order=id&limit=1")).id;
  a.supplier = (await first(A, "company?select=id&is_supplier=is.true&order=id&limit=1")).id;
  const mine = await register("demo", { project_name: "Attacker's own" });
  a.registration = Number(String(mine.body.reference).replace("REG-", ""));
}, 120_000);

afterAll(() => server?.close());

describe("supplier discount forms and project registrations across workspaces", () => {
  it("B's rows are not read from A, by id or by workspace", async () => {
    for (const path of [
      `supplier_discount_form?id=eq.${b.form}`,
      `supplier_discount_form_item?id=eq.${b.item}`,
      `project_registration?id=eq.${b.registration}`,
    ]) {
      const res = await restFetch(A, path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual([]);
    }
  });

  it("REST writes are not offered at all (the commands are the only writers)", async () => {
    for (const name of ["supplier_discount_form", "supplier_discount_form_item", "project_registration"]) {
      const patch = await restFetch(A, `${name}?id=eq.${b.form}`, { method: "PATCH", body: JSON.stringify({}) });
      expect(patch.status, name).toBe(405);
      const del = await restFetch(A, `${name}?id=eq.${b.form}`, { method: "DELETE" });
      expect(del.status, name).toBe(405);
    }
  });

  it("every command refuses B's ids: 404 for B's records, a 4xx on the field for B's references", async () => {
    for (const [fn, args] of [
      ["supplier_discount_form_send", { id: b.form }],
      ["supplier_discount_form_revoke", { id: b.form }],
      ["supplier_discount_form_respond", { id: b.form, decision: "confirm", name: "X" }],
      ["project_registration_approve", { id: b.registration }],
      ["project_registration_reject", { id: b.registration, reason: "x" }],
    ] as const) {
      const res = await rpc(A, fn, args);
      expect(res.status, `${fn}: ${res.text}`).toBe(404);
    }
    const overwrite = await rpc(A, "supplier_discount_form_save", {
      id: b.form,
      form: {
        company_id: a.supplier,
        contact_email: "x@y.example",
        discount_percent: "1",
        valid_from: "2026-01-01",
        valid_to: "2026-01-02",
      },
      items: [{ product_id: a.product }],
    });
    expect(overwrite.status, overwrite.text).toBe(404);
    const base = {
      contact_email: "x@y.example",
      discount_percent: "1",
      valid_from: "2026-01-01",
      valid_to: "2026-01-02",
    };
    for (const [form, items] of [
      [{ ...base, company_id: b.company }, [{ product_id: a.product }]],
      [{ ...base, company_id: a.supplier }, [{ product_id: b.product }]],
      [{ ...base, company_id: a.supplier, category_id: b.category }, []],
    ] as const) {
      const res = await rpc(A, "supplier_discount_form_save", { form, items });
      expect([404, 409, 422], res.text).toContain(res.status);
    }
    const linked = await rpc(A, "project_registration_approve", { id: a.registration, company_id: b.company });
    expect(linked.status, linked.text).toBe(422);
    // Nothing of B's changed.
    expect((await first(B, `supplier_discount_form?id=eq.${b.form}&select=status`)).status).toBe("sent");
    expect((await first(B, `project_registration?id=eq.${b.registration}&select=status`)).status).toBe("submitted");
  });
});
