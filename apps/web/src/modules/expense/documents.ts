import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 24 on the document pages (registered in app/modules.ts): an expense claim's receipts — photographed on the
// phone, with merchant, date, amount and GST — in place of the lines grid and totals.
const extensions: DocumentExtensions = {
  expense_claim: { editor: lazy(() => import("./ExpenseLines.tsx")) },
};
export default extensions;
