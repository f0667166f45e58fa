import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Stock on the document pages (registered in app/modules.ts): a sales order's "Purchase what is short".
const extensions: DocumentExtensions = {
  sales_order: { pageActions: [lazy(() => import("./PurchaseShortButton.tsx"))] },
};
export default extensions;
