import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { saveDraft } from "../../platform/documents/save.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { idArray } from "./stock-sources.ts";

// Draft purchase orders made for stock (issue 11 "Stock": the reorder levels' "Draft purchase orders" and a sales
// order's "Purchase what is short"): one per supplier and deliver-to location, made by the engine's document_save
// as a buyer's own draft would be, so the buyer reviews, prices and submits them on the purchase order page.

export type Want = { product_id: number; qty: string; supplier_id: number; location_id: number };
export type Drafted = {
  id: number;
  supplier_id: number;
  supplier: string;
  location_id: number;
  location: string;
  lines: number;
};

async function namesOf(tx: Tx, ws: string, table: "company" | "location", ids: number[]): Promise<Map<number, string>> {
  const res = await tx.execute(sql`select id, name from ${sql.identifier(table)} where workspace_id = ${ws}::uuid
    and id = any(${idArray([...new Set(ids)])})`);
  return new Map((res.rows as Array<{ id: number | string; name: string }>).map((r) => [Number(r.id), r.name]));
}

export async function draftPurchaseOrders(
  tx: Tx,
  caller: Caller,
  wants: readonly Want[],
  notes: string,
): Promise<Drafted[]> {
  const ws = caller.workspaceId as string;
  const spec = documentSpec("purchase_order");
  const groups = new Map<string, Want[]>();
  for (const w of wants) {
    const key = `${w.supplier_id}:${w.location_id}`;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  const supplier = await namesOf(
    tx,
    ws,
    "company",
    wants.map((w) => w.supplier_id),
  );
  const place = await namesOf(
    tx,
    ws,
    "location",
    wants.map((w) => w.location_id),
  );
  const out: Drafted[] = [];
  for (const lines of groups.values()) {
    const { supplier_id, location_id } = lines[0];
    // Lines without a price: the purchase order's own pricing (purchasing/pricing.ts) gives the supplier's — a
    // confirmed discount, else their last price, else our cost — as on a buyer's own draft.
    const id = await saveDraft(tx, caller, spec, {
      header: { company_id: supplier_id, location_id, notes },
      lines: lines.map((l) => ({ product_id: l.product_id, qty: l.qty })),
    });
    out.push({
      id,
      supplier_id,
      supplier: supplier.get(supplier_id) ?? "",
      location_id,
      location: place.get(location_id) ?? "",
      lines: lines.length,
    });
  }
  return out;
}
