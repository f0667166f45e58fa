import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Payables on the document pages (registered in app/modules.ts): a supplier invoice's Pay button.
const extensions: DocumentExtensions = {
  supplier_invoice: { pageActions: [lazy(() => import("./PayInvoiceButton.tsx"))] },
};
export default extensions;
