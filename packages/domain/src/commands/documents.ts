import { z } from "zod";
import { DEFAULT_PREFIXES, type NumberedType } from "../documents/numbering.ts";
import { decimal, defineCommand, id } from "./define.ts";
import { amountArg, dayArg, qtyArg } from "./inputs.ts";

// The document commands (DESIGN §2.3.1 "Writes go through commands", modules/documents on the server). The
// permission is the type's (quotation.create, sales_order.submit …), checked inside, so most ask none here.

const type = z.string().min(1).max(64);
const row = z.record(z.string(), z.unknown());
const qty = qtyArg();
const amount = amountArg();
const ref = z.object({ type, id });

// A document as /rest/v1 reads it with its lines: the type's own columns beyond these.
export const documentRow = z.looseObject({
  id: z.number(),
  number: z.string().nullable(),
  status: z.string(),
  lines: z.array(z.looseObject({ id: z.number() })),
});
export type DocumentRow = z.output<typeof documentRow>;

export const documentSave = defineCommand({
  name: "document_save",
  args: z.object({ type, id: id.optional(), header: row, lines: z.array(row).max(1000) }),
  result: documentRow,
  permission: null,
});

export const documentTransition = defineCommand({
  name: "document_transition",
  args: z.object({
    type,
    id,
    action: z.string().min(1).max(64),
    reason: z.string().max(2000).nullish(),
    // The action's inputs: text, or a quantity per line ([{ line_id, qty }], checked against each line).
    values: z
      .record(z.string(), z.union([z.string().max(2000), z.null(), z.array(z.object({ line_id: id, qty })).max(1000)]))
      .nullish(),
  }),
  result: documentRow,
  permission: null,
});

export const documentConvert = defineCommand({
  name: "document_convert",
  args: z.object({
    type,
    id,
    to: type,
    lines: z
      .array(z.object({ line_id: id, qty }))
      .max(1000)
      .optional(),
    header: row.optional(),
  }),
  result: documentRow,
  permission: null,
});

// A transition's input as it travels (a line_qty's `left` is the server's own).
const transitionInput = z.object({
  field: z.string(),
  label: z.string(),
  kind: z.enum(["text", "datetime", "user", "line_qty"]),
  required: z.boolean().optional(),
  prompt: z.string().optional(),
});

// The actions the caller may run on the document now (the web's buttons), each with why it is blocked, if it is.
export const documentActions = defineCommand({
  name: "document_actions",
  args: ref,
  result: z.object({
    status: z.string(),
    actions: z.array(
      z.object({
        action: z.string(),
        label: z.string(),
        needsReason: z.boolean(),
        blocked: z.string().nullable(),
        inputs: z.array(transitionInput).readonly().optional(),
      }),
    ),
  }),
  permission: null,
});

// What the server would answer to one action now (issue 20 §3): asked when the clerk opens it (the cancel dialog), so
// that a cancel refused by what stands on the document (a debit note against an invoice) is said before it is run.
// The page's own list (document_actions) is decided by pure guards over the rows it read, without this trial.
export const documentActionCheck = defineCommand({
  name: "document_action_check",
  args: z.object({ type, id, action: z.string().min(1).max(64) }),
  result: z.object({ action: z.string(), blocked: z.string().nullable() }),
  permission: null,
});

const allocation = z.object({ document_type: type, document_id: id, amount });
const allocated = z.object({ document_type: z.string(), document_id: z.number(), amount: decimal });

// A payment as record_payment answers it: its header and its allocations.
export const paymentRow = z.object({
  id: z.number(),
  number: z.string().nullable(),
  status: z.string(),
  doc_date: z.string(),
  company_id: z.number(),
  amount: decimal,
  unallocated: decimal,
  method: z.string(),
  reference: z.string().nullable(),
  notes: z.string().nullable(),
  allocations: z.array(allocated),
});

// DESIGN §2.3.1: a customer's payment allocated to invoices, or a payment to a supplier allocated to supplier
// invoices; what is left unallocated is the party's credit. Which documents a kind pays is its registration's.
export const recordPayment = defineCommand({
  name: "record_payment",
  args: z.object({
    type: z.enum(["receipt", "supplier_payment"]),
    company_id: id,
    amount,
    date: dayArg().nullish(),
    method: z.string().trim().min(1).max(40),
    reference: z.string().max(200).nullish(),
    notes: z.string().max(2000).nullish(),
    allocations: z.array(allocation).max(1000).default([]),
  }),
  result: paymentRow,
  permission: null,
});

// A receipt's, credit note's or supplier payment's unallocated credit allocated to open documents of its party.
export const allocateCredit = defineCommand({
  name: "allocate_credit",
  args: z.object({
    type: z.enum(["receipt", "credit_note", "supplier_payment"]),
    id,
    allocations: z.array(allocation).max(1000),
  }),
  // The credit left is the type's column: unallocated (payments) or outstanding (a credit note).
  result: z.looseObject({
    id: z.number(),
    number: z.string().nullable(),
    status: z.string(),
    allocations: z.array(allocated),
  }),
  permission: null,
});

