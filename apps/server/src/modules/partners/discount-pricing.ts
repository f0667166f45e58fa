import { Dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { Row } from "../../platform/documents/store.ts";

// Issue 11: a confirmed supplier discount prices new purchase order lines (ERPNext's buying pricing rule): the
// supplier's confirmed forms valid on the order's date, for a product listed on the form or in its category, from
// the form's minimum quantity. A price form gives the unit price; a % form keeps the supplier's price and sets the
// line's discount. Where several apply, the lowest net price wins (then the latest form). The line names the form
// (supplier_discount_form_id), so the PO shows where its price came from.

export type Discount = {
  formId: number;
  kind: "percent" | "price";
  percent: string | null;
  price: string | null;
  minQty: string;
};

export async function confirmedDiscounts(
  tx: Tx,
  ws: string,
  supplierId: number,
  productIds: readonly number[],
  date: string | null,
): Promise<Map<number, Discount[]>> {
  const found = new Map<number, Discount[]>();
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return found;
  const res = await tx.execute(sql`select f.id, f.discount_kind, f.discount_percent::text as percent, f.min_qty::text as
      min_qty, p.id as product_id, i.price::text as price
    from supplier_discount_form f
    join product p on p.workspace_id = f.workspace_id and p.id = any(${`{${ids.join(",")}}`}::bigint[])
    left join supplier_discount_form_item i on i.workspace_id = f.workspace_id and i.supplier_discount_form_id = f.id
      and i.product_id = p.id
    where f.workspace_id = ${ws}::uuid and f.company_id = ${supplierId} and f.status = 'confirmed'
      and coalesce(${date}::date, current_date) between f.valid_from and f.valid_to
      and (i.id is not null or (f.category_id is not null and p.category_id = f.category_id))
    order by f.id desc`);
  for (const r of res.rows as Array<Record<string, string | number | null>>) {
    const list = found.get(Number(r.product_id)) ?? [];
    list.push({
      formId: Number(r.id),
      kind: r.discount_kind as Discount["kind"],
      percent: r.percent == null ? null : String(r.percent),
      price: r.price == null ? null : String(r.price),
      minQty: String(r.min_qty),
    });
    found.set(Number(r.product_id), list);
  }
  return found;
}

// The line priced by the best discount that applies to its quantity, or as it was (with no form named).
export function applyDiscount(line: Row, base: string | undefined, discounts: readonly Discount[]): Row {
  const qty = new Dec(String(line.qty ?? "1"));
  let best: { net: InstanceType<typeof Dec>; set: Row } | null = null;
  for (const d of discounts) {
    if (qty.lessThan(d.minQty)) continue;
    const set: Row =
      d.kind === "price"
        ? { unit_price: d.price, discount_percent: "0" }
        : { unit_price: base, discount_percent: d.percent };
    if (set.unit_price == null) continue;
    const net = new Dec(String(set.unit_price)).times(new Dec(100).minus(String(set.discount_percent ?? "0"))).div(100);
    if (!best || net.lessThan(best.net)) best = { net, set: { ...set, supplier_discount_form_id: d.formId } };
  }
  return best ? { ...line, ...best.set } : { ...line, unit_price: base, supplier_discount_form_id: null };
}
