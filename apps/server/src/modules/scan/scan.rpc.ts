import { createHash, randomUUID } from "node:crypto";
import { DEFAULT_BUCKET, decide } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { ScanAnswer, ScanType } from "@workmetrics/domain/commands/scan";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { readsOwnOnly, requireDocumentAccess } from "../../platform/documents/access.ts";
import { saveDocument } from "../../platform/documents/commands.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { companyFor } from "../marketplace/parties.ts";
import {
  arithmeticProblems,
  extractInvoiceFields,
  extractReceiptFields,
  type Field,
  type InvoiceFields,
} from "./extract.ts";
import { type ScannedFile, scanFile } from "./scan.ts";

// Issue 24 "OCR" (DESIGN §2.3.2 "Scans"): document_from_scan reads a stored file and makes a draft through the
// documents engine (its permission, validation, totals and audit), never submits it, and keeps what was read —
// each field with its confidence and the reasons to review — in document_scan for the draft's page.

const RECEIPT_FOLDER = "expense_claims/receipts";
const money = (n: number) => n.toFixed(2);

type Flat = { fields: Record<string, unknown>; confidence: Record<string, number> };

function flatten(read: Record<string, unknown>): Flat {
  const fields: Record<string, unknown> = {};
  const confidence: Record<string, number> = {};
  for (const [k, v] of Object.entries(read)) {
    if (k === "lines" && Array.isArray(v)) {
      fields.lines = v.map((line: Record<string, Field<unknown>>, i) => {
        const out: Record<string, unknown> = {};
        for (const [lk, lv] of Object.entries(line)) {
          out[lk] = lv.value;
          confidence[`lines.${i}.${lk}`] = lv.confidence;
        }
        return out;
      });
    } else if (v && typeof v === "object" && "value" in v) {
      const f = v as Field<unknown>;
      fields[k] = f.value;
      confidence[k] = f.confidence;
    }
  }
  return { fields, confidence };
}

// The supplier: by UEN first (exact), else by name (the closest of the workspace's companies, trigram similarity
// over the name without its "Pte Ltd"). Null when neither finds one.
async function findSupplier(tx: Tx, ws: string, read: InvoiceFields) {
  if (read.supplier_uen) {
    const res = await tx.execute(sql`select id, name from company where workspace_id = ${ws}::uuid
      and upper(replace(uen, ' ', '')) = ${read.supplier_uen.value} order by is_supplier desc, id limit 1`);
    const row = res.rows[0] as { id: number; name: string } | undefined;
    if (row) return { id: Number(row.id), name: row.name, by: "uen" as const, score: 1 };
  }
  if (read.supplier_name) {
    const bare = (s: string) =>
      s
        .toLowerCase()
        .replace(/\b(pte\.?|ltd\.?|private|limited|llp|sdn\.?|bhd\.?|co\.|inc\.?)(?=\s|$)/g, "")
        .replace(/[^a-z0-9&]+/g, " ")
        .trim();
    const name = bare(read.supplier_name.value);
    if (name.length >= 3) {
      const res = await tx.execute(sql`select id, name, similarity(${name}, regexp_replace(lower(name),
          '(pte\\.?|ltd\\.?|private|limited|llp|sdn\\.?|bhd\\.?|co\\.|inc\\.?)(\\s|$)', '', 'g')) as score
        from company where workspace_id = ${ws}::uuid and is_supplier
        order by score desc, id limit 1`);
      const row = res.rows[0] as { id: number; name: string; score: number } | undefined;
      if (row && Number(row.score) >= 0.45) {
        return { id: Number(row.id), name: row.name, by: "name" as const, score: Number(row.score) };
      }
    }
  }
  return null;
}

