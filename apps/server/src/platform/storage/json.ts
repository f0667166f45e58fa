import type { storageBucket, storageObject } from "@workmetrics/domain/db/schema";

export type BucketRow = typeof storageBucket.$inferSelect;
export type ObjectRow = typeof storageObject.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

// storage-js's Bucket: its `id` is the name.
export function bucketJson(b: BucketRow) {
  return {
    id: b.name,
    name: b.name,
    type: "STANDARD",
    owner: b.owner ?? "",
    public: b.public,
    file_size_limit: b.fileSizeLimit,
    allowed_mime_types: b.allowedMimeTypes,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
  };
}

type ObjectFields = Pick<
  ObjectRow,
  "uid" | "size" | "mimeType" | "cacheControl" | "etag" | "createdAt" | "updatedAt" | "lastAccessedAt"
>;

// storage-js's FileObject as list and remove return it; `name` is relative to the listed folder for list.
export function fileObjectJson(name: string, o: ObjectFields) {
  return {
    name,
    id: o.uid,
    updated_at: iso(o.updatedAt),
    created_at: iso(o.createdAt),
    last_accessed_at: iso(o.lastAccessedAt),
    metadata: {
      eTag: `"${o.etag}"`,
      size: Number(o.size),
      mimetype: o.mimeType,
      cacheControl: o.cacheControl,
      lastModified: iso(o.updatedAt),
      contentLength: Number(o.size),
      httpStatusCode: 200,
    },
  };
}

export function folderJson(name: string) {
  return { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null };
}

// storage-js's FileObjectV2 (info()).
export function infoJson(bucket: string, o: ObjectRow) {
  return {
    id: o.uid,
    version: o.version,
    name: o.name,
    bucket_id: bucket,
    size: Number(o.size),
    content_type: o.mimeType,
    cache_control: o.cacheControl,
    etag: `"${o.etag}"`,
    metadata: o.userMetadata ?? {},
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
    last_modified: iso(o.updatedAt),
    last_accessed_at: iso(o.lastAccessedAt),
  };
}
