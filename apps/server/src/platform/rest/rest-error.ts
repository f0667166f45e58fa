import { checkMessage, findResource } from "@workmetrics/domain/resources";
import { databaseTrouble } from "../db/database-errors.ts";
import { constraintColumns } from "./resource-meta.ts";

// PostgREST's error shape (DESIGN §2.1): {code, message, details, hint}, with its codes where they apply.
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }

  body() {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export const parseError = (message: string, details: unknown = null) =>
  new RestError(400, "PGRST100", message, details);

export const unknownColumn = (resource: string, column: string) =>
  new RestError(400, "42703", `column ${resource}.${column} does not exist`);

// A filter, order or limit addressed to an embed the select does not have (PostgREST's wording).
export const notEmbedded = (name: string) =>
  new RestError(
    400,
    "PGRST108",
    `'${name}' is not an embedded resource in this request`,
    null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );

type PgLikeError = {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
  column?: unknown;
  constraint?: unknown;
};

// The Postgres error under a driver or Drizzle wrapper (DrizzleQueryError keeps it as `cause`).
function pgError(err: unknown): PgLikeError | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as PgLikeError).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return e as PgLikeError;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

// "Key (workspace_id, sku)=(…, A-1) already exists." → "Key (sku)=(A-1) already exists.": the workspace is never
// the user's doing, and its id is not theirs to see in a message.
export function withoutWorkspace(detail: string): string {
  const m = /^Key \(([^)]*)\)=\((.*)\)( .*)$/s.exec(detail);
  if (!m) return detail;
  const cols = m[1].split(",").map((c) => c.trim());
  const i = cols.indexOf("workspace_id");
  if (i < 0) return detail;
  const values = m[2].split(", ");
  if (values.length !== cols.length) return `Key (${cols.filter((c) => c !== "workspace_id").join(", ")})${m[3]}`;
  cols.splice(i, 1);
  values.splice(i, 1);
  return `Key (${cols.join(", ")})=(${values.join(", ")})${m[3]}`;
}

// Map a database error to a client error; null when it is ours (a 500, logged, never shown).
// "update or delete on table "category" violates foreign key constraint "…" on table "product"": name what still
// uses the record, so the person knows where to look.
function stillUsed(message: string): string {
  const table = /on table "([a-z_]+)"$/.exec(message)?.[1];
  const using = table ? findResource(table) : undefined;
  return using
    ? `This record is still used by ${using.plural.toLowerCase()}: change or delete those first`
    : "This record is still used by other records";
}

export function fromDatabaseError(err: unknown): RestError | null {
  if (err instanceof RestError) return err;
  // A lost connection is PostgREST's PGRST001 (503); a statement stopped by statement_timeout keeps its SQLSTATE.
  const trouble = databaseTrouble(err);
  if (trouble?.kind === "unavailable") {
    return new RestError(503, "PGRST001", trouble.message, null, "Retry the request in a few seconds");
  }
  if (trouble?.kind === "timeout") {
    return new RestError(
      504,
      "57014",
      trouble.message,
      null,
      "Add filters or a smaller limit, or ask for fewer embeds",
    );
  }
  const pg = pgError(err);
  if (!pg || typeof pg.code !== "string") return null;
  const code = pg.code;
  const message = typeof pg.message === "string" ? pg.message : "Request refused by the database";
  const detail = typeof pg.detail === "string" ? withoutWorkspace(pg.detail) : null;
  const hint = typeof pg.hint === "string" ? pg.hint : null;
  const column = typeof pg.column === "string" ? pg.column : null;
  const keyColumns = typeof pg.constraint === "string" ? constraintColumns(pg.constraint) : null;
  const keyDetail = (tail: string) =>
    detail ?? (keyColumns?.length ? `Key (${keyColumns.join(", ")})=(…) ${tail}` : null);
  switch (code) {
    case "23505":
      return new RestError(
        409,
        code,
        keyColumns?.length
          ? `Another record already has this ${keyColumns.join(" and ")}`
          : "A record with this value already exists",
        keyDetail("already exists."),
        hint,
      );
    case "23503":
      return new RestError(
        409,
        code,
        /is still referenced/.test(detail ?? "") || /update or delete/.test(message)
          ? stillUsed(message)
          : `The referenced record does not exist${keyColumns?.length ? ` (${keyColumns.join(", ")})` : ""}`,
        /update or delete/.test(message) ? detail : keyDetail("is not present."),
        hint,
      );
    case "23502":
      return new RestError(400, code, column ? `${column} is required` : message, detail, hint);
    case "23514": {
      // A CHECK the registry explains reads like the form's own message (422, on its field); others keep Postgres's.
      const known = typeof pg.constraint === "string" ? checkMessage(pg.constraint) : undefined;
      if (known) {
        const field = known.field ?? column;
        return new RestError(422, code, known.message, field ? [{ field, message: known.message }] : null, null);
      }
      return new RestError(400, code, message, column ? [{ field: column, message }] : detail, hint);
    }
    case "42501":
      return new RestError(403, code, "Permission denied", null, null);
    case "40001":
    case "40P01":
      return new RestError(409, code, "The record changed at the same time; try again", null, null);
  }
  // PostgREST's convention: a RAISE with SQLSTATE PTxyz answers HTTP xyz (the books' lock date raises PT409).
  if (/^PT[45]\d\d$/.test(code)) return new RestError(Number(code.slice(2)), code, message, detail, hint);
  // Class 22 (data exceptions: a value that does not fit its column) is the client's input.
  if (code.startsWith("22")) return new RestError(400, code, message, detail, hint);
  return null;
}
