import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { registerPaymentKind } from "../documents/record-payment.ts";
import { SUPPLIER_PAYMENT_KIND, supplierPaymentCancel } from "./supplier-payment.ts";

// Issue 11: supplier payments, accounts payable, the three-way check queue and the receipts' attachments.
export function registerPayables(): void {
  registerPaymentKind(SUPPLIER_PAYMENT_KIND); // record_payment {type: "supplier_payment"}
  registerRpc(supplierPaymentCancel);
}
