import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import type { DocumentRow } from "@workmetrics/domain/commands/documents";
import {
  checkedDocumentAction,
  convertDocument,
  offeredDocumentActions,
  saveDocument,
  transitionDocument,
} from "../../platform/documents/commands.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { recordPayment } from "./record-payment.ts";

// DESIGN §2.3.1 "Writes go through commands": each answers the document as /rest/v1 reads it with its lines. The
// permission is the type's (checked inside: quotation.create, sales_order.submit …), so the command itself asks none.

export const documentSave = implement(COMMANDS.document_save, {
  run: (tx, args, caller) => saveDocument(tx, caller, args) as Promise<DocumentRow>,
});

export const documentTransition = implement(COMMANDS.document_transition, {
  run: (tx, args, caller) => transitionDocument(tx, caller, args) as Promise<DocumentRow>,
});

export const documentConvert = implement(COMMANDS.document_convert, {
  run: (tx, args, caller) => convertDocument(tx, caller, args) as Promise<DocumentRow>,
});

// The actions the caller may run on the document now (the web's buttons), each with why it is blocked, if it is.
export const documentActionsRpc = implement(COMMANDS.document_actions, {
  run: (tx, args, caller) => offeredDocumentActions(tx, caller, args),
});

// Asked when the clerk opens an action: the guards and, for a cancel, its effects tried and rolled back.
export const documentActionCheckRpc = implement(COMMANDS.document_action_check, {
  run: (tx, args, caller) => checkedDocumentAction(tx, caller, args),
});

// DESIGN §2.3.1: a customer's payment allocated to invoices, or a payment to a supplier allocated to supplier
// invoices; what is left unallocated is the party's credit. Which documents a kind pays is its registration's.

export const recordPaymentRpc = implement(COMMANDS.record_payment, {
  run: (tx, args, caller) => recordPayment(tx, caller, args) as Promise<CommandAnswer<"record_payment">>,
});
