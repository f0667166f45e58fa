import { announcesChanges, RESOURCES } from "@workmetrics/domain/resources";
import { getTableName, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { documentSpec } from "../documents/registry.ts";

// Issue 20 §4: postgres_changes on every registered resource. document_event is the one outbox realtime reads
// (feed.ts): the document commands write their rows there, and so do the inbox's and the marketplace's (below).
// Every other tenant resource with a bigint id (products, companies, contacts, locations, … and the rows only
// commands write, such as lines, postings and leave requests) gets the statement-level triggers of
// workmetrics_announce_rows: one INSERT … SELECT per statement writes one small row per changed row (table, id,
// create/update/delete, the member), so a bulk import costs one statement, not one per row, and document_event's own
// trigger sends at most 20 NOTIFYs for it. The feed reads the row afterwards as each member through /rest/v1, so the
// payload is never more than the member may read. Installed at every start (under the start-up lock), only where
// missing, like the row counts: a resource added later is announced from its first start.

// Tables whose changes their commands already write to document_event (besides the document headers): the inbox's and
// the marketplace's announcements, and every row whose history its commands keep there (writeEvent: a journal
// entry's "post", a leave request's decision, a POS order's e-mail, an account's edits …). Their rows must not be
// announced twice, nor their history mixed with (and pruned as) the triggers' change rows.
const BY_COMMANDS = new Set([
  "conversation",
  "conversation_message",
  "marketplace_sales_order",
  "marketplace_message",
  "account",
  "bank_account",
  "books_settings",
  "gst_return",
  "journal_entry",
  "year_end_close",
  "supplier_payment",
  "leave_request",
  "pos_order",
  "supplier_discount_form",
  "project_registration",
]);

function isDocumentHeader(table: string): boolean {
  try {
    documentSpec(table);
    return true;
  } catch {
    return false;
  }
}

// Announced by the commands that change them (the document types must be registered: registerModules()).
export const announcedByCommands = (table: string): boolean => BY_COMMANDS.has(table) || isDocumentHeader(table);

let triggered: ReadonlySet<string> | null = null;

// The registered tenant tables whose every change the triggers announce.
export function triggeredTables(): ReadonlySet<string> {
  if (triggered) return triggered;
  const out = new Set<string>();
  for (const r of RESOURCES) {
    const table = getTableName(r.table);
    if (announcesChanges(r) && !announcedByCommands(table)) out.add(table);
  }
  triggered = out;
  return out;
}

// The body of the trigger function: SECURITY DEFINER so a write made under another workspace's settings (the
// marketplace's two parties, the seed) is announced in the row's own workspace; a row deleted with its workspace (a
// sandbox's removal names it in app.removing_workspace, sandbox.ts; or a cascade) is not announced: its events go too.
const FUNCTION = `
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO document_event (workspace_id, doc_type, doc_id, action, user_id)
      SELECT n.workspace_id, TG_TABLE_NAME, n.id, 'create', nullif(current_setting('app.user_id', true), '')::uuid
      FROM new_rows n ORDER BY n.id;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO document_event (workspace_id, doc_type, doc_id, action, user_id)
      SELECT n.workspace_id, TG_TABLE_NAME, n.id, 'update', nullif(current_setting('app.user_id', true), '')::uuid
      FROM new_rows n ORDER BY n.id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO document_event (workspace_id, doc_type, doc_id, action, user_id)
      SELECT o.workspace_id, TG_TABLE_NAME, o.id, 'delete', nullif(current_setting('app.user_id', true), '')::uuid
      FROM old_rows o
      WHERE o.workspace_id::text IS DISTINCT FROM nullif(current_setting('app.removing_workspace', true), '')
        AND EXISTS (SELECT 1 FROM workspace w WHERE w.id = o.workspace_id)
      ORDER BY o.id;
  END IF;
  RETURN NULL;
END
`;

export async function installChangeAnnouncements(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const fn = await tx.execute(sql`select prosrc from pg_proc where proname = 'workmetrics_announce_rows'`);
    if ((fn.rows[0] as { prosrc?: string } | undefined)?.prosrc !== FUNCTION) {
      await tx.execute(
        sql.raw(`create or replace function workmetrics_announce_rows() returns trigger language plpgsql
          security definer set search_path = public as $fn$${FUNCTION}$fn$`),
      );
      await tx.execute(sql`revoke all on function workmetrics_announce_rows() from public`);
    }
    const res = await tx.execute(
      sql`select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname = c.relname || '_announce_ins'`,
    );
    const installed = new Set((res.rows as Array<{ name: string }>).map((r) => r.name));
    // A table its commands now announce loses the triggers an earlier start gave it.
    for (const table of installed) {
      if (triggeredTables().has(table)) continue;
      for (const suffix of ["announce_ins", "announce_upd", "announce_del"]) {
        await tx.execute(
          sql`drop trigger if exists ${sql.identifier(`${table}_${suffix}`)} on ${sql.identifier(table)}`,
        );
      }
    }
    for (const table of triggeredTables()) {
      if (installed.has(table)) continue;
      const t = sql.identifier(table);
      const name = (suffix: string) => sql.identifier(`${table}_${suffix}`);
      await tx.execute(sql`create trigger ${name("announce_ins")} after insert on ${t}
        referencing new table as new_rows for each statement execute function workmetrics_announce_rows()`);
      await tx.execute(sql`create trigger ${name("announce_upd")} after update on ${t}
        referencing new table as new_rows for each statement execute function workmetrics_announce_rows()`);
      await tx.execute(sql`create trigger ${name("announce_del")} after delete on ${t}
        referencing old table as old_rows for each statement execute function workmetrics_announce_rows()`);
    }
  });
}

// The triggers' rows are realtime's outbox only (a document's history reads the commands' own rows): kept a day — far
// beyond a LISTEN connection's catch-up — then pruned with the jobs (PRUNE_JOBS, every ten minutes), so
// document_event does not grow for ever with every product edit, import and seeded row.
export async function pruneAnnouncements(db: Db): Promise<number> {
  const tables = `{${[...triggeredTables()].join(",")}}`;
  const res = await db.execute(sql`delete from document_event
    where doc_type = any(${tables}::text[]) and at < now() - interval '1 day' returning id`);
  return res.rows.length;
}
