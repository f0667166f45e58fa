import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 22 "Warehouse" on the document pages (registered in app/modules.ts): pick lists are made from a sales order or
// a delivery instruction (by the warehouse app, or Convert on the source), stock counts by the warehouse app's blind
// count; the back office reads them and a manager applies a count's differences (its Apply button).
const extensions: DocumentExtensions = {
  pick_list: { convertOnly: true },
  stock_count: { convertOnly: true, editor: lazy(() => import("./StockCountLines.tsx")) },
};
export default extensions;
