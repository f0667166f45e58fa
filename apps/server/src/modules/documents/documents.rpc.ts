import { z } from "zod";
import {
  convertDocument,
  offeredDocumentActions,
  saveDocument,
  transitionDocument,
} from "../../platform/documents/commands.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";
import { recordPayment } from "./record-payment.ts";

// DESIGN §2.3.1 "Writes go through commands": each answers the document as /rest/v1 reads it with its lines. The
// permission is the type's (checked inside: quotation.create, sales_order.submit …), so the command itself asks none.

const type = z.string().min(1).max(64);
const docId = z.number().int().positive();
const row = z.record(z.string(), z.unknown());

export const documentSave = defineRpc({
  name: "document_save",
  args: z.object({ type, id: docId.optional(), header: row, lines: z.array(row).max(1000) }),
  permission: null,
  run: (tx, args, caller) => saveDocument(tx, caller, args),
});

export const documentTransition = defineRpc({
  name: "document_transition",
  args: z.object({
    type,
    id: docId,
    action: z.string().min(1).max(64),
    reason: z.string().max(2000).nullish(),
    // The action's inputs: text, or a quantity per line ([{ line_id, qty }], checked against each line).
    values: z
      .record(
        z.string(),
        z.union([
          z.string().max(2000),
          z.null(),
          z
            .array(z.object({ line_id: docId, qty: z.union([z.string().max(40), z.number()]).transform(String) }))
            .max(1000),
        ]),
      )
      .nullish(),
  }),
  permission: null,
  run: (tx, args, caller) => transitionDocument(tx, caller, args),
});

const qty = z.union([z.string(), z.number()]).transform(String);

export const documentConvert = defineRpc({
  name: "document_convert",
  args: z.object({
    type,
    id: docId,
    to: type,
    lines: z
      .array(z.object({ line_id: docId, qty }))
      .max(1000)
      .optional(),
    header: row.optional(),
  }),
  permission: null,
  run: (tx, args, caller) => convertDocument(tx, caller, args),
});

// The actions the caller may run on the document now (the web's buttons), each with why it is blocked, if it is.
export const documentActionsRpc = defineRpc({
  name: "document_actions",
  args: z.object({ type, id: docId }),
  permission: null,
  run: (tx, args, caller) => offeredDocumentActions(tx, caller, args),
});

// DESIGN §2.3.1: a customer's payment allocated to invoices, or a payment to a supplier allocated to supplier
// invoices; what is left unallocated is the party's credit. Which documents a kind pays is its registration's.
const amount = z.union([z.string(), z.number()]).transform(String);

export const recordPaymentRpc = defineRpc({
  name: "record_payment",
  args: z.object({
    type: z.enum(["receipt", "supplier_payment"]),
    company_id: docId,
    amount,
    date: z.iso.date().nullish(),
    method: z.string().trim().min(1).max(40),
    reference: z.string().max(200).nullish(),
    notes: z.string().max(2000).nullish(),
    allocations: z
      .array(z.object({ document_type: type, document_id: docId, amount }))
      .max(1000)
      .default([]),
  }),
  permission: null,
  run: (tx, args, caller) => recordPayment(tx, caller, args),
});
