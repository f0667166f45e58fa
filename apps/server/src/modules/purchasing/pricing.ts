import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { PrepareSave } from "../../platform/documents/registry.ts";
import type { Row } from "../../platform/documents/store.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { applyDiscount, confirmedDiscounts } from "../partners/discount-pricing.ts";

// Issue 11: what a purchase line costs when the buyer gives no price — the one place purchase prices are decided.
// A confirmed supplier discount comes first (partners/discount-pricing.ts); else the supplier's price on their last
// submitted purchase order for the product, else the product's cost (what we last paid, on average).
export async function purchasePrice(
  tx: Tx,
  ws: string,
  supplierId: number | null,
  productIds: readonly number[],
): Promise<Map<number, string>> {
  const priced = await pricedWith(tx, ws, supplierId, productIds);
  return new Map([...priced].map(([id, p]) => [id, p.price]));
}

type Priced = { price: string; source: "last_price" | "cost" };

async function pricedWith(
  tx: Tx,
  ws: string,
  supplierId: number | null,
  productIds: readonly number[],
): Promise<Map<number, Priced>> {
  const prices = new Map<number, Priced>();
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return prices;
  const list = `{${ids.join(",")}}`;
  if (supplierId != null) {
    const last = await tx.execute(sql`select distinct on (l.product_id) l.product_id, l.unit_price::text as price
      from purchase_order_line l
      join purchase_order h on h.workspace_id = l.workspace_id and h.id = l.purchase_order_id
      where l.workspace_id = ${ws}::uuid and h.company_id = ${supplierId} and l.product_id = any(${list}::bigint[])
        and h.status not in ('draft', 'cancelled')
      order by l.product_id, h.doc_date desc, h.id desc, l.line_no`);
    for (const r of last.rows as Array<{ product_id: number | string; price: string }>) {
      prices.set(Number(r.product_id), { price: r.price, source: "last_price" });
    }
  }
  const rest = ids.filter((id) => !prices.has(id));
  if (rest.length) {
    const cost = await tx.execute(sql`select id, cost::text as cost from product
      where workspace_id = ${ws}::uuid and id = any(${`{${rest.join(",")}}`}::bigint[])`);
    for (const r of cost.rows as Array<{ id: number | string; cost: string }>) {
      prices.set(Number(r.id), { price: r.cost, source: "cost" });
    }
  }
  return prices;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== "";

// document_save of a buying document: product lines saved without a unit price get the purchase price (never the
// selling price the engine would snapshot).
export const prefillPurchasePrices: PrepareSave = async (tx, caller, spec, draft) => {
  const missing = draft.lines.filter((l) => l.product_id != null && !given(l.unit_price));
  if (missing.length === 0) return draft;
  const supplier = draft.header.company_id == null ? null : Number(draft.header.company_id);
  const prices = await purchasePrice(
    tx,
    caller.workspaceId as string,
    supplier,
    missing.map((l) => Number(l.product_id)),
  );
  // A confirmed supplier discount (issue 11) prices a purchase order's line instead, and the line names it (a
  // supplier invoice bills what the supplier says).
  const discounts =
    supplier == null || spec.machine.type !== "purchase_order"
      ? new Map()
      : await confirmedDiscounts(
          tx,
          caller.workspaceId as string,
          supplier,
          missing.map((l) => Number(l.product_id)),
          draft.header.doc_date == null ? null : String(draft.header.doc_date),
        );
  const lines: Row[] = draft.lines.map((l) =>
    l.product_id != null && !given(l.unit_price)
      ? applyDiscount(l, prices.get(Number(l.product_id)), discounts.get(Number(l.product_id)) ?? [])
      : l,
  );
  return { header: draft.header, lines };
};

// purchase_prices (issue 21 §1): the prices a buying document's save would give its lines, for the lines grid to
// show as the clerk picks — the same functions, so what is shown is what is saved.
export const purchasePricesRpc = implement(COMMANDS.purchase_prices, {
  async run(tx, args, caller) {
    const ws = caller.workspaceId as string;
    const supplier = args.company_id ?? null;
    const priced = await pricedWith(tx, ws, supplier, args.product_ids);
    const discounts =
      supplier == null ? new Map() : await confirmedDiscounts(tx, ws, supplier, args.product_ids, args.date ?? null);
    return {
      prices: [...new Set(args.product_ids)].map((id) => {
        const base = priced.get(id);
        const line = applyDiscount({ qty: args.qty ?? "1" }, base?.price, discounts.get(id) ?? []);
        const form = line.supplier_discount_form_id == null ? null : Number(line.supplier_discount_form_id);
        return {
          product_id: id,
          unit_price: line.unit_price == null ? null : String(line.unit_price),
          discount_percent: String(line.discount_percent ?? "0"),
          supplier_discount_form_id: form,
          source: form != null ? ("discount" as const) : (base?.source ?? ("cost" as const)),
        };
      }),
    };
  },
});
