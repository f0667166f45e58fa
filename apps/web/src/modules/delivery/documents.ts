import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 22 on the back office's delivery orders (registered in app/modules.ts): the proof of delivery (or the
// failure) on the document page, and dispatch — "Assign driver and date" — on the rows selected in the list.
const extensions: DocumentExtensions = {
  delivery_order: {
    panels: [lazy(() => import("./ProofPanel.tsx"))],
    listAction: lazy(() => import("./DispatchAction.tsx")),
  },
};
export default extensions;
