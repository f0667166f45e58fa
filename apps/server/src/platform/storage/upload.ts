import type { IncomingHttpHeaders } from "node:http";
import Busboy from "@fastify/busboy";
import type { FileStore, Written } from "./disk.ts";
import { cacheControl } from "./names.ts";
import { invalid, StorageError } from "./storage-error.ts";

export type Received = Written & {
  mimeType: string;
  cacheControl: string;
  metadata: Record<string, unknown> | null;
};

// An upload body as storage-js sends it: a multipart form (a Blob or File, with cacheControl and metadata fields)
// or the raw bytes with Content-Type, Cache-Control and a base64 x-metadata header. Streamed to disk either way.
export function receiveUpload(
  source: NodeJS.ReadableStream,
  headers: IncomingHttpHeaders,
  limit: number,
  disk: FileStore,
): Promise<Received> {
  const type = headers["content-type"] ?? "";
  if (/^multipart\/form-data/i.test(type)) return receiveForm(source, headers, limit, disk);
  return disk.write(source, limit).then((written) => ({
    ...written,
    mimeType: mimeOrDefault(type),
    cacheControl: cacheControl(header(headers["cache-control"])),
    metadata: parseMetadata(header(headers["x-metadata"]), true),
  }));
}

function receiveForm(
  source: NodeJS.ReadableStream,
  headers: IncomingHttpHeaders,
  limit: number,
  disk: FileStore,
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Promise<Written & { mimeType: string }> | null = null;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.resume();
      reject(err);
    };
    let form: ReturnType<typeof Busboy>;
    try {
      form = Busboy({
        headers: headers as IncomingHttpHeaders & { "content-type": string },
        limits: { files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12, fieldNameSize: 1024 },
      });
    } catch {
      return reject(invalid("The upload form could not be read."));
    }
    form.on("field", (name, value) => {
      fields[name] = value;
    });
    form.on("file", (_name, stream, _fileName, _encoding, mimeType) => {
      if (file) return void stream.resume();
      file = disk.write(stream, limit).then((w) => ({ ...w, mimeType: mimeOrDefault(mimeType) }));
      file.catch(fail);
    });
    form.on("finish", () => {
      if (!file) return fail(invalid("The upload has no file in it."));
      file.then((w) => {
        if (settled) return void disk.discardTemporary(w.tmpPath);
        settled = true;
        try {
          resolve({
            ...w,
            mimeType: fields.contentType ? mimeOrDefault(fields.contentType) : w.mimeType,
            cacheControl: cacheControl(fields.cacheControl),
            metadata: parseMetadata(fields.metadata, false),
          });
        } catch (err) {
          void disk.discardTemporary(w.tmpPath);
          reject(err);
        }
      }, fail);
    });
    form.on("error", () => fail(invalid("The upload form could not be read.")));
    source.on("error", () => fail(new StorageError(400, "InvalidRequest", "The upload was interrupted.")));
    source.pipe(form);
  });
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function mimeOrDefault(raw: string | undefined): string {
  const value = (raw ?? "").trim();
  // type/subtype with optional parameters; no line breaks or other header tricks.
  return /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[^"\r\n]*"|[\w.+-]+))*$/.test(value) && value.length <= 200
    ? value
    : "application/octet-stream";
}

// User metadata: a JSON object, base64-encoded when it comes as a header (storage-js's x-metadata).
function parseMetadata(raw: string | undefined, base64: boolean): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const text = base64 ? Buffer.from(raw, "base64").toString("utf8") : raw;
    if (text.length > 8192) throw new Error("too long");
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw invalid("metadata must be a JSON object of at most 8 KB.");
}
