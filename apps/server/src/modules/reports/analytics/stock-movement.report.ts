import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { datedMoves, idArray, systemLocations } from "../../inventory/stock-sources.ts";
import { defineReport } from "../registry.ts";
import { docDrill, idParam, narrowedDrill, period } from "./shared.ts";

// Issue 12 "Stock": per product, the stock in hand at the start of `from` (quantity and value), what came in and
// went out during the period, and what is in hand at the end of `to` — so closing = opening + in − out, and the
// closing value is the stock_valuation report's value on `to` (the 1200 Stock In Hand balance). "In hand" is what
// stock_valuation counts: every location but goods in transit and goods on loan, so a transfer's dispatch is an
// out and its arrival an in, a loan out is an out and its return an in. Each move counts from the day its
// document posted (datedMoves), valued at the cost it moved at. With `product_id`: that product's moves in the
// period, one row per document, each opening its document.

type Row = Record<string, string | number | null>;

export const stockMovement = defineReport({
  name: "stock_movement",
  params: z.intersection(period, z.object({ product_id: idParam.optional() })),
  need: REPORT_ACCESS.stock_movement,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const sys = await systemLocations(tx, ws);
    const inHand = sql`dm.location_id <> all(${idArray([...sys.transit, ...sys.onLoan])})`;
    const product = p.product_id === undefined ? sql`` : sql`and m.product_id = ${p.product_id}`;
    const moves = sql`with ${datedMoves(ws, product)}, h as (
        select dm.* from dm where ${inHand} and dm.move_date <= ${p.to}::date
      )`;
    if (p.product_id !== undefined) {
      const res = await tx.execute(sql`${moves}
        select h.doc_type, h.doc_id, h.move_date::text as date,
          coalesce(sum(h.qty) filter (where h.qty > 0), 0)::numeric(14,3)::text as qty_in,
          coalesce(-sum(h.qty) filter (where h.qty < 0), 0)::numeric(14,3)::text as qty_out,
          round(sum(h.qty * h.unit_cost), 2)::numeric(14,2)::text as value,
          (select number from journal_entry e where e.workspace_id = ${ws}::uuid and e.source_type = h.doc_type
            and e.source_id = h.doc_id and e.reversal_of is null order by e.id limit 1) as entry
        from h where h.move_date >= ${p.from}::date
        group by h.doc_type, h.doc_id, h.move_date
        order by h.move_date, min(h.id)`);
      const rows: Row[] = (res.rows as Row[]).map((r) => ({
        ...r,
        document: String(r.doc_type).replaceAll("_", " "),
      }));
      const total = (k: string) => sum(rows.map((r) => String(r[k])));
      return {
        columns: [
          { key: "date", label: "Date", kind: "date" },
          { key: "document", label: "Document", kind: "text" },
          { key: "entry", label: "Journal entry", kind: "text" },
          { key: "qty_in", label: "In", kind: "text" },
          { key: "qty_out", label: "Out", kind: "text" },
          { key: "value", label: "Value moved", kind: "money" },
        ],
        rows,
        totals: {
          qty_in: total("qty_in").toFixed(3),
          qty_out: total("qty_out").toFixed(3),
          value: money(total("value")),
          count: rows.length,
        },
        drill: rows.map((r) => docDrill(String(r.doc_type), r.doc_id, null)),
      };
    }
    const res = await tx.execute(sql`${moves}, per as (
        select h.product_id,
          coalesce(sum(h.qty) filter (where h.move_date < ${p.from}::date), 0) as opening_qty,
          coalesce(round(sum(h.qty * h.unit_cost) filter (where h.move_date < ${p.from}::date), 2), 0) as opening_value,
          coalesce(sum(h.qty) filter (where h.move_date >= ${p.from}::date and h.qty > 0), 0) as in_qty,
          coalesce(round(sum(h.qty * h.unit_cost) filter (where h.move_date >= ${p.from}::date and h.qty > 0), 2), 0)
            as in_value,
          coalesce(-sum(h.qty) filter (where h.move_date >= ${p.from}::date and h.qty < 0), 0) as out_qty,
          coalesce(-round(sum(h.qty * h.unit_cost) filter (where h.move_date >= ${p.from}::date and h.qty < 0), 2), 0)
            as out_value,
          sum(h.qty) as closing_qty, round(sum(h.qty * h.unit_cost), 2) as closing_value
        from h group by h.product_id
      )
      select pr.id as product_id, pr.sku, pr.name as product, pr.unit,
        per.opening_qty::numeric(14,3)::text as opening_qty, per.opening_value::numeric(14,2)::text as opening_value,
        per.in_qty::numeric(14,3)::text as in_qty, per.in_value::numeric(14,2)::text as in_value,
        per.out_qty::numeric(14,3)::text as out_qty, per.out_value::numeric(14,2)::text as out_value,
        per.closing_qty::numeric(14,3)::text as closing_qty, per.closing_value::numeric(14,2)::text as closing_value
      from per join product pr on pr.workspace_id = ${ws}::uuid and pr.id = per.product_id
      where per.opening_qty <> 0 or per.opening_value <> 0 or per.in_qty <> 0 or per.out_qty <> 0
        or per.closing_value <> 0
      order by pr.name, pr.id`);
    const rows: Row[] = (res.rows as Row[]).map((r) => ({
      ...r,
      product_id: Number(r.product_id),
    }));
    const total = (k: string) => sum(rows.map((r) => String(r[k])));
    const qtyKeys = ["opening_qty", "in_qty", "out_qty", "closing_qty"];
    const valueKeys = ["opening_value", "in_value", "out_value", "closing_value"];
    return {
      columns: [
        { key: "sku", label: "SKU", kind: "text" },
        { key: "product", label: "Product", kind: "text" },
        { key: "opening_qty", label: "Opening qty", kind: "text" },
        { key: "opening_value", label: "Opening value", kind: "money" },
        { key: "in_qty", label: "In qty", kind: "text" },
        { key: "in_value", label: "In value", kind: "money" },
        { key: "out_qty", label: "Out qty", kind: "text" },
        { key: "out_value", label: "Out value", kind: "money" },
        { key: "closing_qty", label: "Closing qty", kind: "text" },
        { key: "closing_value", label: "Closing value", kind: "money" },
      ],
      rows,
      totals: <Record<string, string | number>>{
        ...Object.fromEntries(qtyKeys.map((k) => [k, total(k).toFixed(3)])),
        ...Object.fromEntries(valueKeys.map((k) => [k, money(total(k))])),
        count: rows.length,
      },
      key: "product_id",
      drill: rows.map(narrowedDrill("stock_movement", p, "product_id")),
    };
  },
});
