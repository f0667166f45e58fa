import { MB, storageFullMessage } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { StorageError } from "./storage-error.ts";

export type StorageUsage = { usedBytes: number; quotaBytes: number; tierTitle: string };

// Issue 9 §3: what the workspace's files add up to against its tier's quota, read from the database.
export async function storageUsage(tx: Tx, workspaceId: string): Promise<StorageUsage> {
  const res = await tx.execute(sql`
    select (select coalesce(sum(o.size), 0) from storage_object o where o.workspace_id = w.id)::text as used,
           t.storage_quota_mb as quota_mb, t.title
      from workspace w join tier t on t.id = w.tier_id
     where w.id = ${workspaceId}`);
  const row = res.rows[0] as { used: string; quota_mb: number; title: string } | undefined;
  if (!row) throw new StorageError(403, "AccessDenied", "Files belong to a workspace, and this account is not in one.");
  return { usedBytes: Number(row.used), quotaBytes: row.quota_mb * MB, tierTitle: row.title };
}

export const storageFull = (u: StorageUsage) =>
  new StorageError(413, "QuotaExceeded", storageFullMessage(u.quotaBytes, u.tierTitle));

// Refuses `adding` bytes (less `freeing`, an overwritten file's) past the quota. Uploads and copies of one
// workspace take this lock in turn, so two at once cannot both squeeze into the last free megabytes.
export async function assertRoom(tx: Tx, workspaceId: string, adding: number, freeing = 0): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`storage_quota:${workspaceId}`}, 0))`);
  const usage = await storageUsage(tx, workspaceId);
  if (usage.usedBytes - freeing + adding > usage.quotaBytes) throw storageFull(usage);
}
