import { sql } from "drizzle-orm";
import { bigint, boolean, foreignKey, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { authUser, workspace } from "./platform-schema.ts";

// ---- /storage/v1 (DESIGN §2.1, issue 5 item 6): per-workspace buckets and the objects in them ----
// Bytes live on disk under DATA_DIR/storage/<workspace_id>/<bucket>/; these rows are the catalogue.

export const storageBucket = pgTable(
  "storage_bucket",
  {
    ...tenantColumns,
    // The bucket id storage-js passes around; unique within a workspace only.
    name: text("name").notNull(),
    public: boolean("public").notNull().default(false),
    fileSizeLimit: bigint("file_size_limit", { mode: "number" }),
    allowedMimeTypes: text("allowed_mime_types").array(),
    owner: uuid("owner").references(() => authUser.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("storage_bucket", t, workspace),
    uniqueIndex("storage_bucket_name_key").on(t.workspaceId, t.name),
  ],
).enableRLS();

export const storageObject = pgTable(
  "storage_object",
  {
    ...tenantColumns,
    bucketId: bigint("bucket_id", { mode: "number" }).notNull(),
    // The object's full path inside its bucket ("folder/sub/file.pdf"); folders are implied by the slashes.
    name: text("name").notNull(),
    // Stable public id (storage-js `id`), kept across overwrites and moves.
    uid: uuid("uid").notNull().defaultRandom(),
    // Names the file on disk; a new version per upload, so an overwrite never touches the bytes being read.
    version: uuid("version").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    mimeType: text("mime_type").notNull(),
    cacheControl: text("cache_control").notNull().default("max-age=3600"),
    etag: text("etag").notNull(),
    userMetadata: jsonb("user_metadata").$type<Record<string, unknown>>(),
    owner: uuid("owner").references(() => authUser.id, { onDelete: "set null" }),
    lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("storage_object", t, workspace),
    foreignKey({
      columns: [t.workspaceId, t.bucketId],
      foreignColumns: [storageBucket.workspaceId, storageBucket.id],
    }),
    // Byte order (COLLATE "C") so prefix listings use the index and sort the same on every server.
    uniqueIndex("storage_object_name_key").on(t.workspaceId, t.bucketId, sql`${t.name} collate "C"`),
  ],
).enableRLS();
