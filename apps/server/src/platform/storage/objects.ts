import { createHash, randomUUID } from "node:crypto";
import { storageObject } from "@workmetrics/domain/db/schema";
import { and, eq, inArray, sql } from "drizzle-orm";
import { isUniqueViolation } from "../auth/lookup.ts";
import type { Db, Tx } from "../db/database.ts";
import { RestError } from "../rest/rest-error.ts";
import { findBucket } from "./buckets.route.ts";
import { allow, asCaller, type Caller, may } from "./caller.ts";
import type { FileStore, OpenedFile } from "./disk.ts";
import type { BucketRow, ObjectRow } from "./json.ts";
import { assertRoom, type StorageUsage, storageUsage } from "./quota.ts";
import { duplicate, invalid, notFound, StorageError } from "./storage-error.ts";
import type { Received } from "./upload.ts";

export type KeptObject = {
  workspaceId: string;
  bucket: string;
  bucketId: number;
  name: string;
  bytes: Buffer;
  mimeType: string;
  owner: string | null;
  // A file already kept under this name is replaced (its row goes, its size no longer counts against the quota).
  replace?: boolean;
};

// Files a command keeps (a photo, a scan, a delivery's proof): in the command's transaction, first the workspace's
// storage quota for all of them at once (issue 9: uploads of one workspace take the quota lock in turn) — refused
// with the quota's message (413) before any byte is written, so nothing is kept —, then the bytes on the store and
// the rows. A refusal after this (later in the command) leaves unreferenced bytes behind: disk, never correctness.
export async function keepObjects(tx: Tx, disk: FileStore, files: KeptObject[]): Promise<void> {
  if (!files.length) return;
  const ws = files[0].workspaceId;
  if (files.some((f) => f.workspaceId !== ws)) throw new Error("keepObjects keeps files of one workspace at a time");
  const replaced: Array<{ id: number; size: number } | undefined> = [];
  for (const f of files) {
    if (!f.replace) {
      replaced.push(undefined);
      continue;
    }
    const res = await tx.execute(sql`select id, size from storage_object where workspace_id = ${ws}::uuid
      and bucket_id = ${f.bucketId} and ${nameIs(f.name)} for update`);
    const row = res.rows[0] as { id: number | string; size: number | string } | undefined;
    replaced.push(row ? { id: Number(row.id), size: Number(row.size) } : undefined);
  }
  const adding = files.reduce((n, f) => n + f.bytes.length, 0);
  const freeing = replaced.reduce((n, r) => n + (r?.size ?? 0), 0);
  try {
    await assertRoom(tx, ws, adding, freeing);
  } catch (err) {
    // A command answers as the REST layer does: the storage API's 413 and its message, as a RestError.
    if (err instanceof StorageError) throw new RestError(err.status, err.code, err.message);
    throw err;
  }
  for (const [i, f] of files.entries()) {
    const version = randomUUID();
    await disk.put(disk.key(ws, f.bucket, version), f.bytes);
    const old = replaced[i];
    if (old) {
      await tx.delete(storageObject).where(and(eq(storageObject.workspaceId, ws), eq(storageObject.id, old.id)));
    }
    await tx.insert(storageObject).values({
      workspaceId: ws,
      bucketId: f.bucketId,
      name: f.name,
      version,
      size: f.bytes.length,
      mimeType: f.mimeType,
      etag: createHash("md5").update(f.bytes).digest("hex"),
      owner: f.owner,
    });
  }
}

export const keepObject = (tx: Tx, disk: FileStore, o: KeptObject): Promise<void> => keepObjects(tx, disk, [o]);

// Byte-order equality, so the lookup uses storage_object_name_key (an index on name COLLATE "C").
const nameIs = (name: string) => sql`${storageObject.name} collate "C" = ${name}`;

const isForeignKeyViolation = (err: unknown): boolean =>
  !!err &&
  typeof err === "object" &&
  ((err as { code?: string }).code === "23503" || isForeignKeyViolation((err as { cause?: unknown }).cause));

export async function findObject(tx: Tx, workspaceId: string, bucket: BucketRow, name: string, lock = false) {
  const q = tx
    .select()
    .from(storageObject)
    .where(and(eq(storageObject.workspaceId, workspaceId), eq(storageObject.bucketId, bucket.id), nameIs(name)));
  const [row] = lock ? await q.for("update") : await q;
  return row ?? null;
}

