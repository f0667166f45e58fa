import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { PURCHASE_ORDER } from "@workmetrics/domain/documents/types/purchase-order";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import {
  SUPPLIER_DELIVERY_ORDER,
  SUPPLIER_DELIVERY_ORDER_MADE_FROM,
} from "@workmetrics/domain/documents/types/supplier-delivery-order";
import { SUPPLIER_INVOICE, SUPPLIER_INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/supplier-invoice";
import {
  purchaseOrderLineResource,
  purchaseOrderResource,
  supplierDeliveryOrderLineResource,
  supplierDeliveryOrderResource,
  supplierInvoiceLineResource,
  supplierInvoiceResource,
} from "@workmetrics/domain/resources/purchasing";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { prefillPurchasePrices } from "./pricing.ts";
import { PURCHASE_ORDER_EFFECTS } from "./purchase-order.effects.ts";
import {
  prepareReceiptConvert,
  prepareReceiptSave,
  SUPPLIER_DELIVERY_ORDER_EFFECTS,
} from "./supplier-delivery-order.effects.ts";
import {
  prepareSupplierInvoice,
  prepareSupplierInvoiceConvert,
  SUPPLIER_INVOICE_EFFECTS,
} from "./supplier-invoice.effects.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// Issue 11: purchase orders, supplier delivery orders and supplier invoices on the generic document engine; what
// each does beyond its status (stock in at the moving average, the ledger, the three-way check) is its effects.
export function registerPurchasing(): void {
  registerDocumentType({
    machine: machine(PURCHASE_ORDER),
    header: purchaseOrderResource,
    lines: purchaseOrderLineResource,
    effects: PURCHASE_ORDER_EFFECTS,
    prepareSave: prefillPurchasePrices,
  });
  registerDocumentType({
    machine: machine(SUPPLIER_DELIVERY_ORDER),
    header: supplierDeliveryOrderResource,
    lines: supplierDeliveryOrderLineResource,
    madeFrom: SUPPLIER_DELIVERY_ORDER_MADE_FROM,
    effects: SUPPLIER_DELIVERY_ORDER_EFFECTS,
    prepareSave: prepareReceiptSave,
    prepareConvert: prepareReceiptConvert,
  });
  registerDocumentType({
    machine: machine(SUPPLIER_INVOICE),
    header: supplierInvoiceResource,
    lines: supplierInvoiceLineResource,
    madeFrom: SUPPLIER_INVOICE_MADE_FROM,
    effects: SUPPLIER_INVOICE_EFFECTS,
    prepareSave: prepareSupplierInvoice,
    prepareConvert: prepareSupplierInvoiceConvert,
    notCopied: ["supplier_invoice_number"], // a duplicate is another bill, with its own number
  });
}
