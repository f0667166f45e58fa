import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 22 "Warehouse" on the document pages (registered in app/modules.ts): pick lists are made from a sales order or
// a delivery instruction (by the warehouse app, or Convert on the source), stock counts by the warehouse app's blind
// count; the back office reads them and a manager applies a count's differences (its Apply button). A sales order's
// and a delivery instruction's page offer "Make pick list", as the app does.
const make = () => import("./MakePickListButton.tsx");
const extensions: DocumentExtensions = {
  pick_list: { convertOnly: true },
  sales_order: { pageActions: [lazy(() => make().then((m) => ({ default: m.FromSalesOrder })))] },
  delivery_instruction: { pageActions: [lazy(() => make().then((m) => ({ default: m.FromDeliveryInstruction })))] },
  stock_count: { convertOnly: true, editor: lazy(() => import("./StockCountLines.tsx")) },
};
export default extensions;
