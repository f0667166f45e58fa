import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { RECEIPT_RULE } from "@workmetrics/domain/documents/postings";
import { DELIVERY_ORDER, DELIVERY_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/delivery-order";
import { INVOICE, INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/invoice";
import { QUOTATION } from "@workmetrics/domain/documents/types/quotation";
import { SALES_ORDER, SALES_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/sales-order";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import {
  deliveryOrderLineResource,
  deliveryOrderResource,
  invoiceLineResource,
  invoiceResource,
  quotationLineResource,
  quotationResource,
  salesOrderLineResource,
  salesOrderResource,
} from "@workmetrics/domain/resources/selling";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { checkDriverOnConvert, checkDriverOnSave } from "../driver/driver.rpc.ts";
import { DELIVERY_ORDER_EFFECTS } from "./delivery-order.effects.ts";
import {
  documentActionCheckRpc,
  documentActionsRpc,
  documentConvert,
  documentSave,
  documentTransition,
  recordPaymentRpc,
} from "./documents.rpc.ts";
import { documentEmail } from "./email.rpc.ts";
import { documentHistory } from "./history.rpc.ts";
import { INVOICE_EFFECTS } from "./invoice.effects.ts";
import { documentLabels } from "./labels.rpc.ts";
import { documentListTotals } from "./list-totals.rpc.ts";
import { registerPaymentKind } from "./record-payment.ts";
import { stockOnHand } from "./stock-on-hand.rpc.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// Issue 10 §2: the selling documents on the generic document engine; a type's effects (stock, ledger) are its own.
export function registerDocuments(): void {
  registerDocumentType({ machine: machine(QUOTATION), header: quotationResource, lines: quotationLineResource });
  registerDocumentType({
    machine: machine(SALES_ORDER),
    header: salesOrderResource,
    lines: salesOrderLineResource,
    madeFrom: SALES_ORDER_MADE_FROM,
  });
  registerDocumentType({
    machine: machine(DELIVERY_ORDER),
    header: deliveryOrderResource,
    lines: deliveryOrderLineResource,
    madeFrom: DELIVERY_ORDER_MADE_FROM,
    effects: DELIVERY_ORDER_EFFECTS,
    prepareSave: checkDriverOnSave, // issue 22: only drivers are assigned
    prepareConvert: checkDriverOnConvert,
  });
  registerDocumentType({
    machine: machine(INVOICE),
    header: invoiceResource,
    lines: invoiceLineResource,
    madeFrom: INVOICE_MADE_FROM,
    effects: INVOICE_EFFECTS,
  });
  registerRpc(
    documentSave,
    documentTransition,
    documentConvert,
    documentActionsRpc,
    documentActionCheckRpc,
    recordPaymentRpc,
  );
  // Issue 10 §2: a customer's receipt pays invoices and debit notes (receivables of their own).
  registerPaymentKind({
    type: "receipt",
    access: {
      audience: "member",
      permission: "receipt.create",
      feature: "erp",
      subject: "Receipts",
      does: "record receipts",
    },
    party: "customer",
    pays: ["invoice", "debit_note"],
    rule: RECEIPT_RULE,
  });
  registerRpc(documentEmail); // issue 10 §3: e-mail a document with its PDF
  registerRpc(documentHistory, stockOnHand, documentListTotals);
  registerRpc(documentLabels); // the names a document points at, for a member who may read it (a driver)
}