// document_amend / document_duplicate {type, id}: the new draft with its lines (<type>.create, checked inside).
export const documentAmend = defineCommand({
  name: "document_amend",
  args: ref,
  result: documentRow,
  permission: null,
});
export const documentDuplicate = defineCommand({
  name: "document_duplicate",
  args: ref,
  result: documentRow,
  permission: null,
});

export const mailState = z.object({
  status: z.enum(["queued", "retrying", "sent", "failed"]),
  error: z.string().nullable(),
  attempts: z.number(),
});

// Issue 10 §3, the document page's audit panel: the document's audit rows, oldest first.
export const documentHistory = defineCommand({
  name: "document_history",
  args: ref,
  result: z.array(
    z.object({
      id: z.number(),
      action: z.string(),
      from_status: z.string().nullable(),
      to_status: z.string().nullable(),
      reason: z.string().nullable(),
      at: z.string(),
      user_id: z.string().nullable(),
      user_name: z.string().nullable(),
      changes: z.record(z.string(), z.unknown()).nullable(),
      // Issue 20 §1: an e-mail's state (its job in the outbox): queued, retrying after a failure, sent, or failed
      // for good with the reason; null on rows that are not e-mails.
      mail: mailState.nullable(),
    }),
  ),
  permission: null,
});

// Issue 10 §3: the names of what a document points at, { resource: { id: label } }, for whoever reads it.
export const documentLabels = defineCommand({
  name: "document_labels",
  args: ref,
  result: z.record(z.string(), z.record(z.string(), z.string())),
  permission: null,
});

// Issue 10 §2: Σ stock_move.qty per product and location (those netting to zero left out).
export const stockOnHand = defineCommand({
  name: "stock_on_hand",
  args: z.object({ product_ids: z.array(id).max(1000).optional(), location_id: id.nullish() }),
  result: z.array(z.object({ product_id: z.number(), location_id: z.number(), qty: decimal })),
  permission: null,
});

// Issue 10 §3 "totals of the filtered set": per currency, with the list's own PostgREST filters.
export const documentListTotals = defineCommand({
  name: "document_list_totals",
  args: z.object({
    type,
    filters: z
      .array(z.tuple([z.string().min(1).max(64), z.string().max(8000)]))
      .max(50)
      .default([]),
  }),
  result: z.array(
    z.object({ currency: z.string(), count: z.number(), total: decimal, outstanding: decimal.nullable() }),
  ),
  permission: null,
});

const address = z.string().trim().toLowerCase().email("Enter a valid e-mail address").max(320);
export const emailAddresses = z
  .union([address, z.array(address).min(1).max(10)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional();

export const emailSent = z.object({
  type: z.string(),
  id: z.number(),
  number: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  attachment: z.string(),
  // Issue 20 §1: the mail is queued in the command's transaction and sent by the server's worker.
  mail: z.literal("queued"),
  job: z.number().nullable(),
});

// The document's PDF e-mailed to its party (the document's read permission, checked inside).
export const documentEmail = defineCommand({
  name: "document_email",
  args: z.object({
    type,
    id,
    to: emailAddresses,
    cc: emailAddresses,
    message: z.string().max(5000).nullish(),
  }),
  result: emailSent,
  permission: null,
});

const percent = z.union([z.string(), z.number()]).transform(String);
const numberedType = z.enum(Object.keys(DEFAULT_PREFIXES) as [NumberedType, ...NumberedType[]]);

const documentSettingsAnswer = z.object({
  prefixes: z.partialRecord(numberedType, z.string()),
  over_delivery_allowance: decimal,
  over_billing_allowance: decimal,
  allow_negative_stock: z.boolean(),
  po_approval_threshold: decimal.nullable(),
  match_qty_tolerance: decimal,
  match_price_tolerance: decimal,
  match_amount_tolerance: decimal.nullable(),
  default_location_id: z.number().nullable(), // issue 21 §1: the default warehouse
  defaults: z.record(numberedType, z.string()),
});

// Issue 10 §1–2, issue 11: number prefixes per type, the allowances, negative stock, the purchasing thresholds.
export const documentSettings = defineCommand({
  name: "document_settings",
  args: z.object({}).default({}),
  result: documentSettingsAnswer,
  permission: "workspace.read",
  does: "read the workspace's document settings",
});

export const documentSettingsSave = defineCommand({
  name: "document_settings_save",
  args: z.object({
    prefixes: z.record(z.string().max(64), z.string().max(20).nullable()).optional(),
    over_delivery_allowance: percent.optional(),
    over_billing_allowance: percent.optional(),
    allow_negative_stock: z.boolean().optional(),
    po_approval_threshold: percent.nullable().optional(),
    match_qty_tolerance: percent.optional(),
    match_price_tolerance: percent.optional(),
    match_amount_tolerance: percent.nullable().optional(),
    default_location_id: z.number().int().positive().nullable().optional(),
  }),
  result: documentSettingsAnswer,
  permission: "workspace.update",
  does: "change the workspace's document settings",
});

export const DOCUMENT_COMMANDS = [
  documentSave,
  documentTransition,
  documentConvert,
  documentActions,
  documentActionCheck,
  recordPayment,
  allocateCredit,
  documentAmend,
  documentDuplicate,
  documentHistory,
  documentLabels,
  stockOnHand,
  documentListTotals,
  documentEmail,
  documentSettings,
  documentSettingsSave,
] as const;