// Object operations: every one scoped to the caller's workspace (both walls), rows first, bytes after commit.
export function createObjectStore(db: Db, disk: FileStore) {
  const pathOf = (caller: Caller, bucket: string, version: string) => disk.key(caller.workspaceId, bucket, version);

  return {
    // Before reading a body: the bucket exists, without upsert the name is free, the caller may add (or replace)
    // the file, and how much room the quota leaves (fail before 50 MB arrive).
    async prepareUpload(
      caller: Caller,
      bucketName: string,
      name: string,
      upsert: boolean,
    ): Promise<{ bucket: BucketRow; room: number; usage: StorageUsage }> {
      // Without the right to replace files, an upload only adds one: refused before anything is looked up.
      if (!upsert || !may(caller, "file.update")) allow(caller, "file.create");
      return asCaller(db, caller, async (tx) => {
        const bucket = await findBucket(tx, caller.workspaceId, bucketName);
        const existing = await findObject(tx, caller.workspaceId, bucket, name);
        if (existing && !upsert) throw duplicate("object");
        allow(caller, existing ? "file.update" : "file.create");
        const usage = await storageUsage(tx, caller.workspaceId);
        return { bucket, room: usage.quotaBytes - usage.usedBytes + (existing?.size ?? 0), usage };
      });
    },

    async saveUpload(caller: Caller, bucket: BucketRow, name: string, upsert: boolean, file: Received) {
      const version = randomUUID();
      const target = pathOf(caller, bucket.name, version);
      let replaced: string | null = null;
      try {
        const row = await asCaller(db, caller, async (tx) => {
          const existing = await findObject(tx, caller.workspaceId, bucket, name, true);
          if (existing && !upsert) throw duplicate("object");
          allow(caller, existing ? "file.update" : "file.create");
          await assertRoom(tx, caller.workspaceId, file.size, existing?.size ?? 0);
          const values = {
            version,
            size: file.size,
            mimeType: file.mimeType,
            cacheControl: file.cacheControl,
            etag: file.etag,
            userMetadata: file.metadata,
            owner: caller.userId,
          };
          let saved: ObjectRow;
          if (existing) {
            const now = new Date();
            [saved] = await tx
              .update(storageObject)
              .set({ ...values, updatedAt: now, lastAccessedAt: now })
              .where(and(eq(storageObject.workspaceId, caller.workspaceId), eq(storageObject.id, existing.id)))
              .returning();
            replaced = pathOf(caller, bucket.name, existing.version);
          } else {
            [saved] = await tx
              .insert(storageObject)
              .values({ workspaceId: caller.workspaceId, bucketId: bucket.id, name, ...values })
              .returning();
          }
          await disk.place(file.tmpPath, target);
          return saved;
        });
        if (replaced) await disk.discard(replaced);
        return row;
      } catch (err) {
        await disk.discardTemporary(file.tmpPath);
        await disk.discard(target);
        if (isUniqueViolation(err)) throw duplicate("object");
        if (isForeignKeyViolation(err)) throw notFound("Bucket");
        throw err;
      }
    },

    // The row and an open handle to its bytes, taken together so an overwrite committed meanwhile cannot pull the
    // file away (the old version is unlinked, but an open handle still reads it).
    async open(caller: Caller, bucketName: string, name: string, withFile: boolean) {
      const held: { file?: OpenedFile } = {};
      try {
        return await asCaller(db, caller, async (tx) => {
          const bucket = await findBucket(tx, caller.workspaceId, bucketName);
          const row = await findObject(tx, caller.workspaceId, bucket, name);
          if (!row) throw notFound();
          if (withFile) {
            // A file gone from the store is not found; a store that does not answer says so (503).
            held.file = await disk.open(pathOf(caller, bucket.name, row.version)).catch((err: unknown) => {
              throw err instanceof StorageError ? err : notFound();
            });
          }
          return { bucket, row, file: held.file ?? null };
        });
      } catch (err) {
        await held.file?.close();
        throw err;
      }
    },

    // The stable ids of the named objects that exist (a signed URL is bound to one, so a later file uploaded under
    // a deleted file's name is not reachable through the old link).
    async ids(caller: Caller, bucketName: string, names: string[]): Promise<Map<string, string>> {
      return asCaller(db, caller, async (tx) => {
        const bucket = await findBucket(tx, caller.workspaceId, bucketName);
        if (names.length === 0) return new Map<string, string>();
        const rows = await tx
          .select({ name: storageObject.name, uid: storageObject.uid })
          .from(storageObject)
          .where(
            and(
              eq(storageObject.workspaceId, caller.workspaceId),
              eq(storageObject.bucketId, bucket.id),
              inArray(sql`${storageObject.name} collate "C"`, names),
            ),
          );
        return new Map(rows.map((r) => [r.name, r.uid]));
      });
    },

    async move(caller: Caller, from: { bucket: string; name: string }, to: { bucket: string; name: string }) {
      if (from.bucket === to.bucket && from.name === to.name) {
        throw invalid("The source and the destination are the same.");
      }
      // A move to another bucket gives the bytes a second name first and drops the old one after commit.
      const link: { from?: string; to?: string } = {};
      try {
        await asCaller(db, caller, async (tx) => {
          const src = await findBucket(tx, caller.workspaceId, from.bucket);
          const dst = from.bucket === to.bucket ? src : await findBucket(tx, caller.workspaceId, to.bucket);
          const row = await findObject(tx, caller.workspaceId, src, from.name, true);
          if (!row) throw notFound();
          if (await findObject(tx, caller.workspaceId, dst, to.name)) throw duplicate("object");
          await tx
            .update(storageObject)
            .set({ bucketId: dst.id, name: to.name, updatedAt: new Date() })
            .where(and(eq(storageObject.workspaceId, caller.workspaceId), eq(storageObject.id, row.id)));
          if (dst.id !== src.id) {
            link.from = pathOf(caller, src.name, row.version);
            link.to = pathOf(caller, dst.name, row.version);
            await disk.hardLink(link.from, link.to);
          }
        });
      } catch (err) {
        if (link.to) await disk.discard(link.to);
        throw isUniqueViolation(err) ? duplicate("object") : err;
      }
      if (link.from) await disk.discard(link.from);
    },

    async copy(
      caller: Caller,
      from: { bucket: string; name: string },
      to: { bucket: string; name: string },
      upsert: boolean,
    ) {
      if (from.bucket === to.bucket && from.name === to.name) {
        throw invalid("The source and the destination are the same.");
      }
      const version = randomUUID();
      let target: string | null = null;
      let replaced: string | null = null;
      try {
        const row = await asCaller(db, caller, async (tx) => {
          const src = await findBucket(tx, caller.workspaceId, from.bucket);
          const dst = from.bucket === to.bucket ? src : await findBucket(tx, caller.workspaceId, to.bucket);
          const row = await findObject(tx, caller.workspaceId, src, from.name);
          if (!row) throw notFound();
          const existing = await findObject(tx, caller.workspaceId, dst, to.name, true);
          if (existing && !upsert) throw duplicate("object");
          allow(caller, existing ? "file.update" : "file.create");
          await assertRoom(tx, caller.workspaceId, row.size, existing?.size ?? 0);
          target = pathOf(caller, dst.name, version);
          await disk.copy(pathOf(caller, src.name, row.version), target);
          const { id: _id, uid: _uid, workspaceId: _ws, ...fields } = row;
          const now = new Date();
          const values = { ...fields, bucketId: dst.id, name: to.name, version, owner: caller.userId };
          if (existing) {
            replaced = pathOf(caller, dst.name, existing.version);
            const [saved] = await tx
              .update(storageObject)
              .set({ ...values, createdAt: existing.createdAt, updatedAt: now, lastAccessedAt: now })
              .where(and(eq(storageObject.workspaceId, caller.workspaceId), eq(storageObject.id, existing.id)))
              .returning();
            return saved;
          }
          const [saved] = await tx
            .insert(storageObject)
            .values({ ...values, workspaceId: caller.workspaceId, createdAt: now, updatedAt: now, lastAccessedAt: now })
            .returning();
          return saved;
        });
        if (replaced) await disk.discard(replaced);
        return row;
      } catch (err) {
        if (target) await disk.discard(target);
        throw isUniqueViolation(err) ? duplicate("object") : err;
      }
    },

    // Removes exactly the named objects (storage-js calls them prefixes); names that do not exist are skipped.
    async remove(caller: Caller, bucketName: string, names: string[]) {
      const { bucket, rows } = await asCaller(db, caller, async (tx) => {
        const bucket = await findBucket(tx, caller.workspaceId, bucketName);
        if (names.length === 0) return { bucket, rows: [] as ObjectRow[] };
        const rows = await tx
          .delete(storageObject)
          .where(
            and(
              eq(storageObject.workspaceId, caller.workspaceId),
              eq(storageObject.bucketId, bucket.id),
              inArray(sql`${storageObject.name} collate "C"`, names),
            ),
          )
          .returning();
        return { bucket, rows };
      });
      await disk.discard(...rows.map((r) => pathOf(caller, bucket.name, r.version)));
      return { bucket, rows };
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;
