import { MAX_UPLOAD_BYTES, objectNameProblem } from "@workmetrics/domain";
import { StorageError } from "./storage-error.ts";

export { MAX_UPLOAD_BYTES };

// Path words of the /object API that cannot double as bucket names.
const RESERVED_BUCKETS = new Set(["list", "move", "copy", "sign", "info", "authenticated", "public", "upload"]);

export function bucketName(raw: unknown): string {
  if (typeof raw !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(raw)) {
    throw new StorageError(
      400,
      "InvalidBucketName",
      "A bucket name is 1 to 63 letters, digits, dots, dashes or underscores, starting with a letter or digit.",
    );
  }
  if (RESERVED_BUCKETS.has(raw.toLowerCase())) {
    throw new StorageError(400, "InvalidBucketName", `"${raw}" is a reserved word and cannot name a bucket.`);
  }
  return raw;
}

// An object's path inside its bucket: "folder/sub/file.pdf" (rules shared with the web, packages/domain).
export function objectName(raw: unknown): string {
  if (typeof raw !== "string") throw invalidKey("A file name is required.");
  const problem = objectNameProblem(raw);
  if (problem) throw invalidKey(problem);
  return raw;
}

// A list prefix: "" for the bucket's top level, otherwise a folder path ending with "/".
export function listPrefix(raw: unknown): string {
  if (raw === undefined || raw === null || raw === "") return "";
  if (typeof raw !== "string") throw invalidKey("The prefix must be a string.");
  const trimmed = raw.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  return `${objectName(trimmed)}/`;
}

const invalidKey = (message: string) => new StorageError(400, "InvalidKey", message);

// Types a browser may show inline without running anything; everything else downloads (no stored XSS via HTML/SVG).
export function safeInline(mimeType: string): boolean {
  const base = mimeType.split(";")[0].trim().toLowerCase();
  return (
    (base.startsWith("image/") && base !== "image/svg+xml") ||
    base.startsWith("audio/") ||
    base.startsWith("video/") ||
    base === "application/pdf" ||
    base === "text/plain" ||
    base === "text/csv"
  );
}

// RFC 6266 with an RFC 5987 UTF-8 name, and an ASCII fallback for old clients.
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

// A bucket's file_size_limit as storage-js sends it: bytes as a number, or a string such as "20MB".
export function fileSizeLimit(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  let bytes: number;
  if (typeof raw === "number") bytes = raw;
  else if (typeof raw === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(raw);
    if (!m)
      throw new StorageError(400, "InvalidRequest", 'file_size_limit is a number of bytes or a size like "20MB".');
    bytes = Number(m[1]) * UNITS[(m[2] ?? "b").toLowerCase()];
  } else {
    throw new StorageError(400, "InvalidRequest", 'file_size_limit is a number of bytes or a size like "20MB".');
  }
  if (!Number.isFinite(bytes) || bytes < 1 || bytes > MAX_UPLOAD_BYTES) {
    throw new StorageError(400, "InvalidRequest", "file_size_limit must be between 1 byte and 50 MB.");
  }
  return Math.floor(bytes);
}

// "image/*" allows every image type; entries are matched against the type without its parameters.
export function mimeAllowed(mimeType: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const base = mimeType.split(";")[0].trim().toLowerCase();
  return allowed.some((a) => {
    const rule = a.trim().toLowerCase();
    return rule.endsWith("/*") ? base.startsWith(rule.slice(0, -1)) : base === rule;
  });
}

// Cache-Control of a stored object: storage-js sends "3600" in forms and "max-age=3600" as a header (spec §9).
export function cacheControl(raw: string | undefined): string {
  if (!raw) return "max-age=3600";
  const value = raw.trim();
  if (/^\d{1,9}$/.test(value)) return `max-age=${value}`;
  if (/^(public, |private, )?max-age=\d{1,9}$/.test(value) || value === "no-cache") return value;
  return "max-age=3600";
}
