import { DEFAULT_BUCKET, decide, FOLDER_PLACEHOLDER, STORAGE_ACTIONS } from "@workmetrics/domain";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { memberOf, refusalError } from "../../platform/rest/access.ts";
import { defineReport } from "../reports/registry.ts";

// Issue 11: every file attached to a supplier delivery order (the supplier's DO scans and photos, kept by the
// document page's files panel under documents/supplier_delivery_order/<id>/ in the workspace's files bucket),
// across all receipts: newest first, filtered by supplier, purchase order and receipt date, a page at a time.
// `report {name: "supplier_receipt_files", company_id?, purchase_order_id?, from?, to?, limit?, offset?}`; one
// statement, its `totals.count` the number of files the filters match. The web previews and downloads each through
// /storage/v1 signed URLs, so reading them also needs file.read.

const params = z.object({
  company_id: z.number().int().positive().optional(),
  purchase_order_id: z.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  limit: z.number().int().min(1).max(200).default(50),
  offset: z.number().int().min(0).default(0),
});

const PREFIX = "documents/supplier_delivery_order/";

export const receiptFiles = defineReport({
  name: "supplier_receipt_files",
  params,
  need: REPORT_ACCESS.supplier_receipt_files,
  async run(tx, p, caller) {
    const files = decide(memberOf(caller), STORAGE_ACTIONS["file.read"]);
    if (!files.allowed) throw refusalError(files);
    const ws = caller.workspaceId;
    const res = await tx.execute(sql`with f as (
        select o.uid, o.name as path, o.size, o.mime_type, o.updated_at,
          substring(o.name from ${`^${PREFIX}[0-9]+/(.+)$`}) as file_name,
          substring(o.name from ${`^${PREFIX}([0-9]{1,15})/`})::bigint as receipt_id
        from storage_object o
        join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id and b.name = ${DEFAULT_BUCKET}
        where o.workspace_id = ${ws}::uuid and o.name like ${`${PREFIX}%`} collate "C"
      )
      select f.uid, f.path, f.file_name, f.size::int as size, f.mime_type, to_json(f.updated_at) #>> '{}' as uploaded_at,
        d.id as receipt_id, d.number as receipt, d.doc_date::text as receipt_date, d.status as receipt_status,
        d.supplier_do_number, d.company_id, c.name as supplier, po.id as purchase_order_id,
        po.number as purchase_order, count(*) over ()::int as total
      from f
      join supplier_delivery_order d on d.workspace_id = ${ws}::uuid and d.id = f.receipt_id
      join company c on c.workspace_id = d.workspace_id and c.id = d.company_id
      left join purchase_order po on po.workspace_id = d.workspace_id and d.source_type = 'purchase_order'
        and po.id = d.source_id
      where f.file_name is not null and f.file_name not like ${`%${FOLDER_PLACEHOLDER}`}
        ${p.company_id === undefined ? sql`` : sql`and d.company_id = ${p.company_id}`}
        ${p.purchase_order_id === undefined ? sql`` : sql`and po.id = ${p.purchase_order_id}`}
        ${p.from === undefined ? sql`` : sql`and d.doc_date >= ${p.from}::date`}
        ${p.to === undefined ? sql`` : sql`and d.doc_date <= ${p.to}::date`}
      order by f.updated_at desc, f.path
      limit ${p.limit} offset ${p.offset}`);
    const rows = (res.rows as Array<Record<string, string | number | null>>).map(({ total: _, ...r }) => r);
    const count = res.rows.length ? Number((res.rows[0] as { total: number }).total) : 0;
    return {
      columns: [
        { key: "file_name", label: "File", kind: "text" },
        { key: "receipt", label: "Receipt", kind: "text" },
        { key: "receipt_date", label: "Received", kind: "date" },
        { key: "supplier", label: "Supplier", kind: "text" },
        { key: "purchase_order", label: "Purchase order", kind: "text" },
        { key: "supplier_do_number", label: "Supplier's DO", kind: "text" },
        { key: "size", label: "Size", kind: "integer" },
      ],
      rows,
      totals: { count }, // the files the filters match (0 on a page past the last)
    };
  },
});
