import { createElement, lazy } from "react";
import type { Row } from "../../platform/data-access/provider.ts";
import type { DocumentExtensions } from "../documents/extensions.ts";

// Issue 24 on the document pages (registered in app/modules.ts): a document's conversations — the WhatsApp,
// Facebook or Instagram threads it was made from or sent into.
const TYPES = ["quotation", "sales_order", "invoice", "delivery_order", "receipt", "credit_note"];

const buttonFor = (type: string) =>
  lazy(() =>
    import("./ConversationsButton.tsx").then((m) => ({
      default: (props: { doc: Row; status: string }) => createElement(m.default, { ...props, type }),
    })),
  );

// Issue 24 "OneDrive": the document's PDF saved to a OneDrive folder.
const oneDriveFor = (type: string) =>
  lazy(() =>
    import("./OneDriveButton.tsx").then((m) => ({
      default: (props: { doc: Row; status: string }) => createElement(m.default, { ...props, type }),
    })),
  );

const extensions: DocumentExtensions = Object.fromEntries(
  TYPES.map((t) => [t, { pageActions: [buttonFor(t), oneDriveFor(t)] }]),
);
export default extensions;
