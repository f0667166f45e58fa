import { bigint, date, pgTable, text } from "drizzle-orm/pg-core";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
  drawnQuantities,
} from "./document-columns.ts";

// The selling documents' tables (issue 10 §2, DESIGN §2.3.1). Written only through the document commands; /rest/v1
// reads them, lines embedded as select=*,lines:quotation_line(*).

export const quotation = pgTable("quotation", { ...documentHeaderColumns, validUntil: date("valid_until") }, (t) =>
  documentHeaderKeys("quotation", t),
).enableRLS();

export const quotationLine = pgTable(
  "quotation_line",
  { ...documentLineColumns, quotationId: bigint("quotation_id", { mode: "number" }).notNull() },
  (t) => documentLineKeys("quotation_line", t, { column: t.quotationId, table: quotation }),
).enableRLS();

export const salesOrder = pgTable(
  "sales_order",
  { ...documentHeaderColumns, customerPo: text("customer_po"), deliveryDate: date("delivery_date") },
  (t) => documentHeaderKeys("sales_order", t),
).enableRLS();

export const salesOrderLine = pgTable(
  "sales_order_line",
  {
    ...documentLineColumns,
    ...drawnQuantities,
    salesOrderId: bigint("sales_order_id", { mode: "number" }).notNull(),
  },
  (t) => documentLineKeys("sales_order_line", t, { column: t.salesOrderId, table: salesOrder }),
).enableRLS();
