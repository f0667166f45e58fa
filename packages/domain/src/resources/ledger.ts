import { ACCOUNT_ROOTS, ACCOUNT_TYPES, account, journalEntry, journalLine } from "../db/ledger-schema.ts";
import { stockMove } from "../db/stock-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, COST_PERMISSION, f, idField } from "./fields.ts";

// Issue 10 §2 "The ledger" (read side): the chart of accounts, journal entries with their lines and the stock
// ledger, read through /rest/v1 and written only by documents (and, later, manual journals). No generic page
// (route null). Entries, lines and moves are written on every posting, so they keep no row count (issue 10 §1).

const ro = { readOnly: true };

export const accountResource = defineResource({
  ...CATALOG.account,
  table: account,
  display: "name",
  search: ["code", "name"],
  defaultOrder: "code.asc",
  fields: [
    idField(),
    f.code("code", "Code", { ...ro, list: true, width: 100 }),
    f.name("name", "Name", { ...ro, list: true }),
    f.enum("type", "Type", ACCOUNT_TYPES, { ...ro, list: true }),
    f.enum("root", "Root", ACCOUNT_ROOTS, { ...ro, list: true }),
    f.boolean("contra", "Contra account", ro),
    f.boolean("active", "Active", { ...ro, list: true }),
    ...auditFields,
  ],
  relations: {},
});

export const journalEntryResource = defineResource({
  ...CATALOG.journal_entry,
  table: journalEntry,
  display: "number",
  search: ["number", "memo"],
  defaultOrder: "entry_date.desc,id.desc",
  keptCount: false,
  fields: [
    idField(),
    f.code("number", "Number", { ...ro, list: true, width: 150 }),
    f.date("entry_date", "Date", { ...ro, list: true }),
    f.text("memo", "Memo", { ...ro, list: true }),
    f.text("source_type", "Posted by", { ...ro, list: true }),
    f.integer("source_id", "Posted by (id)", ro),
    f.integer("reversal_of", "Reverses entry", ro),
    f.ref("created_by", "Created by", "user", "name", ro),
    f.datetime("created_at", "Created", { ...ro, form: false }),
  ],
  relations: {
    lines: { resource: "journal_line", kind: "many", column: "entry_id", references: "id" },
  },
});

export const journalLineResource = defineResource({
  ...CATALOG.journal_line,
  table: journalLine,
  display: "account_code",
  search: ["account_code", "memo"],
  defaultOrder: "entry_id.asc,line_no.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("entry_id", "Entry", "journal_entry", "number", ro),
    f.integer("line_no", "Line", ro),
    f.code("account_code", "Account", { ...ro, list: true }),
    f.money("debit", "Debit", { ...ro, list: true }),
    f.money("credit", "Credit", { ...ro, list: true }),
    f.text("memo", "Memo", ro),
  ],
  relations: {
    entry: { resource: "journal_entry", kind: "one", column: "entry_id", references: "id" },
  },
});

export const stockMoveResource = defineResource({
  ...CATALOG.stock_move,
  table: stockMove,
  display: "doc_type",
  search: ["doc_type"],
  defaultOrder: "created_at.desc,id.desc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("product_id", "Product", "product", "name", { ...ro, list: true }),
    f.ref("location_id", "Location", "location", "name", { ...ro, list: true }),
    f.number("qty", "Quantity", { ...ro, list: true }),
    f.number("unit_cost", "Unit cost", { ...ro, permission: COST_PERMISSION }),
    f.text("doc_type", "Document type", { ...ro, list: true }),
    f.integer("doc_id", "Document", ro),
    f.integer("doc_line_id", "Document line", ro),
    f.datetime("created_at", "Created", { ...ro, form: false }),
  ],
  relations: {
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
    location: { resource: "location", kind: "one", column: "location_id", references: "id" },
  },
});
