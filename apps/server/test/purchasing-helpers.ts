import { plain } from "@workmetrics/domain/documents/decimal";
import { type SQL, sql } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import { act, type Doc, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, type OwnServer, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Shared by the purchasing-*.api.test.ts files (issue 11): a server of its own, the demo workspace's suppliers,
// products and locations, and the buying chain as the roles run it.

export const ADMIN = "admin@demo.test";
export const BUYER = "procurement@demo.test";
export const STORE = "warehouse@demo.test";
export const ACCOUNTS = "accounts@demo.test";
export const FINANCE = "finance@demo.test";

export type World = OwnServer & {
  items: Product[];
  supplier: number;
  otherSupplier: number;
  tuas: number;
  ubi: number;
};

// A server of its own with the demo workspace's first products, two suppliers and the Tuas and Ubi warehouses, ready
// before the file's tests.
export function world(): World {
  const w = ownServer() as World;
  beforeAll(async () => {
    w.items = await products(ADMIN, 3);
    const suppliers = (await restFetch(ADMIN, "company?select=id&is_supplier=is.true&order=id")).body as Array<{
      id: number;
    }>;
    w.supplier = suppliers[0].id;
    w.otherSupplier = suppliers[1].id;
    const locs = await locationsByCode(ADMIN);
    w.tuas = locs["WH-TUAS"];
    w.ubi = locs["WH-UBI"];
  }, 120_000);
  return w;
}

export const query = <T>(w: World, q: SQL): Promise<T[]> => w.q<T>(q);

export const settings = (args: Record<string, unknown>) => ok(ADMIN, "document_settings_save", args);

// A submitted purchase order of `lines` (product index, qty, price) from the supplier, delivered to Tuas.
export async function order(
  w: World,
  lines: Array<{ item?: number; qty: string; price?: string; service?: number }>,
  header: Record<string, unknown> = {},
  who = BUYER,
): Promise<Doc> {
  const po = await ok(who, "document_save", {
    type: "purchase_order",
    header: { company_id: w.supplier, location_id: w.tuas, ...header },
    lines: lines.map((l) => ({
      ...(l.service != null ? { service_id: l.service } : { product_id: w.items[l.item ?? 0].id }),
      qty: l.qty,
      ...(l.price ? { unit_price: l.price } : {}),
    })),
  });
  return ok(who, "document_transition", { type: "purchase_order", id: po.id, action: "submit" });
}

// A receipt of the order: each of `qty` per line (default what is left), submitted.
export async function receive(
  po: Doc,
  lines?: Array<{ line: number; qty: string }>,
  extra: Record<string, unknown> = {},
) {
  const made = await ok(STORE, "document_convert", {
    type: "purchase_order",
    id: po.id,
    to: "supplier_delivery_order",
    ...(lines ? { lines: lines.map((l) => ({ line_id: po.lines[l.line].id, qty: l.qty })) } : {}),
    ...extra,
  });
  return ok(STORE, "document_transition", { type: "supplier_delivery_order", id: made.id, action: "submit" });
}

let numbers = 0;
export const supplierNumber = () => `INV-${Date.now() % 100000}-${++numbers}`;

// A draft supplier invoice made from a receipt or an order (what is left to bill), with the supplier's number.
export async function billDraft(
  from: { type: "supplier_delivery_order" | "purchase_order"; doc: Doc },
  lines?: Array<{ line: number; qty: string }>,
  number = supplierNumber(),
): Promise<Doc> {
  const made = await ok(ACCOUNTS, "document_convert", {
    type: from.type,
    id: from.doc.id,
    to: "supplier_invoice",
    header: { supplier_invoice_number: number },
    ...(lines ? { lines: lines.map((l) => ({ line_id: from.doc.lines[l.line].id, qty: l.qty })) } : {}),
  });
  return made;
}

// Saves a draft supplier invoice again with changed lines (a price the supplier charged).
export async function resave(inv: Doc, change: (line: Record<string, unknown>, i: number) => Record<string, unknown>) {
  const keep = [
    "product_id",
    "service_id",
    "description",
    "qty",
    "unit_price",
    "discount_percent",
    "tax_code",
    "source_line_id",
  ];
  return ok(ACCOUNTS, "document_save", {
    type: "supplier_invoice",
    id: inv.id,
    header: { company_id: inv.company_id, supplier_invoice_number: inv.supplier_invoice_number },
    lines: inv.lines.map((l, i) => change(Object.fromEntries(keep.map((k) => [k, l[k]])), i)),
  });
}

export async function bill(inv: Doc, who = ACCOUNTS): Promise<Doc> {
  return ok(who, "document_transition", { type: "supplier_invoice", id: inv.id, action: "submit" });
}

export async function onHand(w: World, productId: number): Promise<string> {
  const [r] = await query<{ n: string }>(
    w,
    sql`select coalesce(sum(qty), 0)::text as n from stock_move where workspace_id = ${w.ws}::uuid and product_id = ${productId}`,
  );
  return plain(r.n);
}

export async function cost(w: World, productId: number): Promise<string> {
  const [r] = await query<{ c: string }>(
    w,
    sql`select cost::text as c from product where workspace_id = ${w.ws}::uuid and id = ${productId}`,
  );
  return r.c;
}

// Every journal entry of the workspace balances, and so the trial balance is 0.
export async function expectBalancedBooks(w: World): Promise<void> {
  const [r] = await query<{ unbalanced: number; diff: string }>(
    w,
    sql`select count(*) filter (where d <> c)::int as unbalanced, coalesce(sum(d - c), 0)::text as diff
      from (select entry_id, sum(debit) as d, sum(credit) as c from journal_line
        where workspace_id = ${w.ws}::uuid group by entry_id) t`,
  );
  expect({ ...r, diff: plain(r.diff) }).toEqual({ unbalanced: 0, diff: "0" });
}

// The entry a document posted (not the reversals): account → debit − credit.
export async function posted(w: World, type: string, id: number): Promise<Record<string, string>> {
  const rows = await query<{ account_code: string; net: string }>(
    w,
    sql`select l.account_code, sum(l.debit - l.credit)::text as net from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.workspace_id = ${w.ws}::uuid and e.source_type = ${type} and e.source_id = ${id} and e.reversal_of is null
      group by l.account_code order by l.account_code`,
  );
  return Object.fromEntries(rows.map((r) => [r.account_code, r.net]));
}

export { act, type Doc, ok, read, rpc };
