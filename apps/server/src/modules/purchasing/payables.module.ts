import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { registerPrinter } from "../documents/pdf/print-types.ts";
import { registerPaymentKind } from "../documents/record-payment.ts";
import { registerOverdueTable } from "../reports/overdue.ts";
import { registerReport } from "../reports/registry.ts";
import { receiptFiles } from "./payables-receipt-files.report.ts";
import { threeWayQueue } from "./payables-three-way.report.ts";
import { purchasePricesRpc } from "./pricing.ts";
import { supplierPaymentEmail } from "./supplier-payment.email.ts";
import { printRemittance } from "./supplier-payment.remittance.ts";
import { SUPPLIER_PAYMENT_KIND, supplierPaymentCancel } from "./supplier-payment.ts";

// Issue 11: supplier payments, accounts payable, the three-way check queue and the receipts' attachments.
export function registerPayables(): void {
  registerPaymentKind(SUPPLIER_PAYMENT_KIND); // record_payment {type: "supplier_payment"}
  registerRpc(supplierPaymentCancel, supplierPaymentEmail); // cancel; e-mail the remittance advice
  registerRpc(purchasePricesRpc); // issue 21 §1: a buying line priced as it is picked
  registerPrinter("supplier_payment", printRemittance); // the remittance advice
  registerReport(threeWayQueue, receiptFiles); // the exception queue; the receipts' attachments
  registerOverdueTable("supplier_invoice"); // owed to a supplier past its due date: Overdue, as invoices
}
