import { expect } from "vitest";
import { restFetch } from "./rest-helpers.ts";

// Shared by the documents-*.api.test.ts files: the document commands as a client calls them.

export type Doc = Record<string, unknown> & {
  id: number;
  number: string | null;
  status: string;
  lines: Array<Record<string, unknown>>;
};
export type Product = { id: number; sku: string; name: string; price: string; cost: string; tax_code: string };

export const rpc = (email: string, fn: string, args: unknown) =>
  restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });

// The command's answer, which must be a success.
export async function ok(email: string, fn: string, args: unknown): Promise<Doc> {
  const res = await rpc(email, fn, args);
  expect(res.status, `${fn}: ${res.text}`).toBe(200);
  return res.body as Doc;
}

export async function products(email: string, n = 2): Promise<Product[]> {
  const res = await restFetch(email, `product?select=id,sku,name,price,cost,tax_code&cost=gt.0&order=id&limit=${n}`);
  expect(res.status).toBe(200);
  return res.body as Product[];
}

export async function customer(email: string): Promise<number> {
  const res = await restFetch(email, "company?select=id&is_customer=is.true&order=id&limit=1");
  return (res.body as Array<{ id: number }>)[0].id;
}

// A draft with one line per product, at each product's price.
export async function draft(
  email: string,
  type = "quotation",
  header: Record<string, unknown> = {},
  lines?: Array<Record<string, unknown>>,
): Promise<Doc> {
  const items = lines ?? (await products(email)).map((p) => ({ product_id: p.id, qty: "2" }));
  return ok(email, "document_save", {
    type,
    header: { company_id: await customer(email), ...header },
    lines: items,
  });
}

export const act = (email: string, type: string, id: number, action: string, reason?: string) =>
  rpc(email, "document_transition", { type, id, action, ...(reason ? { reason } : {}) });

export async function read(email: string, type: string, id: number): Promise<Doc> {
  const res = await restFetch(email, `${type}?id=eq.${id}&select=*,lines:${type}_line(*)`);
  expect(res.status).toBe(200);
  return (res.body as Doc[])[0];
}
