import { type DocumentType, type StatusColor, transitionLabel } from "@workmetrics/domain/documents/machine";
import { CREDIT_NOTE, CREDIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/credit-note";
import { CUSTOMER_ORDER } from "@workmetrics/domain/documents/types/customer-order";
import { DEBIT_NOTE, DEBIT_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/debit-note";
import {
  DELIVERY_INSTRUCTION,
  DELIVERY_INSTRUCTION_MADE_FROM,
} from "@workmetrics/domain/documents/types/delivery-instruction";
import { DELIVERY_ORDER, DELIVERY_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/delivery-order";
import { GOODS_RETURN_NOTE, GOODS_RETURN_NOTE_MADE_FROM } from "@workmetrics/domain/documents/types/goods-return-note";
import { GOODS_TRANSFER_FORM } from "@workmetrics/domain/documents/types/goods-transfer-form";
import { INVOICE, INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/invoice";
import { LOAN_FORM, SALES_ORDER_FROM_LOAN } from "@workmetrics/domain/documents/types/loan-form";
import { PROGRESSIVE_CLAIM, PROGRESSIVE_CLAIM_MADE_FROM } from "@workmetrics/domain/documents/types/progressive-claim";
import { PURCHASE_ORDER } from "@workmetrics/domain/documents/types/purchase-order";
import { QUOTATION } from "@workmetrics/domain/documents/types/quotation";
import { SALES_ORDER, SALES_ORDER_MADE_FROM } from "@workmetrics/domain/documents/types/sales-order";
import {
  SUPPLIER_DELIVERY_ORDER,
  SUPPLIER_DELIVERY_ORDER_MADE_FROM,
} from "@workmetrics/domain/documents/types/supplier-delivery-order";
import { SUPPLIER_INVOICE, SUPPLIER_INVOICE_MADE_FROM } from "@workmetrics/domain/documents/types/supplier-invoice";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { Row } from "../../platform/data-access/provider.ts";
import { STATUS_HEX } from "../../platform/fields/format.ts";
import { resourceByName } from "../../platform/resource/definition.ts";
import { claimBlocked } from "../claims/figures.ts";
import type { LineDraft } from "./lines.ts";

// The document types the web's document pages serve (issue 10 §3), read from the domain's declarations: statuses
// and colours, actions and their labels (the machine), which types each is made from (`*_MADE_FROM`), header and line
// fields (the resources). A type added later is one line here and one in app/modules.ts.

export type MadeFromDecl = {
  readonly from: string;
  readonly sourceAction?: string;
  readonly sourceStatuses?: readonly string[];
  readonly draws?: string;
  readonly indirect?: boolean; // counted through another document, never made from the source directly
};

// A module's own button on a type's document page, beside the actions (a sales order's "Purchase what is short"):
// lazy, so the document page's code does not carry it; it decides itself whether to show.
export type PageAction = LazyExoticComponent<ComponentType<{ doc: Row; status: string }>>;

// A type whose lines are not qty × price (a progressive claim's cumulative percentages): its own lines and totals in
// place of the lines grid and the totals panel, editing the same form lines (LineDraft, its fields in `extra`).
export type LinesEditorProps = {
  doc: Row | null;
  header: Record<string, unknown>;
  lines: LineDraft[];
  onChange(lines: LineDraft[]): void;
  readOnly: boolean;
  currency: string;
  errors?: Record<string, string>;
};
export type LinesEditor = LazyExoticComponent<ComponentType<LinesEditorProps>>;

export type WebDocType = {
  type: string;
  machine: DocumentType<string, never>;
  madeFrom: readonly MadeFromDecl[];
  header: ResourceDef;
  lines: ResourceDef;
  pageActions: readonly PageAction[];
  editor?: LinesEditor;
  // Made only from another document (a claim from its contract): the list offers no New.
  convertOnly?: boolean;
  // Why the unsaved form could not be submitted as it stands (a claim's figures), or null: the page then answers for
  // Submit from the form, not from the saved draft.
  blocked?: (doc: Row | null, header: Readonly<Record<string, unknown>>, lines: readonly LineDraft[]) => string | null;
};

const declare = (
  machine: unknown,
  madeFrom: readonly MadeFromDecl[] = [],
  pageActions: readonly PageAction[] = [],
  own: Pick<WebDocType, "editor" | "convertOnly" | "blocked"> = {},
): WebDocType => {
  const m = machine as DocumentType<string, never>;
  return {
    type: m.type,
    machine: m,
    madeFrom,
    header: resourceByName(m.type),
    lines: resourceByName(`${m.type}_line`),
    pageActions,
    ...own,
  };
};

export const DOCUMENT_TYPES: readonly WebDocType[] = [
  declare(QUOTATION),
  declare(
    SALES_ORDER,
    [...SALES_ORDER_MADE_FROM, SALES_ORDER_FROM_LOAN],
    [lazy(() => import("../stock/PurchaseShortButton.tsx"))],
  ),
  declare(DELIVERY_ORDER, DELIVERY_ORDER_MADE_FROM),
  declare(INVOICE, INVOICE_MADE_FROM),
  declare(CUSTOMER_ORDER),
  declare(DELIVERY_INSTRUCTION, DELIVERY_INSTRUCTION_MADE_FROM),
  declare(CREDIT_NOTE, CREDIT_NOTE_MADE_FROM),
  declare(DEBIT_NOTE, DEBIT_NOTE_MADE_FROM),
  declare(GOODS_RETURN_NOTE, GOODS_RETURN_NOTE_MADE_FROM),
  declare(GOODS_TRANSFER_FORM),
  declare(LOAN_FORM),
  declare(PURCHASE_ORDER),
  declare(SUPPLIER_DELIVERY_ORDER, SUPPLIER_DELIVERY_ORDER_MADE_FROM),
  declare(SUPPLIER_INVOICE, SUPPLIER_INVOICE_MADE_FROM, [lazy(() => import("../payables/PayInvoiceButton.tsx"))]),
  // Issue 12: made from a contract; its own lines (cumulative %) and figures, the payment response, payments,
  // the release of retention and the contract's retention schedule.
  declare(PROGRESSIVE_CLAIM, PROGRESSIVE_CLAIM_MADE_FROM, [lazy(() => import("../claims/ClaimActions.tsx"))], {
    editor: lazy(() => import("../claims/ClaimLines.tsx")),
    convertOnly: true,
    blocked: claimBlocked,
  }),
];

const BY_TYPE = new Map(DOCUMENT_TYPES.map((t) => [t.type, t]));

export function docType(type: string): WebDocType {
  const t = BY_TYPE.get(type);
  if (!t) throw new Error(`${type} is not a document type the web knows`);
  return t;
}

export const findDocType = (type: string): WebDocType | undefined => BY_TYPE.get(type);

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
