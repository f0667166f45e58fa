import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { datedMoves, idArray, systemLocations } from "../inventory/stock-sources.ts";
import { defineReport } from "./registry.ts";

// DESIGN §2.3.1 `report {name: "stock_valuation", as_of}` (issue 11 "Stock"): per product, the quantity in hand on
// `as_of` and its value at moving-average cost; goods in transit between locations and goods on loan are valued
// beside it (the books keep them in 1210 Stock In Transit and 1220 Goods on Loan). A value is Σ qty × unit_cost of
// the moves counted by that day — each move carries the cost it went in or out at (receipts their price, deliveries
// the product's moving average then), which is what the books posted, so `value` totals the 1200 Stock In Hand
// balance on any day, today's as much as a past one's; avg_cost = value ÷ qty, the product's current cost beside it.
// A move counts from the day of its document's journal entry (datedMoves).

const params = z.object({ as_of: z.iso.date().optional() });

export const stockValuation = defineReport({
  name: "stock_valuation",
  params,
  need: REPORT_ACCESS.stock_valuation,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const asOf = p.as_of ? sql`${p.as_of}::date` : sql`current_date`;
    // Nothing is posted after as_of (today, usually): every move counts, and dating them is work for nothing.
    const later = await tx.execute(sql`select 1 from journal_entry
      where workspace_id = ${ws}::uuid and entry_date > ${asOf} limit 1`);
    const counted = later.rows.length
      ? sql`${datedMoves(ws, sql``)}, counted as (select * from dm where dm.move_date <= ${asOf})`
      : sql`counted as (select * from stock_move where workspace_id = ${ws}::uuid)`;
    const sys = await systemLocations(tx, ws);
    const where = (ids: number[]) => sql`c.location_id = any(${idArray(ids)})`;
    const inHand = sql`c.location_id <> all(${idArray([...sys.transit, ...sys.onLoan])})`;
    const res = await tx.execute(sql`with ${counted}, held as (
        select c.product_id, coalesce(sum(c.qty) filter (where ${inHand}), 0) as qty,
          coalesce(round(sum(c.qty * c.unit_cost) filter (where ${inHand}), 2), 0) as value,
          coalesce(round(sum(c.qty * c.unit_cost) filter (where ${where(sys.transit)}), 2), 0) as in_transit,
          coalesce(round(sum(c.qty * c.unit_cost) filter (where ${where(sys.onLoan)}), 2), 0) as on_loan
        from counted c group by c.product_id
      )
      select p.id as product_id, p.sku, p.name as product, p.unit, h.qty::numeric(14,3)::text as qty,
        case when h.qty <> 0 then round(h.value / h.qty, 4)::text end as avg_cost, p.cost::text as cost,
        h.value::numeric(14,2)::text as value, h.in_transit::numeric(14,2)::text as in_transit,
        h.on_loan::numeric(14,2)::text as on_loan
      from held h join product p on p.workspace_id = ${ws}::uuid and p.id = h.product_id
      where h.qty <> 0 or h.value <> 0 or h.in_transit <> 0 or h.on_loan <> 0
      order by p.name, p.id`);
    const rows = res.rows as Array<Record<string, string | number | null>>;
    const total = (k: string) => sum(rows.map((r) => String(r[k])));
    return {
      columns: [
        { key: "sku", label: "SKU", kind: "text" },
        { key: "product", label: "Product", kind: "text" },
        { key: "qty", label: "Quantity", kind: "text" },
        { key: "avg_cost", label: "Average cost", kind: "money" },
        { key: "cost", label: "Current cost", kind: "money" },
        { key: "value", label: "Value", kind: "money" },
        { key: "in_transit", label: "In transit", kind: "money" },
        { key: "on_loan", label: "On loan", kind: "money" },
      ],
      rows: rows.map((r) => ({ ...r, product_id: Number(r.product_id) })),
      totals: {
        qty: total("qty").toFixed(3),
        value: money(total("value")),
        in_transit: money(total("in_transit")),
        on_loan: money(total("on_loan")),
        count: rows.length,
      },
    };
  },
});
