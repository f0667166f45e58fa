import { decide, STORAGE_ACTIONS } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { readDocumentText, type ScanText, UnreadableScan } from "./read.ts";

// Issue 24: read a file the caller may read from the workspace's storage (bucket + path, as the storage API names
// it). The object is looked up in the caller's transaction (its workspace only: both walls), then its bytes read
// and recognised. Refusals are the REST engine's errors, naming the field.

export type ScannedFile = ScanText & { bucket: string; path: string; mimeType: string; size: number };

export const MAX_SCAN_BYTES = 20 * 1024 * 1024;

export async function scanFile(
  tx: Tx,
  caller: Caller,
  deps: Pick<CommandDeps, "disk">,
  file: { bucket: string; path: string },
  // A folder whose files their own uploader reads without file.read (expense receipts: staff hold no file right).
  opts: { ownFolder?: string } = {},
): Promise<ScannedFile> {
  const ws = caller.workspaceId;
  if (!ws) throw new RestError(403, "42501", "Files belong to a workspace; sign in as a member of one");
  const d = decide(memberOf(caller), STORAGE_ACTIONS["file.read"]);
  const ownOnly = !d.allowed && !!opts.ownFolder && file.path.startsWith(`${opts.ownFolder}/`);
  if (!d.allowed && !ownOnly) throw refusalError(d);
  if (!deps.disk) throw new RestError(503, "storage_unavailable", "This server keeps no files: nothing to scan");
  const res = await tx.execute(sql`select o.version::text as version, o.mime_type, o.size::int as size
    from storage_object o join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id
    where o.workspace_id = ${ws}::uuid and b.workspace_id = ${ws}::uuid and b.name = ${file.bucket}
      and o.name collate "C" = ${file.path}
      ${ownOnly ? sql`and o.owner = ${caller.userId}::uuid` : sql``}`);
  const row = res.rows[0] as { version: string; mime_type: string | null; size: number } | undefined;
  if (!row) {
    throw new RestError(
      404,
      "PGRST116",
      `There is no file "${file.path}" in bucket "${file.bucket}" of this workspace`,
      [{ field: "path", message: "No such file in this workspace" }],
    );
  }
  if (row.size > MAX_SCAN_BYTES) {
    throw new RestError(422, "validation_failed", "The file is larger than 20 MB: scan one invoice or receipt", [
      { field: "path", message: "At most 20 MB" },
    ]);
  }
  const bytes = await deps.disk.get(deps.disk.key(ws, file.bucket, row.version));
  if (!bytes) throw new RestError(404, "PGRST116", "The file's contents are missing from storage");
  try {
    const read = await readDocumentText(bytes, row.mime_type ?? "");
    return { ...read, bucket: file.bucket, path: file.path, mimeType: row.mime_type ?? "", size: row.size };
  } catch (err) {
    if (err instanceof UnreadableScan) {
      throw new RestError(422, "validation_failed", err.message, [{ field: "path", message: err.message }]);
    }
    throw err;
  }
}
