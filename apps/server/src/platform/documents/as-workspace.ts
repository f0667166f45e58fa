import { sql } from "drizzle-orm";
import { isUuid, type Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import type { DocumentEvent } from "./store.ts";

// Issue 20 §3: acting for a second workspace inside one transaction — the marketplace's accept makes the seller's
// sales order and the buyer's purchase order together. A request's transaction is scoped to its workspace
// (app.workspace_id, which row-level security and the engine's own filter read; DESIGN §2.2); asWorkspace re-scopes
// it for the length of `fn` and restores it after, so that outside `fn` the other workspace's rows stay refused.
// What the engine keeps per transaction is kept per workspace too (settings.ts).
//
// Audited on both sides: every document event written in the other workspace names the acting user and, in its
// changes, the workspace acted from (`acted_from`); and the acting workspace gets the same events with the workspace
// acted in (`acted_in`), so each side's audit says who did what from where.

type Acting = { from: string; events: DocumentEvent[] };
const acting = new WeakMap<Caller, Acting>();

export async function asWorkspace<T>(
  tx: Tx,
  workspaceId: string,
  actor: Caller,
  fn: (caller: Caller) => Promise<T>,
): Promise<T> {
  const from = actor.workspaceId;
  if (!from) throw new Error("asWorkspace acts from a workspace: the actor has none");
  if (!isUuid(workspaceId)) throw new Error(`asWorkspace needs a workspace id (uuid), not ${workspaceId}`);
  if (workspaceId === from) return fn(actor);
  const res = await tx.execute(sql`select current_setting('app.workspace_id', true) as ws,
      current_setting('app.user_id', true) as user_id,
      set_config('app.workspace_id', ${workspaceId}, true) as now_ws,
      set_config('app.user_id', ${actor.userId ?? ""}, true) as now_user`);
  const before = res.rows[0] as { ws: string | null; user_id: string | null };
  const caller: Caller = { ...actor, workspaceId };
  const mine: Acting = { from, events: [] };
  acting.set(caller, mine);
  let result: T;
  try {
    result = await fn(caller);
  } finally {
    await restore(tx, before);
  }
  if (mine.events.length > 0) await auditActing(tx, actor, workspaceId, mine.events);
  return result;
}

// Back to the first workspace's settings. After a failed statement the transaction is aborted and only rolls back,
// so a failed restore then is not the error to report.
async function restore(tx: Tx, before: { ws: string | null; user_id: string | null }): Promise<void> {
  try {
    await tx.execute(sql`select set_config('app.workspace_id', ${before.ws ?? ""}, true),
        set_config('app.user_id', ${before.user_id ?? ""}, true)`);
  } catch {
    // The transaction is ending with the error `fn` threw.
  }
}

// The acting workspace's side of the events written in the other (one statement).
async function auditActing(tx: Tx, actor: Caller, actedIn: string, events: DocumentEvent[]): Promise<void> {
  const rows = events.map(
    (
      e,
    ) => sql`(${actor.workspaceId}::uuid, ${e.type}, ${e.docId}, ${e.action}, ${e.from}, ${e.to}, ${actor.userId}::uuid,
      ${JSON.stringify({ acted_in: actedIn })}::jsonb)`,
  );
  await tx.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, from_status, to_status,
      user_id, changes) values ${sql.join(rows, sql`, `)}`);
}

// The changes an audit row of `caller` carries: the event's own, plus the workspace acted from when the caller acts
// for another workspace (whose event is then noted for the acting side).
export function auditedChanges(caller: Caller, e: DocumentEvent): unknown {
  const a = acting.get(caller);
  if (!a) return e.changes;
  a.events.push(e);
  const own = e.changes;
  const base = own === undefined || own === null ? {} : typeof own === "object" && !Array.isArray(own) ? own : { own };
  return { ...base, acted_from: a.from };
}
