import { memberRequirement, type Requirement } from "./access.ts";

// Files (issue 5 item 6): the rules the server enforces and the web checks before it asks.

// The largest file the server takes; a bucket may set a smaller limit.
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const MAX_OBJECT_NAME_BYTES = 1024;

// The bucket every workspace's "My files" page uses, created on first use.
export const DEFAULT_BUCKET = "files";

// An empty folder is kept alive by this hidden object, as Supabase Studio does.
export const FOLDER_PLACEHOLDER = ".emptyFolderPlaceholder";

// Share links expire (spec §9 signed URLs): the choices the page offers, in seconds.
export const SHARE_EXPIRIES = [
  { label: "1 hour", seconds: 3600 },
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 604_800 },
] as const;

// UTF-8 byte length without TextEncoder or Buffer (this package runs in both the browser and Node).
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

// Characters that would change a URL's meaning (? # %), backslashes, and control characters.
const FORBIDDEN = /[?#%\\\p{Cc}]/u;

// What is wrong with an object's path inside its bucket ("folder/sub/file.pdf"), or null when it is fine.
export function objectNameProblem(name: string): string | null {
  if (name === "") return "A file name is required.";
  if (utf8Length(name) > MAX_OBJECT_NAME_BYTES) return "That path is too long (1024 bytes at most).";
  if (FORBIDDEN.test(name)) return "A file name cannot contain ? # % \\ or control characters.";
  if (name.startsWith("/")) return "A path cannot start with a slash.";
  for (const s of name.split("/")) {
    if (s === "") return "A path cannot contain empty folder names or end with a slash.";
    if (s === "." || s === "..") return 'A path cannot contain "." or ".." segments.';
    if (s.trim() === "") return "A file or folder name cannot be blank.";
    if (utf8Length(s) > 255) return "A file or folder name is 255 bytes at most.";
  }
  return null;
}

// One file or folder name typed by a person (rename, new folder): a single segment, so no slashes either.
export function entryNameProblem(name: string): string | null {
  if (name.trim() === "") return "A name is required.";
  if (name.includes("/")) return "A name cannot contain a slash.";
  return objectNameProblem(name);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round((bytes / 1024 / 1024 / 1024) * 10) / 10} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

// ---- who may do what with files (issue 9 §3) -------------------------------------------------------------------

export type StoragePermission =
  | "file.read"
  | "file.create"
  | "file.update"
  | "file.delete"
  | "bucket.create"
  | "bucket.update"
  | "bucket.delete";

// What each storage action needs of a member; the server refuses with the decision's message, the web hides it.
export const STORAGE_ACTIONS: Record<StoragePermission, Requirement> = {
  "file.read": memberRequirement("file.read", "open the workspace's files"),
  "file.create": memberRequirement("file.create", "upload files"),
  "file.update": memberRequirement("file.update", "replace, rename or move files"),
  "file.delete": memberRequirement("file.delete", "delete files"),
  "bucket.create": memberRequirement("bucket.create", "create buckets"),
  "bucket.update": memberRequirement("bucket.update", "change buckets"),
  "bucket.delete": memberRequirement("bucket.delete", "empty or delete buckets"),
};

// The permission matrix's rows for files and buckets (they are not /rest/v1 resources). Listing buckets is part
// of reading files, so buckets offer no read of their own.
export const STORAGE_GRANTS = [
  { name: "file", plural: "Files", actions: ["read", "create", "update", "delete"] },
  { name: "bucket", plural: "Buckets", actions: ["create", "update", "delete"] },
] as const;

export const MB = 1024 * 1024;

// Refused uploads say how much the plan holds, so the person knows to delete files or upgrade.
export const storageFullMessage = (quotaBytes: number, tierTitle: string): string =>
  `This workspace's storage is full (${formatBytes(quotaBytes)} on the ${tierTitle} plan): delete files or upgrade`;
