import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { GOODS_TRANSFER_FORM } from "@workmetrics/domain/documents/types/goods-transfer-form";
import { LOAN_FORM, SALES_ORDER_FROM_LOAN } from "@workmetrics/domain/documents/types/loan-form";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import {
  goodsTransferFormLineResource,
  goodsTransferFormResource,
  loanFormLineResource,
  loanFormResource,
} from "@workmetrics/domain/resources/inventory";
import { sql } from "drizzle-orm";
import { addEffect, addMadeFrom, type Effect, registerDocumentType } from "../../platform/documents/registry.ts";
import { registerOverdueTable } from "../reports/overdue.ts";
import { GOODS_TRANSFER_FORM_EFFECTS, valueAtCost } from "./goods-transfer-form.effects.ts";
import { LOAN_FORM_EFFECTS, soldFromLoan, unsoldFromLoan } from "./loan-form.effects.ts";
import { refuseSystemLocations } from "./system-locations.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// A document's own locations are real ones: nothing is delivered out of the transit or on-loan location (those goods
// are on their way or with a customer), nor ordered or received into one (goods from a supplier arrive somewhere).
const realLocations =
  (verb: string): Effect =>
  async (tx, caller, _spec, doc) => {
    await refuseSystemLocations(
      tx,
      caller.workspaceId as string,
      [
        { id: doc.header.location_id, field: "location_id" },
        ...doc.lines.map((l, i) => ({ id: l.location_id, field: `lines.${i}.location_id` })),
      ],
      verb,
    );
  };

// Issue 11: goods transfer forms and loan forms on the documents engine; a sales order can be made from a loan for
// what the customer keeps. Registered after the selling documents (whose sales and delivery orders it extends).
export function registerInventory(): void {
  registerDocumentType({
    machine: machine(GOODS_TRANSFER_FORM),
    header: goodsTransferFormResource,
    lines: goodsTransferFormLineResource,
    effects: GOODS_TRANSFER_FORM_EFFECTS,
    prepareSave: valueAtCost,
  });
  registerDocumentType({
    machine: machine(LOAN_FORM),
    header: loanFormResource,
    lines: loanFormLineResource,
    effects: LOAN_FORM_EFFECTS,
  });
  addMadeFrom("sales_order", SALES_ORDER_FROM_LOAN);
  addEffect("sales_order", "submit", soldFromLoan);
  addEffect("sales_order", "cancel", unsoldFromLoan);
  addEffect("delivery_order", "submit", realLocations("delivered from"));
  addEffect("purchase_order", "submit", realLocations("ordered into"));
  addEffect("supplier_delivery_order", "submit", realLocations("received into"));
  // Time passing makes a loan overdue: the overdue sweep moves loans past their due-back date with goods still out.
  registerOverdueTable("loan_form", sql`d.status in ('out', 'partly_returned') and d.due_date < current_date`);
}
