import { lazy } from "react";
import type { DocumentExtensions } from "../documents/extensions.ts";
import { claimBlocked } from "./figures.ts";

// Issue 12 on the document pages (registered in app/modules.ts): a claim is made from its contract only; its own
// lines (cumulative %) and figures, the payment response, payments, the release of retention and the contract's
// retention schedule.
const extensions: DocumentExtensions = {
  progressive_claim: {
    pageActions: [lazy(() => import("./ClaimActions.tsx"))],
    editor: lazy(() => import("./ClaimLines.tsx")),
    convertOnly: true,
    blocked: claimBlocked,
  },
};
export default extensions;
