import type { SupabaseClient } from "@supabase/supabase-js";
import { DEFAULT_BUCKET, FOLDER_PLACEHOLDER, formatBytes, MAX_UPLOAD_BYTES } from "@workmetrics/domain";
import { getConfig } from "../../app/session/client.ts";

// One row of the list: a folder (an implied prefix) or a file.
export type Entry =
  | { kind: "folder"; name: string; path: string }
  | { kind: "file"; name: string; path: string; size: number; type: string; modified: string };

export const PAGE_SIZE = 100; // spec §9: the storage list's default
const BATCH = 1000; // the most storage-js's remove and list take at once
const MAX_TREE = 5000; // a folder bigger than this is renamed, moved or deleted in parts

type Storage = SupabaseClient["storage"];

export const files = (client: SupabaseClient) => client.storage.from(DEFAULT_BUCKET);

export const join = (prefix: string, name: string) => (prefix ? `${prefix}/${name}` : name);
export const parentOf = (path: string) => path.split("/").slice(0, -1).join("/");

// The workspace's default bucket, created on first use (looked up in the list, so first use logs no 404); a
// second tab creating it at the same moment is fine.
export async function ensureBucket(storage: Storage): Promise<void> {
  const { data, error } = await storage.listBuckets();
  if (error) throw error;
  if (data.some((b) => b.name === DEFAULT_BUCKET)) return;
  const made = await storage.createBucket(DEFAULT_BUCKET, { public: false });
  if (made.error && made.error.status !== 409) throw made.error;
}

// One page of a folder, sorted by name on the server; the placeholder that keeps empty folders is hidden.
export async function listPage(client: SupabaseClient, prefix: string, offset: number) {
  const { data, error } = await files(client).list(prefix, {
    limit: PAGE_SIZE,
    offset,
    sortBy: { column: "name", order: "asc" },
  });
  if (error) throw error;
  const entries = data
    .filter((o) => o.name !== FOLDER_PLACEHOLDER)
    .map(
      (o): Entry =>
        o.id === null
          ? { kind: "folder", name: o.name, path: join(prefix, o.name) }
          : {
              kind: "file",
              name: o.name,
              path: join(prefix, o.name),
              size: Number(o.metadata?.size ?? 0),
              type: String(o.metadata?.mimetype ?? "application/octet-stream"),
              modified: o.updated_at ?? o.created_at ?? "",
            },
    );
  return { entries, more: data.length === PAGE_SIZE };
}

// Every object path under a folder, placeholders included (what a folder rename, move or delete acts on).
export async function listTree(client: SupabaseClient, folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (prefix: string): Promise<void> => {
    for (let offset = 0; ; offset += BATCH) {
      const { data, error } = await files(client).list(prefix, { limit: BATCH, offset });
      if (error) throw error;
      for (const o of data) {
        if (o.id === null) await walk(join(prefix, o.name));
        else found.push(join(prefix, o.name));
        if (found.length > MAX_TREE) {
          throw new Error(`That folder holds more than ${MAX_TREE} files; work on its sub-folders instead.`);
        }
      }
      if (data.length < BATCH) return;
    }
  };
  await walk(folder);
  return found;
}

// Moves a file, or every object of a folder, to a new path (rename and move are both this).
export async function moveEntry(client: SupabaseClient, entry: Entry, to: string): Promise<void> {
  const pairs =
    entry.kind === "file"
      ? [[entry.path, to]]
      : (await listTree(client, entry.path)).map((p) => [p, to + p.slice(entry.path.length)]);
  if (pairs.length === 0) throw new Error("That folder is empty.");
  for (const [from, dest] of pairs) {
    const { error } = await files(client).move(from, dest);
    if (error) throw error;
  }
}

export async function removeEntry(client: SupabaseClient, entry: Entry): Promise<void> {
  const paths = entry.kind === "file" ? [entry.path] : await listTree(client, entry.path);
  for (let i = 0; i < paths.length; i += BATCH) {
    const { error } = await files(client).remove(paths.slice(i, i + BATCH));
    if (error) throw error;
  }
}

export async function createFolder(client: SupabaseClient, path: string): Promise<void> {
  const { error } = await files(client).upload(join(path, FOLDER_PLACEHOLDER), new Blob([]), {
    contentType: "text/plain",
  });
  if (error && error.status !== 409) throw error;
}

export async function signedUrl(
  client: SupabaseClient,
  path: string,
  seconds: number,
  download = false,
): Promise<string> {
  const { data, error } = await files(client).createSignedUrl(path, seconds, download ? { download: true } : {});
  if (error) throw error;
  return data.signedUrl;
}

export type UploadHandle = { done: Promise<void>; cancel(): void };

// storage-js uploads with fetch, which reports no progress; the same request over XHR does (raw body, as
// storage-js sends non-Blob bodies).
export function uploadWithProgress(
  token: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = (async () => {
    if (file.size > MAX_UPLOAD_BYTES)
      throw new Error(`${file.name} is larger than the ${formatBytes(MAX_UPLOAD_BYTES)} limit.`);
    const { anonKey } = await getConfig();
    await new Promise<void>((resolve, reject) => {
      const url = `/storage/v1/object/${DEFAULT_BUCKET}/${path.split("/").map(encodeURIComponent).join("/")}`;
      xhr.open("POST", url);
      xhr.setRequestHeader("authorization", `Bearer ${token}`);
      xhr.setRequestHeader("apikey", anonKey);
      xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
      xhr.setRequestHeader("cache-control", "max-age=3600");
      xhr.setRequestHeader("x-upsert", "false");
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) return resolve();
        reject(new Error(serverMessage(xhr.responseText) ?? `Upload failed (${xhr.status})`));
      };
      xhr.onerror = () => reject(new Error("The upload failed. Check your connection and try again."));
      xhr.onabort = () => reject(new Error("Upload cancelled"));
      xhr.send(file);
    });
  })();
  return { done, cancel: () => xhr.abort() };
}

function serverMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === "string" ? body.message : null;
  } catch {
    return null;
  }
}

// A storage-js error or any other: the message a person should read.
export const messageOf = (err: unknown, fallback: string) =>
  err instanceof Error && err.message ? err.message : fallback;
