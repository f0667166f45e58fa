import { z } from "zod";
import { decimal, defineCommand, id } from "./define.ts";

// Issue 11 "Stock" (modules/inventory on the server). Read by whoever the stock pages' rule lets in (STOCK_ACCESS,
// checked inside).

export const stockLevelRow = z.object({
  product_id: z.number(),
  sku: z.string(),
  name: z.string(),
  unit: z.string(),
  on_hand: decimal,
  reserved: decimal,
  on_order: decimal,
  on_loan: decimal,
  in_transit: decimal,
  available: decimal, // on hand − reserved
  min_qty: decimal.nullable(),
  reorder_qty: decimal.nullable(),
  to_reorder: z.boolean(),
  by_location: z.array(z.object({ location_id: z.number(), location: z.string(), qty: decimal })),
});
export type StockLevel = z.output<typeof stockLevelRow>;

// One row per stock-tracked product — on hand, reserved by undelivered sales orders, on order, on loan, in transit,
// available and its reorder level; with location_id the figures that have a location are that location's.
export const stockLevels = defineCommand({
  name: "stock_levels",
  args: z.object({
    search: z.string().trim().max(100).optional(),
    location_id: id.nullish(),
    to_reorder: z.boolean().optional(),
    product_ids: z.array(id).max(500).optional(),
    limit: z.number().int().min(1).max(500).default(50),
    offset: z.number().int().min(0).default(0),
  }),
  result: z.object({ rows: z.array(stockLevelRow), total: z.number() }),
  permission: null,
  feature: "erp",
});
export type StockLevelsArgs = z.output<typeof stockLevels.args>;

export const stockCardRow = z.object({
  id: z.number(),
  date: z.string(),
  doc_type: z.string(),
  doc_id: z.number(),
  number: z.string().nullable(),
  location_id: z.number(),
  location: z.string(),
  qty_in: decimal.nullable(),
  qty_out: decimal.nullable(),
  balance: decimal,
  unit_cost: decimal,
});
export type StockCardRow = z.output<typeof stockCardRow>;

// ERPNext's Stock Ledger: every move of a product in the order it counts, the running balance carried over pages.
export const stockCard = defineCommand({
  name: "stock_card",
  args: z.object({
    product_id: id,
    location_id: id.nullish(),
    limit: z.number().int().min(1).max(5000).default(100),
    offset: z.number().int().min(0).default(0),
  }),
  result: z.object({
    product: z.object({ id: z.number(), sku: z.string(), name: z.string(), unit: z.string(), cost: decimal }),
    rows: z.array(stockCardRow),
    total: z.number(),
  }),
  permission: null,
  feature: "erp",
});

const drafted = z.object({
  id: z.number(),
  supplier_id: z.number(),
  supplier: z.string(),
  location_id: z.number(),
  location: z.string(),
  lines: z.number(),
});

// What the "to reorder" filter shows, drafted as purchase orders per preferred supplier and location.
export const reorderDraftPurchaseOrders = defineCommand({
  name: "reorder_draft_purchase_orders",
  args: z.object({
    location_id: id.nullish(),
    search: z.string().trim().max(100).optional(),
    product_ids: z.array(id).max(500).optional(),
  }),
  result: z.object({
    created: z.array(drafted),
    skipped: z.array(z.object({ product_id: z.number(), product: z.string(), reason: z.string() })),
  }),
  permission: "purchase_order.create",
  does: "draft purchase orders",
  feature: "erp",
});

// A submitted sales order's lines that stock cannot give, drafted as purchase orders per supplier.
export const purchaseShort = defineCommand({
  name: "purchase_short",
  args: z.object({ sales_order_id: id, supplier_id: id.nullish(), location_id: id.nullish() }),
  result: z.object({
    created: z.array(drafted),
    short: z.array(z.object({ product_id: z.number(), product: z.string(), qty: decimal })),
  }),
  permission: "purchase_order.create",
  does: "draft purchase orders",
  feature: "erp",
});

export const INVENTORY_COMMANDS = [stockLevels, stockCard, reorderDraftPurchaseOrders, purchaseShort] as const;
