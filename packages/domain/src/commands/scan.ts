import { z } from "zod";
import { dbId, defineCommand, id, instant } from "./define.ts";

// Issue 24 "OCR" (Premium; DESIGN §2.3.2 "Scans"): a stored PDF or photo of a supplier invoice or a receipt, read
// offline, becomes a draft — never a submitted document. `fields` holds what was read (dates as yyyy-mm-dd, amounts
// as numbers, a supplier invoice's lines as a list), `confidence` each field's confidence from 0 to 1 under the same
// key (a line's as "lines.0.qty"), `review_reasons` why a person should check it (empty: nothing found wrong).
// Who may scan is who may make that draft (supplier_invoice.create, expense_claim.create); reading the file needs
// file.read for a supplier invoice, and a receipt of one's own for an expense claim.

export const SCAN_TYPES = ["supplier_invoice", "expense_claim"] as const;
export type ScanType = (typeof SCAN_TYPES)[number];

export const scanAnswer = z.object({
  id: dbId, // the draft's id
  type: z.enum(SCAN_TYPES),
  scan_id: dbId,
  fields: z.record(z.string(), z.unknown()),
  confidence: z.record(z.string(), z.number()),
  review_reasons: z.array(z.string()),
  needs_review: z.boolean(),
  source: z.enum(["text_layer", "ocr", "mixed"]),
  pages: z.number(),
  read_ms: z.number(),
  bucket: z.string(),
  path: z.string(),
  created_at: instant,
});
export type ScanAnswer = z.output<typeof scanAnswer>;

const scanType = z.enum(SCAN_TYPES, { error: 'Choose "supplier_invoice" or "expense_claim"' });

export const documentFromScan = defineCommand({
  name: "document_from_scan",
  args: z.object({
    type: scanType,
    bucket: z.string({ error: "Give the bucket the file is in" }).trim().min(1, "Give the bucket the file is in"),
    path: z
      .string({ error: "Give the path of the stored file" })
      .trim()
      .min(1, "Give the path of the stored file")
      .max(1024, "At most 1024 characters"),
  }),
  result: scanAnswer,
  permission: null,
  does: "read scanned documents",
  feature: "ocr",
});

// The latest scan behind a draft (its fields, confidences and review reasons), or null when it was not scanned.
export const documentScanGet = defineCommand({
  name: "document_scan_get",
  args: z.object({ type: scanType, id }),
  result: scanAnswer.nullable(),
  permission: null,
  does: "read scanned documents",
  feature: "ocr",
});

export const SCAN_COMMANDS = [documentFromScan, documentScanGet] as const;
