import { COMMANDS } from "@workmetrics/domain/commands";
import type { OfflineConflictView } from "@workmetrics/domain/commands/roleapps";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// Issue 22 "Offline": a role app reports the action the server refused on replay, once per action (its
// Idempotency-Key; a second report of the same key answers the first), and a manager lists and resolves them.
// Each in the request's one transaction; both walls hold (workspace filter here, RLS on the table).

const VIEW = sql`c.id, c.app, c.command, c.label, c.args_summary, c.code, c.message, c.key, c.user_id::text,
  (select u.name from "user" u where u.workspace_id = c.workspace_id and u.id = c.user_id) as user_name,
  c.acted_at, c.created_at, c.resolved_at,
  (select u.name from "user" u where u.workspace_id = c.workspace_id and u.id = c.resolved_by) as resolved_by_name,
  c.resolution_note
  from offline_conflict c`;

async function view(tx: Tx, ws: string, id: number): Promise<OfflineConflictView> {
  const res = await tx.execute(sql`select ${VIEW} where c.workspace_id = ${ws}::uuid and c.id = ${id}`);
  return res.rows[0] as OfflineConflictView;
}

export const offlineConflictReport = implement(COMMANDS.offline_conflict_report, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const user = caller.userId as string;
    const inserted = await tx.execute(sql`insert into offline_conflict
        (workspace_id, app, command, label, args_summary, code, message, key, user_id, acted_at)
      values (${ws}::uuid, ${args.app}, ${args.command}, ${args.label}, ${args.args_summary}, ${args.code},
        ${args.message}, ${args.key}, ${user}::uuid, ${args.acted_at}::timestamptz)
      on conflict (workspace_id, user_id, key) do nothing returning id`);
    const id =
      (inserted.rows[0] as { id: number } | undefined)?.id ??
      (
        (
          await tx.execute(sql`select id from offline_conflict
          where workspace_id = ${ws}::uuid and user_id = ${user}::uuid and key = ${args.key}`)
        ).rows[0] as { id: number }
      ).id;
    return view(tx, ws, Number(id));
  },
});

export const offlineConflictResolve = implement(COMMANDS.offline_conflict_resolve, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const res = await tx.execute(sql`select id, resolved_at from offline_conflict
      where workspace_id = ${ws}::uuid and id = ${args.id} for update`);
    const row = res.rows[0] as { id: number; resolved_at: unknown } | undefined;
    if (!row) throw new RestError(404, "PGRST116", `There is no offline conflict ${args.id} in this workspace`);
    if (row.resolved_at) {
      const seen = await view(tx, ws, args.id);
      throw new RestError(
        409,
        "already_resolved",
        `This conflict was already resolved${seen.resolved_by_name ? ` by ${seen.resolved_by_name}` : ""}`,
      );
    }
    await tx.execute(sql`update offline_conflict set resolved_at = now(), resolved_by = ${caller.userId}::uuid,
        resolution_note = ${args.note || null}
      where workspace_id = ${ws}::uuid and id = ${args.id}`);
    return view(tx, ws, args.id);
  },
});

export const offlineConflictList = implement(COMMANDS.offline_conflict_list, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const which =
      args.status === "open"
        ? sql`and c.resolved_at is null`
        : args.status === "resolved"
          ? sql`and c.resolved_at is not null`
          : sql``;
    const rows = await tx.execute(sql`select ${VIEW} where c.workspace_id = ${ws}::uuid ${which}
      order by c.resolved_at is not null, c.created_at desc, c.id desc limit ${args.limit}`);
    const open = await tx.execute(sql`select count(*)::int as n from offline_conflict
      where workspace_id = ${ws}::uuid and resolved_at is null`);
    return { rows: rows.rows as OfflineConflictView[], open: Number((open.rows[0] as { n: number }).n) };
  },
});
