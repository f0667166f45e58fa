import { type DocumentType, type StatusColor, transitionLabel } from "@workmetrics/domain/documents/machine";
import { QTY_FIELDS, type QtyField, remaining, type SourceLine } from "@workmetrics/domain/documents/quantities";
import { CREDIT_NOTE, CREDIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/credit-note";
import { CUSTOMER_ORDER } from "@workmetrics/domain/documents/types/customer-order";
import { DEBIT_NOTE, DEBIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/debit-note";
import {
  DELIVERY_INSTRUCTION,
  DELIVERY_INSTRUCTION_MADE_FROM,
} from "@workmetrics/domain/documents/types/delivery-instruction";
import { DELIVERY_ORDER, DELIVERY_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/delivery-order";
import { EXPENSE_CLAIM } from "@workmetrics/domain/documents/types/expense-claim";
import { GOODS_RETURN_NOTE, GOODS_RETURN_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/goods-return-note";
import { GOODS_TRANSFER_FORM } from "@workmetrics/domain/documents/types/goods-transfer-form";
import { INVOICE, INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/invoice";
import { LOAN_FORM, SALES_ORDER_FROM_LOAN } from "@workmetrics/domain/documents/types/loan-form";
import { PICK_LIST, PICK_LIST_MADE_FROM } from "@workmetrics/domain/documents/types/pick-list";
import { PROGRESSIVE_CLAIM, PROGRESSIVE_CLAIM_MADE_FROM } from "@workmetrics/domain/documents/types/progressive-claim";
import { PURCHASE_ORDER } from "@workmetrics/domain/documents/types/purchase-order";
import { QUOTATION } from "@workmetrics/domain/documents/types/quotation";
import { SALES_ORDER, SALES_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/sales-order";
import { STOCK_COUNT } from "@workmetrics/domain/documents/types/stock-count";
import {
  SUPPLIER_DELIVERY_ORDER,
  SUPPLIER_DELIVERY_ORDER_MADE_FROM,
} from "@workmetrics/domain/documents/types/supplier-delivery-order";
import { SUPPLIER_INVOICE, SUPPLIER_INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/supplier-invoice";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { use } from "react";
import { STATUS_HEX } from "../../platform/fields/format.ts";
import { resourceByName } from "../../platform/resource/definition.ts";
import {
  type DocumentExtension,
  documentExtensionsLoaded,
  extensionOf,
  type PageAction,
  type PagePanel,
} from "./extensions.ts";

export type { LinesEditor, LinesEditorProps, PageAction } from "./extensions.ts";

// The document types the web's document pages serve (issue 10 §3), read from the domain's declarations: statuses
// and colours, actions and their labels (the machine), which types each is made from (`*_MADE_FROM`), header and line
// fields (the resources). A type added later is one line here and one in app/modules.ts; what a module adds to a
// type's page (its buttons, its own lines editor) it registers itself (extensions.ts).

export type MadeFromDecl = {
  readonly from: string;
  readonly sourceAction?: string;
  readonly sourceStatuses?: readonly string[];
  readonly draws?: string;
  readonly defaultsTo?: string; // without a draw, each line defaults to what is left of this quantity
  readonly goodsOnly?: boolean; // service lines are not taken
  readonly indirect?: boolean; // counted through another document, never made from the source directly
};

export type WebDocType = {
  type: string;
  machine: DocumentType<string, never>;
  madeFrom: readonly MadeFromDecl[];
  header: ResourceDef;
  lines: ResourceDef;
  // What the modules registered for the type (extensions.ts), once loaded.
  readonly pageActions: readonly PageAction[];
  readonly panels: readonly PagePanel[];
  readonly listAction?: DocumentExtension["listAction"];
  readonly listButton?: DocumentExtension["listButton"];
  readonly editor?: DocumentExtension["editor"];
  readonly convertOnly?: boolean;
  readonly blocked?: DocumentExtension["blocked"];
};

const declare = (machine: unknown, madeFrom: readonly MadeFromDecl[] = []): WebDocType => {
  const m = machine as DocumentType<string, never>;
  return {
    type: m.type,
    machine: m,
    madeFrom,
    header: resourceByName(m.type),
    lines: resourceByName(`${m.type}_line`),
    get pageActions() {
      return extensionOf(m.type).pageActions ?? [];
    },
    get panels() {
      return extensionOf(m.type).panels ?? [];
    },
    get listAction() {
      return extensionOf(m.type).listAction;
    },
    get listButton() {
      return extensionOf(m.type).listButton;
    },
    get editor() {
      return extensionOf(m.type).editor;
    },
    get convertOnly() {
      return extensionOf(m.type).convertOnly;
    },
    get blocked() {
      return extensionOf(m.type).blocked;
    },
  };
};

export const DOCUMENT_TYPES: readonly WebDocType[] = [
  declare(QUOTATION),
  declare(SALES_ORDER, [...SALES_ORDER_MADE_FROM, SALES_ORDER_FROM_LOAN]),
  declare(DELIVERY_ORDER, DELIVERY_ORDER_MADE_FROM),
  declare(INVOICE, INVOICE_MADE_FROM),
  declare(CUSTOMER_ORDER),
  declare(DELIVERY_INSTRUCTION, DELIVERY_INSTRUCTION_MADE_FROM),
  declare(CREDIT_NOTE, CREDIT_NOTE_MADE_FROM),
  declare(DEBIT_NOTE, DEBIT_NOTE_MADE_FROM),
  declare(GOODS_RETURN_NOTE, GOODS_RETURN_NOTE_MADE_FROM),
  declare(GOODS_TRANSFER_FORM),
  declare(LOAN_FORM),
  declare(PICK_LIST, PICK_LIST_MADE_FROM), // issue 22: made by the warehouse app (pick_list_make)
  declare(STOCK_COUNT), // issue 22: submitted by the warehouse app, applied here
  declare(PURCHASE_ORDER),
  declare(SUPPLIER_DELIVERY_ORDER, SUPPLIER_DELIVERY_ORDER_MADE_FROM),
  declare(SUPPLIER_INVOICE, SUPPLIER_INVOICE_MADE_FROM),
  declare(PROGRESSIVE_CLAIM, PROGRESSIVE_CLAIM_MADE_FROM), // issue 12: made from a contract
  declare(EXPENSE_CLAIM), // issue 24: an employee's receipts
];

const BY_TYPE = new Map(DOCUMENT_TYPES.map((t) => [t.type, t]));

export function docType(type: string): WebDocType {
  const t = BY_TYPE.get(type);
  if (!t) throw new Error(`${type} is not a document type the web knows`);
  return t;
}

export const findDocType = (type: string): WebDocType | undefined => BY_TYPE.get(type);

// A document page's type, with what the modules add to it: the page waits (suspends) until they are loaded.
export function useDocType(type: string): WebDocType {
  use(documentExtensionsLoaded());
  return docType(type);
}

// The types that can be made from `type` now that it is in `status` (a delivery order from a sales order to deliver).
export function conversionsFrom(type: string, status: string): WebDocType[] {
  return DOCUMENT_TYPES.filter((t) =>
    t.madeFrom.some(
      (m) =>
        m.from === type &&
        !m.indirect &&
        t.header.route &&
        (m.sourceStatuses
          ? m.sourceStatuses.includes(status)
          : m.sourceAction
            ? findDocType(type)?.machine.transitions.some(
                (tr) => tr.action === m.sourceAction && (tr.from as readonly string[]).includes(status),
              )
            : true),
    ),
  );
}

// Whether converting into `to` would take anything (issue 21 §1: "Create invoice" on a fully billed delivery order
// answered 409 "Nothing is left to bill"): a conversion that draws a quantity needs a line with some of it left, as
// the server's document_convert defaults each line to what is left (platform/documents/convert.ts).
export function leavesSomething(to: WebDocType, from: string, lines: readonly Record<string, unknown>[]): boolean {
  const made = to.madeFrom.find((m) => m.from === from && !m.indirect);
  const basis = (made?.draws ?? made?.defaultsTo) as QtyField | undefined;
  if (!made || !basis || !(basis in QTY_FIELDS)) return true;
  return lines.some((l) => !(made.goodsOnly && l.service_id != null) && Number(remaining(sourceLine(l), basis)) > 0);
}

const sourceLine = (l: Record<string, unknown>): SourceLine => {
  const line: SourceLine = { id: String(l.id), qty: String(l.qty ?? "0") };
  for (const f of Object.keys(QTY_FIELDS) as QtyField[]) if (l[f] != null) line[f] = String(l[f]);
  return line;
};

// The quantities documents made from this type draw from its lines (a sales order's are delivered, billed and
// returned; a delivery order's billed and returned — nothing delivers a delivery order): its Flow's columns.
export const drawnFrom = (type: string): ReadonlySet<string> =>
  new Set(DOCUMENT_TYPES.flatMap((t) => t.madeFrom.flatMap((m) => (m.from === type && m.draws ? [m.draws] : []))));

// Whether the type's documents have a customer (a goods transfer form has none: its company field is off the form).
export const hasCustomer = (t: WebDocType): boolean =>
  t.header.fields.some((f) => f.name === "company_id" && f.form !== false);

export function statusLabel(t: WebDocType, status: string): string {
  return t.machine.statuses[status]?.label ?? status;
}

export function statusHex(t: WebDocType, status: string): string {
  const color: StatusColor = t.machine.statuses[status]?.color ?? "gray";
  return STATUS_HEX[color];
}

// An audit row's action in words: the machine's button label, or the engine's own verbs.
const ENGINE_ACTIONS: Record<string, string> = {
  create: "Created",
  save: "Saved",
  convert: "Made from another document",
  email: "E-mailed",
  payment: "Payment recorded",
  settle: "Status updated",
  amend: "Amended",
};

export function transitionLabelOf(t: WebDocType, action: string): string {
  const tr = t.machine.transitions.find((x) => x.action === action);
  if (tr) return transitionLabel(tr);
  return ENGINE_ACTIONS[action] ?? action.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}
