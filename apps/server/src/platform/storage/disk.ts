import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { formatBytes } from "@workmetrics/domain";
import type { S3Settings } from "./s3.ts";
import { createS3Store } from "./s3.ts";
import { StorageError } from "./storage-error.ts";

export type Written = { tmpPath: string; size: number; etag: string };

// An open stored file: read once as a stream, or closed unread.
export type OpenedFile = { createReadStream(): NodeJS.ReadableStream; close(): Promise<void> };

// Where the bytes of files live (issue 25: every instance reaches the same store). The rows (storage_object) are the
// catalogue; a file is named by its key — workspace, bucket and version id, never the user's path — so no name of a
// user's reaches the store, and an overwrite writes a new file beside the old one. An upload is first streamed to a
// local temporary file (counted, hashed, stopped at the limit) and then placed under its key.
// Two implementations, chosen by configuration (config.storage): a directory every instance reaches (DATA_DIR/storage,
// a shared volume), and an S3-compatible object store (s3.ts).
export interface FileStore {
  readonly kind: "directory" | "s3";
  key(workspaceId: string, bucket: string, version: string): string;
  // Streams a body to a local temporary file, counting and hashing as it goes; stops with 413 past `limit` bytes.
  write(source: NodeJS.ReadableStream, limit: number): Promise<Written>;
  // The temporary file becomes the stored file under `key` (and is gone from the temporary place).
  place(tmpPath: string, key: string): Promise<void>;
  put(key: string, bytes: Buffer): Promise<void>;
  // The bytes, or null when there is no such file.
  get(key: string): Promise<Buffer | null>;
  // The file held open (a later delete does not pull it away from a reader); rejects when there is none.
  open(key: string): Promise<OpenedFile>;
  // The bytes under a second key (a move to another bucket); the old key is discarded after commit.
  hardLink(from: string, to: string): Promise<void>;
  copy(from: string, to: string): Promise<void>;
  // Best effort: a file left behind costs room, never correctness (rows are the catalogue).
  discard(...keys: string[]): Promise<void>;
  discardTemporary(...tmpPaths: string[]): Promise<void>;
  // Uploads cut off by a crash leave temporary files; anything a day old is no upload in progress.
  sweepTemporary(maxAgeMs?: number): Promise<void>;
  removeBucket(workspaceId: string, bucket: string): Promise<void>;
  // A removed workspace's files (a sandbox past its 24 hours).
  removeWorkspace(workspaceId: string): Promise<void>;
}

export type StorageSettings = { kind: "directory" } | ({ kind: "s3" } & S3Settings);

// The store configuration names: S3_BUCKET set → the S3-compatible store, else DATA_DIR/storage.
export function createFileStore(opts: { dataDir: string; storage?: StorageSettings }): FileStore {
  const staging = createStaging(opts.dataDir);
  return opts.storage?.kind === "s3"
    ? createS3Store(opts.storage, staging)
    : createDirectoryStore(opts.dataDir, staging);
}

// The local temporary files of uploads (both stores stage there): DATA_DIR/storage/.tmp.
export type Staging = ReturnType<typeof createStaging>;
export function createStaging(dataDir: string) {
  const tmpDir = path.join(dataDir, "storage", ".tmp");
  return {
    async write(source: NodeJS.ReadableStream, limit: number): Promise<Written> {
      await mkdir(tmpDir, { recursive: true });
      const tmpPath = path.join(tmpDir, randomUUID());
      const md5 = createHash("md5");
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > limit) return done(tooLarge(limit));
          md5.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(tmpPath, { flags: "wx" }));
      } catch (err) {
        await rm(tmpPath, { force: true });
        throw err instanceof StorageError ? err : aborted(err);
      }
      return { tmpPath, size, etag: md5.digest("hex") };
    },
    async discard(...tmpPaths: string[]): Promise<void> {
      await Promise.all(tmpPaths.map((p) => unlink(p).catch(() => undefined)));
    },
    async sweep(maxAgeMs = 24 * 3600 * 1000): Promise<void> {
      const names = await readdir(tmpDir).catch(() => [] as string[]);
      const cutoff = Date.now() - maxAgeMs;
      for (const name of names) {
        const p = path.join(tmpDir, name);
        const info = await stat(p).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(p, { force: true });
      }
    },
  };
}

// Files under DATA_DIR/storage/<workspace_id>/<bucket>/<xx>/<version>.
export function createDirectoryStore(dataDir: string, staging = createStaging(dataDir)): FileStore {
  const root = path.join(dataDir, "storage");

  function inside(p: string): string {
    // The parts are a uuid, a validated bucket name and a uuid; this is the last line of defence all the same.
    if (!path.resolve(p).startsWith(`${root}${path.sep}`)) throw new Error("storage path escapes its root");
    return p;
  }
  const at = (key: string) => inside(path.join(root, key));

  return {
    kind: "directory",
    key: (workspaceId, bucket, version) => path.posix.join(workspaceId, bucket, version.slice(0, 2), version),
    write: staging.write,
    async place(tmpPath, key) {
      await mkdir(path.dirname(at(key)), { recursive: true });
      await rename(tmpPath, at(key));
    },
    async put(key, bytes) {
      await mkdir(path.dirname(at(key)), { recursive: true });
      await writeFile(at(key), bytes);
    },
    get: (key) => readFile(at(key)).catch(() => null),
    open: (key) => open(at(key), "r"),
    async hardLink(from, to) {
      await mkdir(path.dirname(at(to)), { recursive: true });
      await link(at(from), at(to));
    },
    async copy(from, to) {
      await mkdir(path.dirname(at(to)), { recursive: true });
      await copyFile(at(from), at(to));
    },
    async discard(...keys) {
      await Promise.all(keys.map((k) => unlink(at(k)).catch(() => undefined)));
    },
    discardTemporary: staging.discard,
    sweepTemporary: staging.sweep,
    async removeBucket(workspaceId, bucket) {
      await rm(at(path.join(workspaceId, bucket)), { recursive: true, force: true });
    },
    async removeWorkspace(workspaceId) {
      await rm(at(workspaceId), { recursive: true, force: true });
    },
  };
}

export const tooLarge = (limit: number) =>
  new StorageError(413, "EntityTooLarge", `The file is larger than the ${formatBytes(limit)} limit.`);

const aborted = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET"
    ? new StorageError(400, "InvalidRequest", "The upload was interrupted before the whole file arrived.")
    : (err as Error);
};
