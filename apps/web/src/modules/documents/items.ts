import type { Row } from "../../platform/data-access/provider.ts";

// What a line's picker offers: products and services in one list, products first (MUI groups only neighbours),
// each known by its kind and id (a product and a service may share an id).

export type ItemKind = "product" | "service";

export const itemKey = (r: Row): string => `${String(r.kind ?? "product")}:${String(r.id)}`;

export function itemOptions(rows: readonly Row[]): Row[] {
  return [...rows.filter((r) => r.kind !== "service"), ...rows.filter((r) => r.kind === "service")];
}

// The types whose lines are goods only: they move stock, so a service has no place on them.
const GOODS_ONLY = new Set([
  "delivery_instruction",
  "delivery_order",
  "goods_return_note",
  "supplier_delivery_order",
  "goods_transfer_form",
  "loan_form",
  "customer_order",
  "pick_list",
  "stock_count",
]);

export const takesServices = (type: string): boolean => !GOODS_ONLY.has(type);
