import { errorMessage } from "@workmetrics/domain";

// A failed /rest/v1 call in PostgREST's error shape ({code,message,details,hint}) plus the HTTP status,
// with the message for each field the server blamed (422 validation, 409 conflicts), for forms to show.
export class DataError extends Error {
  readonly fields: Record<string, string>;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
    readonly hint: string | null,
  ) {
    super(message);
    this.fields = fieldErrors(code, message, details);
  }
}

type PgError = { code?: string; message?: string; details?: unknown; hint?: string | null };

export function toDataError(error: PgError, status: number): DataError {
  if (status === 0 || (/fetch|network/i.test(error.message ?? "") && !error.code)) {
    return new DataError(0, "network", "Cannot reach the server. Check your connection and try again.", null, null);
  }
  return new DataError(
    status,
    error.code ?? String(status),
    errorMessage(error, `Request failed (${status})`),
    parseDetails(error.details),
    error.hint ?? null,
  );
}

// postgrest-js hands `details` over as the server sent it; a JSON string (a list of field issues) is parsed.
function parseDetails(details: unknown): unknown {
  if (typeof details !== "string" || !/^[[{]/.test(details.trim())) return details;
  try {
    return JSON.parse(details);
  } catch {
    return details;
  }
}

const UNIQUE = "23505";
const FOREIGN_KEY = "23503";
const NOT_NULL = "23502";
const CHECK = "23514";

// Which field a server error is about: a list of {field|path, message} issues, or Postgres's own wording.
export function fieldErrors(code: string, message: string, details: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const issues = Array.isArray(details)
    ? details
    : details && typeof details === "object" && Array.isArray((details as { issues?: unknown }).issues)
      ? (details as { issues: unknown[] }).issues
      : // A map of field → message; a refusal's own facts ({reason, source, …} of a 409) name no field unless they
        // say which ({reason, field}: a supplier's number already used), and then its message is the field's.
        details && typeof details === "object" && !Array.isArray(details)
        ? "reason" in details
          ? [{ field: (details as { field?: unknown }).field, message }]
          : Object.entries(details as Record<string, unknown>).map(([field, m]) => ({ field, message: m }))
        : [];
  for (const issue of issues) {
    if (!issue || typeof issue !== "object") continue;
    const i = issue as { field?: unknown; path?: unknown; message?: unknown };
    const field = typeof i.field === "string" ? i.field : Array.isArray(i.path) ? String(i.path[0] ?? "") : "";
    const text = Array.isArray(i.message) ? String(i.message[0]) : typeof i.message === "string" ? i.message : "";
    if (field && text && !(field in out)) out[field] = text;
  }
  if (Object.keys(out).length) return out;
  const text = `${message} ${typeof details === "string" ? details : ""}`;
  // "Key (workspace_id, sku)=(…, A-1) already exists." names the columns; the workspace is never the user's doing.
  const key = /Key \(([^)]+)\)=/.exec(text);
  const keyField = key?.[1]
    .split(",")
    .map((s) => s.trim())
    .filter((c) => c !== "workspace_id")
    .pop();
  if (code === UNIQUE && keyField) out[keyField] = message || "Already used by another record";
  else if (code === FOREIGN_KEY && keyField) out[keyField] = "Does not exist (or is still in use)";
  else if (code === NOT_NULL) {
    const col = /column "([^"]+)"/.exec(text)?.[1];
    if (col) out[col] = "Required";
  } else if (code === CHECK) {
    const col = /column "([^"]+)"/.exec(text)?.[1];
    if (col) out[col] = message;
  }
  return out;
}

// The message of a refusal (401, 403, 405): a page shows it in place of its content, never as an empty list.
export function refusal(error: unknown): string | null {
  return error instanceof DataError && [401, 403, 405].includes(error.status) ? error.message : null;
}
