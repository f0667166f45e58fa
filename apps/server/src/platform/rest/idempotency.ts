import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "./access.ts";
import { RestError } from "./rest-error.ts";

// DESIGN §2.3.2: a command sent with an Idempotency-Key runs once per (workspace, user, key) for 24 h; a repeat gets
// the first answer back (Idempotent-Replayed: true) without running again, the same key with another body or
// command is refused (422). Offline clients replay their queued commands with the key they made when the user acted.
//
// The key row is inserted first, in the command's own transaction: a concurrent duplicate's insert waits on it and,
// once the first commits, finds it and replays; if the first rolls back, the duplicate runs instead. Only answers
// of commands that committed are kept: a refused command changes nothing (DESIGN §2.3.1), so running it again under
// the same key is as safe as replaying its refusal, and a retry after the cause is fixed (stock arrived) succeeds.

export type IdempotentAnswer = { status: number; body: unknown; replayed: boolean };

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

// The request's key, or null when it sends none; a malformed key is a 400 before anything runs.
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header) || !PRINTABLE.test(header)) {
    throw new RestError(
      400,
      "idempotency_key_invalid",
      "The Idempotency-Key header must be one value of 1 to 255 printable characters",
      null,
      "Send a fresh random key (a UUID) per action",
    );
  }
  return header;
}

// The body's fingerprint: its JSON with object keys sorted, so the same arguments in another order are the same.
export function requestHash(fn: string, body: unknown): string {
  return createHash("sha256").update(fn).update("\0").update(canonical(body)).digest("hex");
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

// How many expired keys of the workspace a keyed command deletes on its way (the cleanup needs no schedule).
const SWEEP = 50;

// Runs `command` once for the caller's key, inside the request's transaction `tx`. Without a key, or for a caller
// outside a workspace (whom the command refuses anyway), it just runs.
export async function runIdempotent(
  tx: Tx,
  caller: Caller,
  request: { key: string | null; fn: string; body: unknown },
  command: () => Promise<unknown>,
): Promise<IdempotentAnswer> {
  const { key, fn } = request;
  if (key === null || caller.kind !== "member" || !caller.workspaceId || !caller.userId) {
    return { status: 200, body: await command(), replayed: false };
  }
  const ws = caller.workspaceId;
  const user = caller.userId;
  const hash = requestHash(fn, request.body);
  const claim = () =>
    tx.execute(sql`with swept as (
        delete from idempotency_key where workspace_id = ${ws}::uuid and ctid = any(array(
          select ctid from idempotency_key where workspace_id = ${ws}::uuid and expires_at < now()
            and not (user_id = ${user}::uuid and key = ${key}) limit ${SWEEP})))
      insert into idempotency_key (workspace_id, user_id, key, fn, request_hash, status_code)
      values (${ws}::uuid, ${user}::uuid, ${key}, ${fn}, ${hash}, 0)
      on conflict do nothing returning 1 as claimed`);
  let claimed = (await claim()).rows.length > 0;
  if (!claimed) {
    const res = await tx.execute(sql`select fn, request_hash, status_code, response, expires_at < now() as expired
      from idempotency_key where workspace_id = ${ws}::uuid and user_id = ${user}::uuid and key = ${key}`);
    const kept = res.rows[0] as
      | { fn: string; request_hash: string; status_code: number; response: unknown; expired: boolean }
      | undefined;
    if (kept && !kept.expired) {
      if (kept.fn !== fn || kept.request_hash !== hash) {
        throw new RestError(
          422,
          "idempotency_key_reused",
          kept.fn !== fn
            ? `This Idempotency-Key was used for ${kept.fn}; send a new key for ${fn}`
            : "This Idempotency-Key was used with different arguments; send a new key for a different request",
          { fn: kept.fn },
          "A key names one action: make a new one each time the user acts",
        );
      }
      const body = typeof kept.response === "string" ? JSON.parse(kept.response) : kept.response;
      return { status: kept.status_code, body, replayed: true };
    }
    // Expired (kept past its 24 h until swept) or removed meanwhile: the key is free again.
    await tx.execute(sql`delete from idempotency_key
      where workspace_id = ${ws}::uuid and user_id = ${user}::uuid and key = ${key}`);
    claimed = (await claim()).rows.length > 0;
    if (!claimed) throw new RestError(409, "idempotency_key_busy", "This request is already running; try again");
  }
  // A command that answers nothing answers null, so that its replay is the same.
  const body = (await command()) ?? null;
  await tx.execute(sql`update idempotency_key set status_code = 200, response = ${JSON.stringify(body)}::jsonb
    where workspace_id = ${ws}::uuid and user_id = ${user}::uuid and key = ${key}`);
  return { status: 200, body, replayed: false };
}
