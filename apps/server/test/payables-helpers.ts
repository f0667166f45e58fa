import { expect } from "vitest";
import { act, type Doc, ok, products } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Shared by the payables-*.api.test.ts files: the buying chain as a client drives it — a purchase order, its receipt
// and the supplier's invoice made from the receipt — so a test can ask for an invoice that passes the three-way check
// or one held in it.

export async function supplier(email: string, n = 0): Promise<number> {
  const res = await restFetch(email, "company?select=id&is_supplier=is.true&order=id");
  const rows = res.body as Array<{ id: number }>;
  expect(rows.length, "the seed has suppliers").toBeGreaterThan(n);
  return rows[n].id;
}

export async function location(email: string): Promise<number> {
  const res = await restFetch(email, "location?select=id&order=id&limit=1");
  return (res.body as Array<{ id: number }>)[0].id;
}

let seq = 0;

// A submitted supplier invoice of one product line made from a receipt of `received` against an order of `ordered`
// at `poPrice`; billed `invoiced` at `price` (the order's price by default). The supplier's number is unique per run.
export async function supplierInvoice(
  email: string,
  opts: {
    companyId: number;
    ordered?: string;
    received?: string;
    invoiced?: string;
    poPrice?: string;
    price?: string;
    number?: string;
  },
): Promise<Doc> {
  const { companyId, ordered = "10", poPrice = "100" } = opts;
  const received = opts.received ?? ordered;
  const [product] = await products(email, 1);
  const where = await location(email);
  const po = await ok(email, "document_save", {
    type: "purchase_order",
    header: { company_id: companyId, location_id: where },
    lines: [{ product_id: product.id, qty: ordered, unit_price: poPrice }],
  });
  await ok(email, "document_transition", { type: "purchase_order", id: po.id, action: "submit" });
  const sdo = await ok(email, "document_convert", {
    type: "purchase_order",
    id: po.id,
    to: "supplier_delivery_order",
    lines: [{ line_id: po.lines[0].id, qty: received }],
  });
  await ok(email, "document_transition", { type: "supplier_delivery_order", id: sdo.id, action: "submit" });
  const made = await ok(email, "document_convert", {
    type: "supplier_delivery_order",
    id: sdo.id,
    to: "supplier_invoice",
  });
  seq += 1;
  const line = made.lines[0];
  const saved = await ok(email, "document_save", {
    type: "supplier_invoice",
    id: made.id,
    header: { ...made, supplier_invoice_number: opts.number ?? `SUP-${process.pid}-${seq}` },
    lines: [{ ...line, qty: opts.invoiced ?? received, unit_price: opts.price ?? poPrice }],
  });
  const res = await act(email, "supplier_invoice", saved.id, "submit");
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
}
