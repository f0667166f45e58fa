import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// A supplier's user never sees our cost prices (nor do drivers or the POS, who read products too): the product's
// cost is read by product_cost.read (FieldDef.permission) — left out of `*`, refused when selected, filtered or
// ordered by — and the grant is a row of the permission matrix. A server of its own: it changes a role.

// The demo's year of trading: stock moves and document lines that carry costs.
const own = ownServer({ SEED: "demo" }, 600_000);
const REFUSED = "You do not have permission to read the cost of products";
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const first = (res: { body: unknown }) => (res.body as Array<Record<string, unknown>>)[0];

describe("a product's cost", () => {
  it("is read by the office roles and the warehouse", async () => {
    for (const email of ["manager@demo.test", "sales@demo.test", "warehouse@demo.test", "finance@demo.test"]) {
      const res = await restFetch(email, "product?select=*&limit=1");
      expect(res.status, `${email}: ${res.text}`).toBe(200);
      expect(first(res), email).toHaveProperty("cost");
    }
  });

  it("is left out for a supplier's user, a driver and the POS, and refused when they ask for it", async () => {
    for (const email of ["supplier@demo.test", "driver@demo.test", "pos@demo.test"]) {
      const all = await restFetch(email, "product?select=*&limit=1");
      expect(all.status, `${email}: ${all.text}`).toBe(200);
      expect(first(all), email).toHaveProperty("price");
      expect(first(all), email).not.toHaveProperty("cost");
      for (const path of [
        "product?select=id,cost",
        "product?select=id&cost=gt.0",
        "product?select=id&order=cost.desc",
      ]) {
        const res = await restFetch(email, path);
        expect(res.status, `${email} ${path}`).toBe(403);
        expect(message(res)).toBe(REFUSED);
      }
    }
    // Nor through an embed: a driver reads the delivery instructions' lines and their products, not the cost.
    const embedded = await restFetch("driver@demo.test", "delivery_instruction?select=id,lines(product(id,cost))");
    expect(embedded.status, embedded.text).toBe(403);
    expect(message(embedded)).toBe(REFUSED);
    const filtered = await restFetch(
      "driver@demo.test",
      "delivery_instruction?select=id,lines(id,product(id))&lines.product.cost=gt.0",
    );
    expect(filtered.status, filtered.text).toBe(403);
    expect(message(filtered)).toBe(REFUSED);
    const star = await restFetch("driver@demo.test", "delivery_instruction?select=id,lines(product(*))");
    expect(star.status, star.text).toBe(200);
    expect(star.text).not.toContain('"cost"');
  });

  it("follows the same permission wherever a cost is carried: stock moves and document lines (issue 21 §2)", async () => {
    // The probe read every stock move's unit_cost as a supplier, a driver and the POS, and the unit_cost of the lines
    // of the invoices (POS) and delivery orders (driver) they may read.
    const costly = ["stock_move", "invoice_line", "delivery_order_line", "sales_order_line"];
    let read = 0;
    for (const email of ["supplier@demo.test", "driver@demo.test", "pos@demo.test"]) {
      for (const table of costly) {
        const all = await restFetch(email, `${table}?select=*&limit=5`);
        if (all.status !== 200) continue; // a table the role may not read at all says so (403), tested elsewhere
        read += (all.body as unknown[]).length;
        expect(all.text, `${email} ${table}`).not.toContain('"unit_cost"');
        const named = await restFetch(email, `${table}?select=id,unit_cost&limit=1`);
        expect(named.status, `${email} ${table}: ${named.text}`).toBe(403);
        expect(message(named)).toMatch(/^You do not have permission to read the unit cost of /);
      }
      const embedded = await restFetch(email, "delivery_order?select=id,lines:delivery_order_line(*)&limit=3");
      if (embedded.status === 200) expect(embedded.text, email).not.toContain('"unit_cost"');
    }
    expect(read).toBeGreaterThan(0);
    // The office still reads it.
    const office = await restFetch("finance@demo.test", "stock_move?select=id,unit_cost&limit=1");
    expect(office.status, office.text).toBe(200);
  });

  it("is granted in the permission matrix (Product costs: read), and taken away again", async () => {
    const [role] = await own.q<{ id: number; permissions: string[] }>(sql`select id, permissions from workspace_role
      where workspace_id = ${own.ws}::uuid and is_system and base_role_id = 43`);
    const save = (permissions: string[]) =>
      restFetch("admin@demo.test", `workspace_role?id=eq.${role.id}`, {
        method: "PATCH",
        body: JSON.stringify({ permissions }),
      });
    expect((await save([...role.permissions, "product_cost.read"])).status).toBeLessThan(300);
    try {
      const res = await restFetch("supplier@demo.test", "product?select=id,cost&limit=1");
      expect(res.status, res.text).toBe(200);
    } finally {
      expect((await save(role.permissions)).status).toBeLessThan(300);
    }
    expect((await restFetch("supplier@demo.test", "product?select=id,cost&limit=1")).status).toBe(403);
  });
});
