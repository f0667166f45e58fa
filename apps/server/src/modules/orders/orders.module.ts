import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { CUSTOMER_ORDER } from "@workmetrics/domain/documents/types/customer-order";
import {
  DELIVERY_INSTRUCTION,
  DELIVERY_INSTRUCTION_MADE_FROM,
} from "@workmetrics/domain/documents/types/delivery-instruction";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import {
  customerOrderLineResource,
  customerOrderResource,
  deliveryInstructionLineResource,
  deliveryInstructionResource,
} from "@workmetrics/domain/resources/orders";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { orderFormSave } from "./order-form-save.rpc.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// Issue 10 §2: orders (from the public order forms, confirmed into sales orders by document_convert) and delivery
// instructions on the generic document engine; neither moves stock or posts, so neither has effects. The public
// form's routes are in public-order-form.route.ts.
export function registerOrders(): void {
  registerDocumentType({
    machine: machine(CUSTOMER_ORDER),
    header: customerOrderResource,
    lines: customerOrderLineResource,
  });
  registerDocumentType({
    machine: machine(DELIVERY_INSTRUCTION),
    header: deliveryInstructionResource,
    lines: deliveryInstructionLineResource,
    madeFrom: DELIVERY_INSTRUCTION_MADE_FROM,
  });
  registerRpc(orderFormSave);
}
