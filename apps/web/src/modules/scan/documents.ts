import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 24 "OCR" (registered in app/modules.ts): "Scan an invoice" on the supplier invoice list, and on a draft made
// from a scan, what was read — each field with its confidence — and why it needs review.
const extensions: DocumentExtensions = {
  supplier_invoice: {
    listButton: lazy(() => import("./ScanInvoiceButton.tsx")),
    panels: [lazy(() => import("./ScanPanel.tsx"))],
  },
};
export default extensions;