// Each line to a product where one's name or SKU is close enough (trigram similarity ≥ 0.5).
async function matchProducts(tx: Tx, ws: string, descriptions: string[]): Promise<Array<number | null>> {
  const out: Array<number | null> = [];
  for (const d of descriptions) {
    const res = await tx.execute(sql`select id, greatest(similarity(lower(name), lower(${d})),
        case when sku is not null and position(lower(sku) in lower(${d})) > 0 then 1 else 0 end) as score
      from product where workspace_id = ${ws}::uuid and active
      order by score desc, id limit 1`);
    const row = res.rows[0] as { id: number; score: number } | undefined;
    out.push(row && Number(row.score) >= 0.5 ? Number(row.id) : null);
  }
  return out;
}

// The scanned file kept beside the draft (its files panel lists documents/<type>/<id>/).
async function attachToDocument(
  tx: Tx,
  caller: Caller,
  deps: CommandDeps,
  scan: ScannedFile,
  type: string,
  id: number,
) {
  const disk = deps.disk;
  const ws = caller.workspaceId as string;
  if (!disk) return;
  const from = (
    await tx.execute(sql`select o.version::text as version from storage_object o
      join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id
      where o.workspace_id = ${ws}::uuid and b.name = ${scan.bucket} and o.name collate "C" = ${scan.path}`)
  ).rows[0] as { version: string } | undefined;
  await tx.execute(sql`insert into storage_bucket (workspace_id, name, public, owner)
    values (${ws}::uuid, ${DEFAULT_BUCKET}, false, ${caller.userId}::uuid) on conflict do nothing`);
  const bucket = (
    await tx.execute(sql`select id from storage_bucket where workspace_id = ${ws}::uuid and name = ${DEFAULT_BUCKET}`)
  ).rows[0] as { id: number | string };
  if (!from) return;
  const base = scan.path.split("/").pop() || "scan";
  const name = `documents/${type}/${id}/scan-${base}`;
  const version = randomUUID();
  const bytes = await disk.get(disk.key(ws, scan.bucket, from.version));
  if (!bytes) return;
  await disk.put(disk.key(ws, DEFAULT_BUCKET, version), bytes);
  await tx.execute(sql`insert into storage_object (workspace_id, bucket_id, name, version, size, mime_type, etag, owner)
    values (${ws}::uuid, ${Number(bucket.id)}, ${name}, ${version}::uuid, ${bytes.length}, ${scan.mimeType || null},
      ${createHash("md5").update(bytes).digest("hex")}, ${caller.userId}::uuid)
    on conflict do nothing`);
}

async function keepScan(
  tx: Tx,
  caller: Caller,
  type: ScanType,
  id: number,
  scan: ScannedFile,
  flat: Flat,
  reasons: string[],
): Promise<ScanAnswer> {
  const res = await tx.execute(sql`insert into document_scan (workspace_id, document_type, document_id, bucket, path,
      source, pages, read_ms, fields, confidence, review_reasons, text, created_by)
    values (${caller.workspaceId}::uuid, ${type}, ${id}, ${scan.bucket}, ${scan.path}, ${scan.source}, ${scan.pages},
      ${scan.ms}, ${JSON.stringify(flat.fields)}::jsonb, ${JSON.stringify(flat.confidence)}::jsonb,
      ${JSON.stringify(reasons)}::jsonb, ${scan.text}, ${caller.userId}::uuid)
    returning id, created_at`);
  const row = res.rows[0] as { id: number; created_at: string | Date };
  return {
    id,
    type,
    scan_id: row.id,
    fields: flat.fields,
    confidence: flat.confidence,
    review_reasons: reasons,
    needs_review: reasons.length > 0,
    source: scan.source,
    pages: scan.pages,
    read_ms: scan.ms,
    bucket: scan.bucket,
    path: scan.path,
    created_at: new Date(row.created_at).toISOString(),
  };
}

