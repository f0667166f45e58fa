import { storageBucket, storageObject } from "@workmetrics/domain/db/schema";
import { and, asc, desc, eq, ilike, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isUniqueViolation } from "../auth/lookup.ts";
import type { Db, Tx } from "../db/database.ts";
import { asCaller, member } from "./caller.ts";
import type { FileStore } from "./disk.ts";
import { type BucketRow, bucketJson } from "./json.ts";
import { bucketName, fileSizeLimit } from "./names.ts";
import { duplicate, invalid, notFound, StorageError } from "./storage-error.ts";

const MimeList = z
  .array(z.string().regex(/^[\w.+-]+\/([\w.+-]+|\*)$/, "allowed_mime_types holds types like image/png or image/*"))
  .max(50, "allowed_mime_types holds 50 types at most")
  .nullish();

const BucketInput = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  public: z.boolean().optional(),
  file_size_limit: z.union([z.number(), z.string()]).nullish(),
  allowed_mime_types: MimeList,
});

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  search: z.string().max(100).optional(),
  sortColumn: z.enum(["id", "name", "created_at", "updated_at"]).optional(),
  sortOrder: z.enum(["asc", "desc"]).optional(),
});

// No public buckets: a bucket name is unique only inside its workspace, so a public URL could not say whose it is.
function refusePublic(isPublic: boolean | undefined): void {
  if (isPublic) {
    throw invalid(
      "Public buckets are not offered: every file is private to its workspace. Share a signed link instead.",
    );
  }
}

export async function findBucket(tx: Tx, workspaceId: string, name: string): Promise<BucketRow> {
  const [row] = await tx
    .select()
    .from(storageBucket)
    .where(and(eq(storageBucket.workspaceId, workspaceId), eq(storageBucket.name, bucketName(name))));
  if (!row) throw notFound("Bucket");
  return row;
}

export async function bucketRoutes(app: FastifyInstance, opts: { db: Db; disk: FileStore }): Promise<void> {
  const { db, disk } = opts;

  // Listing and reading buckets is part of reading files.
  app.get("/bucket", async (req) => {
    const caller = await member(req, db, "file.read");
    const q = ListQuery.parse(req.query ?? {});
    const column = {
      id: storageBucket.name,
      name: storageBucket.name,
      created_at: storageBucket.createdAt,
      updated_at: storageBucket.updatedAt,
    }[q.sortColumn ?? "name"];
    const rows = await asCaller(db, caller, (tx) =>
      tx
        .select()
        .from(storageBucket)
        .where(
          and(
            eq(storageBucket.workspaceId, caller.workspaceId),
            q.search ? ilike(storageBucket.name, `%${q.search.replace(/[\\%_]/g, "\\$&")}%`) : undefined,
          ),
        )
        .orderBy(q.sortOrder === "desc" ? desc(column) : asc(column))
        .limit(q.limit ?? 1000)
        .offset(q.offset ?? 0),
    );
    return rows.map(bucketJson);
  });

  app.get<{ Params: { id: string } }>("/bucket/:id", async (req) => {
    const caller = await member(req, db, "file.read");
    return bucketJson(await asCaller(db, caller, (tx) => findBucket(tx, caller.workspaceId, req.params.id)));
  });

  app.post("/bucket", async (req) => {
    const caller = await member(req, db, "bucket.create");
    const input = BucketInput.parse(req.body ?? {});
    const name = bucketName(input.id ?? input.name);
    refusePublic(input.public);
    const limit = fileSizeLimit(input.file_size_limit);
    try {
      await asCaller(db, caller, (tx) =>
        tx.insert(storageBucket).values({
          workspaceId: caller.workspaceId,
          name,
          fileSizeLimit: limit,
          allowedMimeTypes: input.allowed_mime_types ?? null,
          owner: caller.userId,
        }),
      );
    } catch (err) {
      throw isUniqueViolation(err) ? duplicate("bucket") : err;
    }
    return { name };
  });

  app.put<{ Params: { id: string } }>("/bucket/:id", async (req) => {
    const caller = await member(req, db, "bucket.update");
    const input = BucketInput.parse(req.body ?? {});
    refusePublic(input.public);
    const name = bucketName(req.params.id);
    const limit = fileSizeLimit(input.file_size_limit);
    const updated = await asCaller(db, caller, (tx) =>
      tx
        .update(storageBucket)
        .set({ fileSizeLimit: limit, allowedMimeTypes: input.allowed_mime_types ?? null, updatedAt: new Date() })
        .where(and(eq(storageBucket.workspaceId, caller.workspaceId), eq(storageBucket.name, name)))
        .returning({ id: storageBucket.id }),
    );
    if (updated.length === 0) throw notFound("Bucket");
    return { message: "Successfully updated" };
  });

  // Emptying destroys every file in the bucket: as weighty as deleting it.
  app.post<{ Params: { id: string } }>("/bucket/:id/empty", async (req) => {
    const caller = await member(req, db, "bucket.delete");
    const { bucket, versions } = await asCaller(db, caller, async (tx) => {
      const bucket = await findBucket(tx, caller.workspaceId, req.params.id);
      const gone = await tx
        .delete(storageObject)
        .where(and(eq(storageObject.workspaceId, caller.workspaceId), eq(storageObject.bucketId, bucket.id)))
        .returning({ version: storageObject.version });
      return { bucket, versions: gone.map((g) => g.version) };
    });
    await disk.discard(...versions.map((v) => disk.key(caller.workspaceId, bucket.name, v)));
    return { message: "Successfully emptied" };
  });

  app.delete<{ Params: { id: string } }>("/bucket/:id", async (req) => {
    const caller = await member(req, db, "bucket.delete");
    const bucket = await asCaller(db, caller, async (tx) => {
      const bucket = await findBucket(tx, caller.workspaceId, req.params.id);
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(storageObject)
        .where(and(eq(storageObject.workspaceId, caller.workspaceId), eq(storageObject.bucketId, bucket.id)));
      if (n > 0) throw new StorageError(409, "BucketNotEmpty", "The bucket is not empty. Empty it first.");
      await tx
        .delete(storageBucket)
        .where(and(eq(storageBucket.workspaceId, caller.workspaceId), eq(storageBucket.id, bucket.id)));
      return bucket;
    });
    await disk.removeBucket(caller.workspaceId, bucket.name);
    return { message: "Successfully deleted" };
  });
}
