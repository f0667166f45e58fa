// How a document type prints, where the registered type alone does not say (issue 10 §3). A type with no entry
// prints with its own title, its customer's billing address, prices and totals; an entry is a line or two of data.

import type { Tx } from "../../../platform/db/database.ts";
import type { Caller } from "../../../platform/rest/access.ts";

export type PrintOptions = {
  title?: string; // the printed heading; default the type's title in Title Case
  party?: string; // the customer block's heading
  address?: "billing" | "shipping"; // which of the customer's addresses (the other when it is empty)
  prices?: boolean; // false: quantities only (a delivery order), no totals
  amountDue?: string; // the money column that is what the customer still owes ("outstanding")
  // `values`: the header column each box is filled in from once the document records it (a delivery's received by
  // and at, written by its `complete` action); null for a box always signed by hand.
  signature?: { heading: string; fields: string[]; values?: (string | null)[] };
  // A document whose customer may have no record (an order from the public form) names them in its own fields:
  // the party block prints them when there is no customer record, and they are never printed as facts.
  guest?: { name: string[]; lines: string[]; email: string };
};

const RECEIVED = {
  heading: "Goods received in good order and condition",
  fields: ["Received by (name)", "Signature and company stamp", "Date"],
  values: ["received_by", null, "received_at"],
};

const PRINT: Record<string, PrintOptions> = {
  quotation: { party: "Quotation for" },
  sales_order: { party: "Customer" },
  delivery_instruction: { party: "Deliver to", address: "shipping", prices: false },
  delivery_order: { party: "Deliver to", address: "shipping", prices: false, signature: RECEIVED },
  // A Singapore tax invoice (IRAS): the words "Tax Invoice", the supplier's GST registration number, tax per code
  // and the amount payable.
  invoice: { title: "Tax Invoice", party: "Bill to", amountDue: "outstanding" },
  credit_note: { party: "Credit to" }, // its applied and unapplied amounts print under the total
  debit_note: { party: "Bill to", amountDue: "outstanding" },
  goods_return_note: {
    party: "Returned by",
    prices: false,
    signature: { heading: "Goods returned", fields: ["Returned by (name)", "Received by (name)", "Date"] },
  },
  customer_order: {
    party: "Ordered by",
    guest: {
      name: ["customer_company", "customer_name"],
      lines: ["customer_name", "delivery_address", "customer_phone", "customer_email"],
      email: "customer_email",
    },
  },
  // Issue 11: a purchase order is sent to the supplier; a receipt is signed at the door; a supplier invoice prints
  // for the file with what is still owed.
  purchase_order: { title: "Purchase Order", party: "Supplier" },
  supplier_delivery_order: {
    party: "Received from",
    prices: false,
    signature: { heading: "Goods received", fields: ["Received by (name)", "Signature", "Date"] },
  },
  supplier_invoice: { party: "Supplier", amountDue: "outstanding" },
  // Issue 22: a pick list is walked with quantities only and signed by the picker; a count prints for the file.
  pick_list: {
    party: "Customer",
    address: "shipping",
    prices: false,
    signature: { heading: "Picked", fields: ["Picked by (name)", "Checked by", "Date"] },
  },
  stock_count: {
    prices: false,
    signature: { heading: "Stock count", fields: ["Counted by (name)", "Reviewed by", "Date"] },
  },
  // Issue 24: an employee's claim, for the file: each receipt net, the GST and the total reimbursed.
  expense_claim: {
    title: "Expense Claim",
    signature: { heading: "Claim", fields: ["Claimed by", "Approved by", "Date"] },
  },
};

export const printOptions = (type: string): PrintOptions => PRINT[type] ?? {};

// What prints at GET /api/documents/{type}/{id}/pdf without being a document type (issue 11: a supplier payment's
// remittance advice): its module registers how it prints, checking its own access.
export type Printer = (tx: Tx, caller: Caller, id: number) => Promise<{ pdf: Buffer; filename: string }>;

const PRINTERS = new Map<string, Printer>();

export const registerPrinter = (type: string, printer: Printer): void => void PRINTERS.set(type, printer);
export const printerFor = (type: string): Printer | undefined => PRINTERS.get(type);
