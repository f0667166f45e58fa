import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { CREDIT_NOTE, CREDIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/credit-note";
import { DEBIT_NOTE, DEBIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/debit-note";
import { GOODS_RETURN_NOTE, GOODS_RETURN_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/goods-return-note";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import {
  creditNoteLineResource,
  creditNoteResource,
  debitNoteLineResource,
  debitNoteResource,
  goodsReturnNoteLineResource,
  goodsReturnNoteResource,
} from "@workmetrics/domain/resources/returns";
import { addEffect, registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { prepareSupplierReturn } from "../inventory/supplier-return.ts";
import { allocateCreditRpc } from "./allocate-credit.ts";
import { documentAmendRpc, documentDuplicateRpc } from "./amend.rpc.ts";
import { CREDIT_NOTE_EFFECTS, prepareCreditNote, refuseWhileAdjusted } from "./credit-note.effects.ts";
import { DEBIT_NOTE_EFFECTS, prepareDebitNote } from "./debit-note.effects.ts";
import { GOODS_RETURN_NOTE_EFFECTS } from "./goods-return-note.effects.ts";
import { documentSettingsRpc, documentSettingsSaveRpc } from "./settings.rpc.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// Issue 10 §2: returns and adjustments on the document engine — goods return notes, credit notes and debit notes —
// with the workspace's document settings and amend/duplicate for every type. Registered after the selling
// documents, whose invoices they adjust.
export function registerReturns(): void {
  registerDocumentType({
    machine: machine(GOODS_RETURN_NOTE),
    header: goodsReturnNoteResource,
    lines: goodsReturnNoteLineResource,
    madeFrom: GOODS_RETURN_NOTE_MADE_FROM,
    effects: GOODS_RETURN_NOTE_EFFECTS,
    prepareConvert: prepareSupplierReturn, // issue 11: made from a supplier delivery order, it goes to the supplier
  });
  registerDocumentType({
    machine: machine(CREDIT_NOTE),
    header: creditNoteResource,
    lines: creditNoteLineResource,
    madeFrom: CREDIT_NOTE_MADE_FROM,
    effects: CREDIT_NOTE_EFFECTS,
    prepareConvert: prepareCreditNote,
  });
  registerDocumentType({
    machine: machine(DEBIT_NOTE),
    header: debitNoteResource,
    lines: debitNoteLineResource,
    madeFrom: DEBIT_NOTE_MADE_FROM,
    effects: DEBIT_NOTE_EFFECTS,
    prepareConvert: prepareDebitNote,
  });
  addEffect("invoice", "cancel", refuseWhileAdjusted);
  registerRpc(documentSettingsRpc, documentSettingsSaveRpc, documentAmendRpc, documentDuplicateRpc, allocateCreditRpc);
}