async function supplierInvoiceFromScan(tx: Tx, caller: Caller, deps: CommandDeps, file: ScannedFile) {
  const ws = caller.workspaceId as string;
  const read = extractInvoiceFields(file.lines);
  const reasons = arithmeticProblems(read);
  const found = await findSupplier(tx, ws, read);
  let companyId: number;
  let supplier: { id: number; name: string; by: string } | null = found;
  if (!found) {
    const name = read.supplier_name?.value;
    if (!name) {
      throw new RestError(422, "validation_failed", "No supplier name or UEN could be read from the file", [
        { field: "path", message: "No supplier could be read: is this a supplier invoice?" },
      ]);
    }
    if (!mayAddSupplier(caller)) {
      throw new RestError(
        422,
        "validation_failed",
        `No supplier "${name}" in this workspace: add it, then scan again`,
        [{ field: "path", message: `Supplier "${name}" not found` }],
      );
    }
    companyId = await companyFor(tx, ws, name, read.supplier_uen?.value ?? null, "supplier");
    supplier = { id: companyId, name, by: "new" };
    reasons.unshift(
      `Supplier not found${read.supplier_uen ? ` by UEN ${read.supplier_uen.value} or` : " by"} name: "${name}" was added as a new supplier — check it`,
    );
  } else {
    companyId = found.id;
    if (found.by === "name" && found.score < 0.8) {
      reasons.unshift(`Supplier matched by a similar name: read "${read.supplier_name?.value}", chose "${found.name}"`);
    }
  }
  const products = await matchProducts(
    tx,
    ws,
    read.lines.map((l) => l.description.value),
  );
  const lines = read.lines.length
    ? read.lines.map((l, i) => ({
        product_id: products[i],
        description: l.description.value,
        qty: String(l.qty.value),
        unit_price: String(l.unit_price.value),
        tax_code: read.gst ? "SR" : "OS",
      }))
    : read.subtotal || read.total
      ? [
          {
            description: "As scanned (no lines read)",
            qty: "1",
            unit_price: money(read.subtotal?.value ?? (read.total?.value ?? 0) - (read.gst?.value ?? 0)),
            tax_code: read.gst ? "SR" : "OS",
          },
        ]
      : [];
  if (!read.lines.length) reasons.push("No lines could be read: one line carries the amount — split it if needed");
  const header: Record<string, unknown> = { company_id: companyId };
  if (read.invoice_number) header.supplier_invoice_number = read.invoice_number.value;
  if (read.invoice_date) header.doc_date = read.invoice_date.value;
  if (read.due_date) header.due_date = read.due_date.value;
  if (read.currency) header.currency = read.currency.value;
  // The same supplier's number already billed (not cancelled): the save would refuse; say so and keep it a draft.
  if (read.invoice_number) {
    const dup = await tx.execute(sql`select number from supplier_invoice where workspace_id = ${ws}::uuid
      and company_id = ${companyId} and supplier_invoice_number = ${read.invoice_number.value} and status <> 'cancelled'
      limit 1`);
    if (dup.rows.length) {
      delete header.supplier_invoice_number;
      reasons.unshift(
        `This supplier's invoice ${read.invoice_number.value} is already recorded (${(dup.rows[0] as { number: string | null }).number ?? "a draft"}) — a duplicate?`,
      );
    }
  }
  const doc = (await saveDocument(tx, caller, { type: "supplier_invoice", header, lines })) as {
    id: number;
    total?: unknown;
  };
  const id = Number(doc.id);
  await attachToDocument(tx, caller, deps, file, "supplier_invoice", id);
  const flat = flatten(read as unknown as Record<string, unknown>);
  flat.fields.supplier_id = supplier?.id ?? null;
  flat.fields.supplier_matched_by = supplier?.by ?? null;
  flat.fields.product_ids = products;
  return keepScan(tx, caller, "supplier_invoice", id, file, flat, reasons);
}

// A supplier not found is added only by someone who may add companies; else the clerk is told to add it first.
const mayAddSupplier = (caller: Caller): boolean =>
  decide(memberOf(caller), { audience: "member", permission: "company.create", does: "add suppliers" }).allowed;

