import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenantColumns, tenantKeys } from "./columns.ts";
import { workspace } from "./platform-schema.ts";

// Issue 24 "OCR" (DESIGN §2.3.2 "Scans"): what document_from_scan read from a stored file and the draft it made.
// `fields` is each field read with its confidence (0..1); `review_reasons` say in words why a person should check the
// draft (arithmetic that does not add up, a supplier not found); empty when nothing needs review. Written only by
// the command; read by document_scan_get for the draft's page.
export const SCAN_SOURCES = ["text_layer", "ocr", "mixed"] as const;

export const documentScan = pgTable(
  "document_scan",
  {
    ...tenantColumns,
    documentType: text("document_type").notNull(),
    documentId: bigint("document_id", { mode: "number" }).notNull(),
    bucket: text("bucket").notNull(),
    path: text("path").notNull(),
    source: text("source", { enum: SCAN_SOURCES }).notNull(),
    pages: integer("pages").notNull(),
    readMs: integer("read_ms").notNull(),
    fields: jsonb("fields").notNull(),
    confidence: jsonb("confidence").notNull(),
    reviewReasons: jsonb("review_reasons").notNull().default(sql`'[]'::jsonb`),
    text: text("text").notNull(),
    createdBy: uuid("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("document_scan", t, workspace),
    index("document_scan_document_idx").on(t.workspaceId, t.documentType, t.documentId),
    check("document_scan_type", sql`${t.documentType} in ('supplier_invoice', 'expense_claim')`),
  ],
).enableRLS();
