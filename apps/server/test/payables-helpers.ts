import { expect } from "vitest";
import { act, type Doc, ok, products } from "./documents-helpers.ts";
import { ACCOUNTS, ADMIN, FINANCE } from "./purchasing-helpers.ts";
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

// A purchase order of `qty` of one product at `price` made and received in full by the demo's admin, approved by
// finance where it waits for approval (the journeys' chain: each step by the role that does it). Returns the receipt.
export async function receivedOrder(o: {
  companyId: number;
  locationId: number;
  productId: number;
  qty: string;
  price: string;
}): Promise<Doc> {
  const po = await ok(ADMIN, "document_save", {
    type: "purchase_order",
    header: { company_id: o.companyId, location_id: o.locationId },
    lines: [{ product_id: o.productId, qty: o.qty, unit_price: o.price }],
  });
  const submitted = await ok(ADMIN, "document_transition", { type: "purchase_order", id: po.id, action: "submit" });
  if (submitted.status === "pending_approval") {
    await ok(FINANCE, "document_transition", { type: "purchase_order", id: po.id, action: "approve" });
  }
  const sdo = await ok(ADMIN, "document_convert", { type: "purchase_order", id: po.id, to: "supplier_delivery_order" });
  return ok(ADMIN, "document_transition", { type: "supplier_delivery_order", id: sdo.id, action: "submit" });
}

// A supplier of its own (`name` and the time) with a received order of `qty` at `price`, and the supplier's invoice
// `number` billed at `billed` entered by accounts — held by the three-way check when `billed` is over the tolerance.
export async function heldInvoice(o: {
  name: string;
  number: string;
  qty: string;
  price: string;
  billed: string;
}): Promise<{ supplier: string; supplierId: number; invoice: Doc & { number: string } }> {
  const supplier = `${o.name} ${Date.now()}`;
  const made = await restFetch(ADMIN, "company", {
    method: "POST",
    body: JSON.stringify({ name: supplier, is_supplier: true, payment_terms_days: 30 }),
    headers: { prefer: "return=representation" },
  });
  expect(made.status, made.text).toBe(201);
  const supplierId = (made.body as Array<{ id: number }>)[0].id;
  const product = ((await restFetch(ADMIN, "product?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0];
  const sdo = await receivedOrder({
    companyId: supplierId,
    locationId: await location(ADMIN),
    productId: product.id,
    qty: o.qty,
    price: o.price,
  });
  const draft = await ok(ACCOUNTS, "document_convert", {
    type: "supplier_delivery_order",
    id: sdo.id,
    to: "supplier_invoice",
  });
  const saved = await ok(ACCOUNTS, "document_save", {
    type: "supplier_invoice",
    id: draft.id,
    header: { ...draft, supplier_invoice_number: o.number },
    lines: draft.lines.map((l) => ({ ...l, unit_price: o.billed })),
  });
  const invoice = await ok(ACCOUNTS, "document_transition", {
    type: "supplier_invoice",
    id: saved.id,
    action: "submit",
  });
  expect(invoice.match_status).toBe("exception");
  return { supplier, supplierId, invoice: invoice as Doc & { number: string } };
}
