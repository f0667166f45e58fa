import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { copyFile, link, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { formatBytes } from "@workmetrics/domain";
import { StorageError } from "./storage-error.ts";

export type Written = { tmpPath: string; size: number; etag: string };

// Files under DATA_DIR/storage/<workspace_id>/<bucket>/<xx>/<version>. A file is named by its version id, never by
// the user's path, so no name reaches the file system and an overwrite writes a new file beside the old one.
export function createDiskStore(dataDir: string) {
  const root = path.join(dataDir, "storage");
  const tmpDir = path.join(root, ".tmp");

  const bucketDir = (workspaceId: string, bucket: string) => inside(path.join(root, workspaceId, bucket));
  const filePath = (workspaceId: string, bucket: string, version: string) =>
    inside(path.join(root, workspaceId, bucket, version.slice(0, 2), version));

  function inside(p: string): string {
    // The parts are a uuid, a validated bucket name and a uuid; this is the last line of defence all the same.
    if (!path.resolve(p).startsWith(`${root}${path.sep}`)) throw new Error("storage path escapes its root");
    return p;
  }

  return {
    root,
    filePath,
    bucketDir,

    // Streams a body to a temporary file, counting and hashing as it goes; stops with 413 past `limit` bytes.
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

    async place(tmpPath: string, target: string): Promise<void> {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmpPath, target);
    },

    // A second name for the same bytes (a move to another bucket); the old name is dropped after commit.
    async hardLink(from: string, to: string): Promise<void> {
      await mkdir(path.dirname(to), { recursive: true });
      await link(from, to);
    },

    async copy(from: string, to: string): Promise<void> {
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(from, to);
    },

    open: (p: string) => open(p, "r"),

    // Best effort: a file left behind costs disk, never correctness (rows are the catalogue).
    async discard(...paths: string[]): Promise<void> {
      await Promise.all(paths.map((p) => unlink(p).catch(() => undefined)));
    },

    // Uploads cut off by a crash leave temporary files; anything a day old is no upload in progress.
    async sweepTemporary(maxAgeMs = 24 * 3600 * 1000): Promise<void> {
      const names = await readdir(tmpDir).catch(() => [] as string[]);
      const cutoff = Date.now() - maxAgeMs;
      for (const name of names) {
        const p = path.join(tmpDir, name);
        const info = await stat(p).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(p, { force: true });
      }
    },

    async removeBucketDir(workspaceId: string, bucket: string): Promise<void> {
      await rm(bucketDir(workspaceId, bucket), { recursive: true, force: true });
    },

    // A removed workspace's files (a sandbox past its 24 hours): its whole folder.
    async removeWorkspace(workspaceId: string): Promise<void> {
      await rm(inside(path.join(root, workspaceId)), { recursive: true, force: true });
    },
  };
}

export type DiskStore = ReturnType<typeof createDiskStore>;

export const tooLarge = (limit: number) =>
  new StorageError(413, "EntityTooLarge", `The file is larger than the ${formatBytes(limit)} limit.`);

const aborted = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET"
    ? new StorageError(400, "InvalidRequest", "The upload was interrupted before the whole file arrived.")
    : (err as Error);
};
