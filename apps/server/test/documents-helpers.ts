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

// A submitted delivery order of `qty` of a new non-stock product to the first customer from the first location,
// made by `email` and assigned to the user `driver` (the journeys' driver). Its number is the submitted one.
export async function assignedDelivery(
  email: string,
  driver: string,
  item: { sku: string; name: string; price: string; cost: string },
  qty: string,
): Promise<{ delivery: Doc & { number: string }; location: number }> {
  const made = await restFetch(email, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ ...item, is_stock_tracked: false }),
  });
  const product = (made.body as Array<{ id: number }>)[0].id;
  const company = await customer(email);
  const location = ((await restFetch(email, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0]
    .id;
  const driverId = (
    (await restFetch(email, `user?select=id&email=eq.${encodeURIComponent(driver)}`)).body as Array<{ id: string }>
  )[0].id;
  const so = await ok(email, "document_save", {
    type: "sales_order",
    header: { company_id: company },
    lines: [{ product_id: product, qty }],
  });
  await ok(email, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const d = await ok(email, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location, driver_id: driverId },
  });
  const delivery = await ok(email, "document_transition", { type: "delivery_order", id: d.id, action: "submit" });
  return { delivery: delivery as Doc & { number: string }, location };
}