async function expenseClaimFromScan(tx: Tx, caller: Caller, deps: CommandDeps, file: ScannedFile) {
  const read = extractReceiptFields(file.lines);
  const reasons = arithmeticProblems({ subtotal: read.subtotal, gst: read.gst, total: read.total });
  if (!read.total) {
    throw new RestError(422, "validation_failed", "No total could be read from the receipt: type the claim in", [
      { field: "path", message: "No total could be read" },
    ]);
  }
  const merchant = read.merchant?.value ?? "Receipt";
  const doc = (await saveDocument(tx, caller, {
    type: "expense_claim",
    header: read.date ? { doc_date: read.date.value } : {},
    lines: [
      {
        description: merchant,
        merchant,
        expense_date: read.date?.value ?? null,
        amount: money(read.total.value),
        gst_amount: money(read.gst?.value ?? 0),
        qty: "1",
        unit_price: money(read.total.value),
        tax_code: read.gst ? "SR" : "OS",
        receipt_path: file.bucket === DEFAULT_BUCKET ? file.path : null,
      },
    ],
  })) as { id: number };
  const id = Number(doc.id);
  if (file.bucket !== DEFAULT_BUCKET) await attachToDocument(tx, caller, deps, file, "expense_claim", id);
  return keepScan(tx, caller, "expense_claim", id, file, flatten(read as Record<string, unknown>), reasons);
}

export const documentFromScan = implement(COMMANDS.document_from_scan, {
  run: async (tx, args, caller, deps) => {
    const spec = documentSpec(args.type);
    requireDocumentAccess(
      caller,
      spec,
      "create",
      args.type === "supplier_invoice" ? "scan supplier invoices" : "scan receipts",
    );
    const file = await scanFile(tx, caller, deps, args, {
      ownFolder: args.type === "expense_claim" ? RECEIPT_FOLDER : undefined,
    });
    return args.type === "supplier_invoice"
      ? supplierInvoiceFromScan(tx, caller, deps, file)
      : expenseClaimFromScan(tx, caller, deps, file);
  },
});

export const documentScanGet = implement(COMMANDS.document_scan_get, {
  run: async (tx, args, caller) => {
    const spec = documentSpec(args.type);
    requireDocumentAccess(caller, spec, "read", "read scanned documents");
    const ws = caller.workspaceId as string;
    const doc = (
      await tx.execute(sql`select created_by::text from ${sql.identifier(args.type)}
        where workspace_id = ${ws}::uuid and id = ${args.id}`)
    ).rows[0] as { created_by: string | null } | undefined;
    if (!doc || (readsOwnOnly(caller, spec) && String(doc.created_by) !== String(caller.userId))) {
      throw new RestError(404, "PGRST116", `There is no ${args.type.replace("_", " ")} ${args.id} in this workspace`);
    }
    const res = await tx.execute(sql`select id, document_id, bucket, path, source, pages, read_ms, fields, confidence,
        review_reasons, created_at
      from document_scan where workspace_id = ${ws}::uuid and document_type = ${args.type} and document_id = ${args.id}
      order by id desc limit 1`);
    const row = res.rows[0] as
      | {
          id: number;
          document_id: number;
          bucket: string;
          path: string;
          source: ScanAnswer["source"];
          pages: number;
          read_ms: number;
          fields: Record<string, unknown>;
          confidence: Record<string, number>;
          review_reasons: string[];
          created_at: string | Date;
        }
      | undefined;
    if (!row) return null;
    return {
      id: Number(row.document_id),
      type: args.type,
      scan_id: row.id,
      fields: row.fields,
      confidence: row.confidence,
      review_reasons: row.review_reasons,
      needs_review: row.review_reasons.length > 0,
      source: row.source,
      pages: row.pages,
      read_ms: row.read_ms,
      bucket: row.bucket,
      path: row.path,
      created_at: new Date(row.created_at).toISOString(),
    };
  },
});
