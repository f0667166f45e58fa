import { decide, memberRequirement } from "@workmetrics/domain";
import { DEFAULT_ROLE_PERMISSIONS } from "@workmetrics/domain/permissions";
import { ROLE } from "@workmetrics/domain/roles";
import { describe, expect, it } from "vitest";
import { customer, draft, ok, products, read, rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §1: document_save creates or replaces a draft; lines snapshot the product; every total is the server's.

const SALES = "sales@demo.test";
const ADMIN = "admin@demo.test";

describe("document_save", () => {
  it("snapshots the products and computes the totals, ignoring totals a client sends", async () => {
    const [a, b] = await products(SALES);
    // Line 2 is priced below its cost: the sales manager, who approves quotations, saves it (a salesperson may not).
    const doc = await ok("manager@demo.test", "document_save", {
      type: "quotation",
      header: { company_id: await customer(SALES), valid_until: "2099-01-31", total: "1.00", subtotal: "1.00" },
      lines: [
        { product_id: a.id, qty: "3", line_total: "0.01" },
        { product_id: b.id, qty: "1.5", unit_price: "10.005", discount_percent: "10", tax_code: "ZR" },
        { description: "Installation", qty: "1", unit_price: "0.05" },
      ],
    });
    expect(doc).toMatchObject({ status: "draft", number: null, valid_until: "2099-01-31" });
    expect(doc.lines.map((l) => [l.line_no, l.sku, l.description, l.unit_price, l.tax_code])).toEqual([
      [1, a.sku, a.name, Number(a.price).toFixed(4), a.tax_code],
      [2, b.sku, b.name, "10.0050", "ZR"],
      [3, null, "Installation", "0.0500", "SR"],
    ]);
    // 3 × a.price; 1.5 × 10.005 × 0.9 = 13.50675 → 13.51; 0.05. GST 9% on the SR lines, half-up per document.
    const first = (Number(a.price) * 3).toFixed(2);
    expect(doc.lines.map((l) => l.line_total)).toEqual([first, "13.51", "0.05"]);
    const srNet = Number(first) + 0.05;
    const tax = (Math.round(srNet * 9 + 1e-9) / 100).toFixed(2);
    expect(doc).toMatchObject({
      subtotal: (Number(first) + 13.51 + 0.05).toFixed(2),
      tax_total: tax,
      total: (Number(first) + 13.51 + 0.05 + Number(tax)).toFixed(2),
      base_total: (Number(first) + 13.51 + 0.05 + Number(tax)).toFixed(2),
    });
    expect(doc.lines[0].unit_cost).toBe(Number(a.cost).toFixed(4));
  });

  it("replaces a draft's header and lines, with a document discount", async () => {
    const doc = await draft(SALES);
    const [p] = await products(SALES, 1);
    const saved = await ok(SALES, "document_save", {
      type: "quotation",
      id: doc.id,
      header: { company_id: doc.company_id, notes: "Revised", discount_percent: "10" },
      lines: [
        { description: "Consulting", qty: "2", unit_price: "100" },
        { product_id: p.id, qty: "1" },
      ],
    });
    expect(saved.id).toBe(doc.id);
    expect(saved.lines.map((l) => l.description)).toEqual(["Consulting", p.name]);
    const subtotal = 200 + Number(p.price);
    expect(saved).toMatchObject({ notes: "Revised", subtotal: subtotal.toFixed(2), discount_percent: "10.00" });
    expect(saved.discount_amount).toBe((Math.round(subtotal * 10) / 100).toFixed(2));
  });

  it("refuses to change a document that left draft, and changes nothing", async () => {
    const doc = await draft(SALES);
    const sent = await ok(SALES, "document_transition", { type: "quotation", id: doc.id, action: "submit" });
    const res = await rpc(SALES, "document_save", {
      type: "quotation",
      id: doc.id,
      header: { company_id: doc.company_id, notes: "Sneaky" },
      lines: [],
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: "P0001",
      message: "Only a draft quotation can be changed; this one is sent",
    });
    expect(await read(SALES, "quotation", doc.id)).toEqual(sent);
  });

  it("refuses bad lines with the line's number, and unknown types", async () => {
    const company_id = await customer(ADMIN);
    const cases: Array<[unknown[], string]> = [
      [[{ qty: "1", unit_price: "5" }], "Describe line 1, or choose a product"],
      [
        [
          { description: "A", qty: "1", unit_price: "5" },
          { description: "B", unit_price: "5" },
        ],
        "Give a quantity on line 2",
      ],
      [[{ product_id: 999999999, qty: "1" }], "Line 1: there is no such product in this workspace"],
      [
        [{ description: "A", qty: "1", unit_price: "5", discount_percent: "120" }],
        "Discount % cannot be more than 100",
      ],
      [[{ description: "A", qty: "-4", unit_price: "5" }], "Line 1: the quantity must be more than 0"],
      [
        [
          { description: "A", qty: "1", unit_price: "5" },
          { description: "B", qty: "0", unit_price: "5" },
        ],
        "Line 2: the quantity must be more than 0",
      ],
    ];
    for (const [lines, message] of cases) {
      const res = await rpc(ADMIN, "document_save", { type: "quotation", header: { company_id }, lines });
      expect(res.status, res.text).toBe(422);
      expect((res.body as { message: string }).message).toBe(message);
    }
    const res = await rpc(ADMIN, "document_save", { type: "invoice_x", header: {}, lines: [] });
    expect(res.status).toBe(422);
    expect((res.body as { message: string }).message).toMatch(/^Unknown document type "invoice_x"/);
  });

  it("refuses a driver with the access rule's own message", async () => {
    const member = {
      kind: "member" as const,
      permissions: DEFAULT_ROLE_PERMISSIONS[ROLE.Driver] ?? [],
      features: ["erp"],
    };
    const expected = decide(member, memberRequirement("quotation.create", "create quotations", "erp"));
    expect(expected.allowed).toBe(false);
    const res = await rpc("driver@demo.test", "document_save", {
      type: "quotation",
      header: { company_id: 9 },
      lines: [{ description: "x", qty: "1", unit_price: "1" }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "42501", message: !expected.allowed && expected.message });
  });

  it("refuses a line below cost unless the member may approve quotations", async () => {
    // A custom role in pro that quotes but may not approve, given to a pro user no other API test signs in as.
    const admin = "admin@pro.test";
    const quoter = "warehouse@pro.test";
    const role = await restFetch(admin, "workspace_role", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({
        title: "Quoter",
        slug: `quoter-${Date.now()}`,
        base_role_id: 6,
        permissions: ["*.read", "quotation.create", "quotation.update"],
      }),
    });
    expect(role.status, role.text).toBe(201);
    const roleId = (role.body as Array<{ id: number }>)[0].id;
    const moved = await restFetch(admin, `user?email=eq.${quoter}`, {
      method: "PATCH",
      body: JSON.stringify({ workspace_role_id: roleId }),
    });
    expect(moved.status, moved.text).toBeLessThan(300);
    const [p] = await products(quoter, 1);
    const cheap = { product_id: p.id, qty: "1", unit_price: (Number(p.cost) / 2).toFixed(2) };
    const refused = await rpc(quoter, "document_save", {
      type: "quotation",
      header: { company_id: 9 },
      lines: [cheap],
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      message: `Line 1 is priced below its cost of ${Number(p.cost).toFixed(2)}; someone who may approve quotations must save it`,
    });
    // At cost it is taken; the admin, who may approve, saves the cheap line too.
    await ok(quoter, "document_save", {
      type: "quotation",
      header: { company_id: 9 },
      lines: [{ ...cheap, unit_price: p.cost }],
    });
    const approved = await draft(admin, "quotation", { company_id: 9 }, [cheap]);
    expect(approved.lines[0].unit_price).toBe(Number(cheap.unit_price).toFixed(4));
    // The REST API itself never writes documents.
    const post = await restFetch(ADMIN, "quotation", { method: "POST", body: JSON.stringify({ company_id: 9 }) });
    expect(post.status).toBe(405);
  });
});
