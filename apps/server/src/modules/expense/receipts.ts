import { randomUUID } from "node:crypto";
import { DEFAULT_BUCKET } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { readsOwnOnly, requireDocumentAccess } from "../../platform/documents/access.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { keepObject } from "../../platform/storage/objects.ts";

// Issue 24: expense receipts. The phone compresses the photo (≤1600 px JPEG, as the driver app's proof) and sends it
// here; it is kept as a file of the workspace's files bucket under expense_claims/receipts/ (reading it there needs
// file.read like any file) and its path goes on the claim line. A claimant or an approver opens a line's receipt
// through expense_receipt_read, which checks they may read the claim — staff hold no file permission of their own.

export const RECEIPT_FOLDER = "expense_claims/receipts";

const unavailable = (message: string) => new RestError(503, "storage_unavailable", message);

export const expenseReceiptUpload = implement(COMMANDS.expense_receipt_upload, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    const disk = deps.disk;
    if (!disk) throw unavailable("This server keeps no files: the receipt cannot be stored");
    const m = /^data:(image\/(png|jpeg|webp));base64,(.+)$/.exec(args.image) as RegExpExecArray;
    const bytes = Buffer.from(m[3], "base64");
    if (bytes.length === 0) {
      throw new RestError(422, "validation_failed", "The receipt photo is empty", [
        { field: "image", message: "The receipt photo is empty" },
      ]);
    }
    // The files bucket, made on first use as the web's files page does.
    await tx.execute(sql`insert into storage_bucket (workspace_id, name, public, owner)
      values (${ws}::uuid, ${DEFAULT_BUCKET}, false, ${caller.userId}::uuid) on conflict do nothing`);
    const bucket = (
      await tx.execute(sql`select id from storage_bucket where workspace_id = ${ws}::uuid and name = ${DEFAULT_BUCKET}`)
    ).rows[0] as { id: number | string };
    const ext = m[2] === "jpeg" ? "jpg" : m[2];
    const name = `${RECEIPT_FOLDER}/${randomUUID()}.${ext}`;
    await keepObject(tx, disk, {
      workspaceId: ws,
      bucket: DEFAULT_BUCKET,
      bucketId: Number(bucket.id),
      name,
      bytes,
      mimeType: m[1],
      owner: caller.userId,
    });
    return { bucket: DEFAULT_BUCKET, path: name, size: bytes.length };
  },
});

export const expenseReceiptRead = implement(COMMANDS.expense_receipt_read, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    const spec = documentSpec("expense_claim");
    requireDocumentAccess(caller, spec, "read", "read expense claims");
    const res = await tx.execute(sql`select l.receipt_path, c.created_by from expense_claim_line l
      join expense_claim c on c.workspace_id = l.workspace_id and c.id = l.expense_claim_id
      where l.workspace_id = ${ws}::uuid and l.id = ${args.line_id}`);
    const row = res.rows[0] as { receipt_path: string | null; created_by: string | null } | undefined;
    const mine = row && String(row.created_by ?? "").toLowerCase() === String(caller.userId).toLowerCase();
    if (!row || (readsOwnOnly(caller, spec) && !mine)) {
      throw new RestError(404, "PGRST116", `There is no expense claim line ${args.line_id} in this workspace`);
    }
    if (!row.receipt_path) throw new RestError(404, "PGRST116", "This line has no receipt");
    const obj = (
      await tx.execute(sql`select o.version, o.mime_type from storage_object o
        join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id
        where o.workspace_id = ${ws}::uuid and b.name = ${DEFAULT_BUCKET} and o.name = ${row.receipt_path}`)
    ).rows[0] as { version: string; mime_type: string | null } | undefined;
    if (!obj || !deps.disk) throw new RestError(404, "PGRST116", "The receipt's file is no longer kept");
    const bytes = await deps.disk.get(deps.disk.key(ws, DEFAULT_BUCKET, obj.version));
    if (!bytes) throw new RestError(404, "PGRST116", "The receipt's file is no longer kept");
    return {
      mime: obj.mime_type ?? "image/jpeg",
      data_url: `data:${obj.mime_type ?? "image/jpeg"};base64,${bytes.toString("base64")}`,
    };
  },
});
