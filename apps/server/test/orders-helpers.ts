import { expect } from "vitest";
import { products } from "./documents-helpers.ts";
import { api } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Shared by orders*.api.test.ts: an order form made by staff through /rest/v1, and the public side as a guest
// (each test from an IP of its own, X-Forwarded-For from loopback being trusted by the suite's server).

export type Form = { id: number; token: string; items: Array<{ product_id: number; price: string; min_qty: string }> };

export async function makeForm(
  email: string,
  opts: { title?: string; company_id?: number | null; items?: Array<{ price: string; min_qty: string }> } = {},
): Promise<Form> {
  const res = await restFetch(email, "order_form", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({
      title: opts.title ?? "Trade order form",
      intro: "Order by noon",
      company_id: opts.company_id,
    }),
  });
  expect(res.status, res.text).toBe(201);
  const form = (res.body as Array<{ id: number; token: string }>)[0];
  // Two products at their list prices (a price below cost would need a manager when staff later save the order),
  // the second sold in fives.
  const catalog = await products(email, opts.items?.length ?? 2);
  const wanted = opts.items ?? [
    { price: catalog[0].price, min_qty: "1" },
    { price: catalog[1].price, min_qty: "5" },
  ];
  const items = wanted.map((w, i) => ({ order_form_id: form.id, product_id: catalog[i].id, sort_order: i, ...w }));
  const added = await restFetch(email, "order_form_item", { method: "POST", body: JSON.stringify(items) });
  expect(added.status, added.text).toBe(201);
  return { id: form.id, token: form.token, items };
}

// Fresh client addresses, a block per test file (the files share one server), so one test's rate limit does not
// spend another's.
let block = 0;
let ipCounter = 0;
export const useIpBlock = (n: number) => {
  block = n;
};
export const freshIp = () => `10.${block}.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export const viewForm = (token: string, ip = freshIp()) =>
  api(`/api/public/order-forms/${token}`, { headers: { "x-forwarded-for": ip } });

export const submit = (token: string, body: unknown, ip = freshIp()) =>
  api(`/api/public/order-forms/${token}`, { method: "POST", json: body, headers: { "x-forwarded-for": ip } });

export const guest = (
  items: Array<{ product_id: number; qty: string | number }>,
  extra: Record<string, unknown> = {},
) => ({
  name: "Mei Ling Tan",
  company: "Tan Trading",
  email: "mei.ling@tan-trading.example",
  phone: "+65 6123 4567",
  delivery_address: "10 Anson Road, #12-01, Singapore 079903",
  note: "Loading bay closes at 5 pm",
  items,
  ...extra,
});
